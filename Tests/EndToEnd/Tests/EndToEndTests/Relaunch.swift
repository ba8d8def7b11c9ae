import Testing
import Cookies
import Foundation

/// Calls `body` with the path of the app's jar file: a fresh one, in a temporary folder removed with
/// everything in it when `body` returns.
func withJarFilePath<R>(_ body: (String) async throws -> R) async throws -> R {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookiejar-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder.appendingPathComponent("cookies.sqlite").path)
}

/// What an app relaunch does to the jar: the app ends (the jar is closed, its file written), then a new
/// process opens the file again. Persistent cookies come back; session cookies, never written, do not
/// (rfc6265bis-22 §5.7: a cookie without expiry lasts until the session ends), unless `options` keep them
/// (`persistsSessionCookies`).
func relaunch(_ jar: CookieJar, options: CookieJarFileOptions = CookieJarFileOptions()) throws -> CookieJar {
    let path = try #require(jar.filePath)
    try jar.close()
    return try CookieJar(contentsOf: path, options: options)
}
