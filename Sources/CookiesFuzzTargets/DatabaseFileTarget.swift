import Cookies
import Foundation

extension FuzzTarget {
    /// The SQLite loaders (our jar file read without writing, Firefox's cookies.sqlite): the input is
    /// written to a file and read; any bytes give cookies or a `CookieFileError`, the file is never
    /// changed, and what loads saves and loads back the same through JSON.
    static let databaseFile = FuzzTarget(name: "database-file") { input throws(InvariantViolation) in
        let target = "database-file"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cookiejar-fuzz-\(UUID().uuidString).sqlite").path
        let bytes = Data(UnsafeRawBufferPointer(input))
        guard FileManager.default.createFile(atPath: path, contents: bytes) else {
            throw InvariantViolation(target: target, invariant: "cannot write the input to \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let contents = try? CookieImportFile.read(path: path, now: CookieTime(secondsSinceEpoch: Int64(1_735_689_600)))
        try require(fileBytes(path) == Array(bytes), target, "reading changed the file")
        try require(!FileManager.default.fileExists(atPath: path + "-wal"), target, "reading created a -wal file")
        guard let cookies = contents?.cookies else { return }
        let json = try? CookieJSON.parse(Array(CookieJSON.serialize(cookies).utf8)).cookies
        try require(
            json.map { $0.count == cookies.count && Set($0) == Set(cookies) } ?? false, target,
            "JSON save → load changes the cookies read from a database")
    }
}

/// The bytes of the file at `path` through C stdio (Foundation's `contents(atPath:)` leaks a buffer on an
/// empty file, which LeakSanitizer reports as the target's).
private func fileBytes(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return bytes
}
