import Foundation
import TestSupport
import Testing

@testable import Cookies

/// A jar file deleted, or replaced by another, while a jar has it open (an app that resets its cookies by
/// deleting the file, a backup restored over it). SQLite goes on writing to the file it has open
/// (`SQLITE_FCNTL_HAS_MOVED`, https://sqlite.org/c3ref/c_fcntl_begin_atomic_write.html), which no one reads
/// again, and at its close leaves its `-wal` and `-shm` at the path: beside a missing file they stopped every
/// later opening (`.corrupt`, what is left of a lost file), and beside a replacement the `-wal` was replayed
/// into it. The jar refuses to write instead, and leaves neither behind.
@Suite struct MovedJarFileTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// What happens to the file while the jar has it open.
    enum Move: String, CaseIterable, CustomTestStringConvertible {
        /// Deleted (`unlink`).
        case deleted
        /// Replaced by another jar file renamed over it (`rename`, as `FileManager.replaceItemAt` does).
        case replaced
        var testDescription: String { rawValue }
    }

    static func cookie(_ name: String) -> Cookie {
        Cookie(name: name, value: "1", domain: "example.com", expiry: testEpoch.adding(seconds: 86_400), creation: testEpoch)
    }

    /// `wroteBefore`: the jar wrote to the file before it moved (SQLite makes the `-wal` and `-shm` at the
    /// first transaction in WAL mode), or only opened it.
    @Test("a jar whose file was deleted or replaced refuses to write, keeps its changes pending, and leaves no -wal or -shm at the path", arguments: Move.allCases, [true, false])
    func writesAreRefusedAndNothingIsLeft(_ move: Move, wroteBefore: Bool) throws {
        if !wroteBefore {
            let earlier = try openTestJar(path)
            earlier.insert(Self.cookie("before"))
            try earlier.close()
        }
        var jar: CookieJar? = try openTestJar(path)
        if wroteBefore {
            jar?.insert(Self.cookie("before"))
            try jar?.flush()
        }
        switch move {
        case .deleted:
            #expect(unlink(path) == 0)
        case .replaced:
            let other = directory.file("restored.sqlite")
            let restored = try openTestJar(other)
            restored.insert(Self.cookie("restored"))
            try restored.close()
            #expect(rename(other, path) == 0)
        }
        jar?.insert(Self.cookie("after"))
        #expect(throws: CookieFileError.self) { try jar?.flush() }
        #expect(jar?.hasPendingChanges == true)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(throws: CookieFileError.self) { try jar?.close() }
        jar = nil

        #expect(!FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm"))
        let reopened = try openTestJar(path)
        #expect(reopened.allCookies().map(\.name) == (move == .deleted ? [] : ["restored"]))
    }
}
