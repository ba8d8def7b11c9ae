import Testing
import Cookies
import Foundation

/// The app's jar file: a fresh one per run, in a temporary folder.
func makeJarFilePath() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookiejar-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("cookies.sqlite").path
}

/// What an app relaunch does to the jar: the app ends (the jar is closed, its file written), then a new
/// process opens the file again. Persistent cookies come back; session cookies, never written, do not
/// (rfc6265bis-22 §5.7: a cookie without expiry lasts until the session ends).
func relaunch(_ jar: CookieJar) throws -> CookieJar {
    let path = try #require(jar.filePath)
    try jar.close()
    return try CookieJar(contentsOf: path)
}
