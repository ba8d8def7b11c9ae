import Foundation
import TestSupport
import Testing

@testable import Cookies

/// Reading without writing a jar file whose `-wal` has no `-shm` (`CookieDatabase.snapshot`): the WAL is read
/// into an index of the reader's own, with no lock (https://sqlite.org/wal.html#noshm), so nothing stops
/// another process from opening the file meanwhile: it makes its own `-shm`, commits, and on closing
/// checkpoints the WAL into the file and removes both (https://sqlite.org/wal.html#the_wal_file). A reading
/// during which the file, its `-wal` or the absent `-shm` changed is made again, as often as
/// `UnlockedReading.attempts`, then throws `.busy` (this project's contract). The other process is
/// stood in for by a jar or connection of this one, run in the middle of the reading through the snapshot's
/// `whileReadingUnlocked`.
@Suite struct UnlockedReadingTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// The names of the cookies in the file, read by a connection of its own after every other is closed.
    func names() throws -> Set<String> {
        let connection = try SQLiteConnection(path: path, flags: .readOnly)
        let select = try connection.prepare("SELECT name FROM cookies")
        var names: Set<String> = []
        while try select.step() { names.insert(select.string(at: 0)) }
        return names
    }

    /// A closed jar of 500 cookies of 100 bytes, c0 to c499, each on a site of its own (so that the table spans
    /// many pages), with the deletion of c0 left in its WAL without a `-shm`.
    func makeJarOfManyPages() throws {
        let jar = try openTestJar(path)
        let value = String(repeating: "v", count: 100)
        for index in 0..<500 {
            jar.setCookie("c\(index)=\(value); Max-Age=3600", from: url("https://c\(index).com/"))
        }
        try jar.close()
        try leave(.wal, beside: path)
    }

    /// Another process's session on the file: it opens it as a jar, building its own index of the WAL, deletes
    /// the cookies c1 to c199 and adds 200 new ones (so that many of the table's pages are rewritten), and
    /// closes, checkpointing the WAL into the file and removing the `-wal` and `-shm`.
    func rewriteAndClose() throws {
        let jar = try openTestJar(path)
        for index in 1..<200 { jar.setCookie("c\(index)=; Max-Age=0", from: url("https://c\(index).com/")) }
        for index in 0..<200 { jar.setCookie("n\(index)=\(index); Max-Age=3600", from: url("https://n\(index).com/")) }
        try jar.close()
    }

    /// A file another process opened, changed and closed during the reading is read again: the reading gives
    /// the file as that process left it, whole, never a mix of the two states or a healthy file taken for a
    /// damaged one (read on, the reading finds pages of the new state where its own index of the old WAL has
    /// none: "database disk image is malformed").
    @Test func fileChangedDuringTheReadingIsReadAgain() throws {
        try makeJarOfManyPages()
        var sessions = 0
        let cookies = try CookieDatabase.snapshot(path) {
            guard sessions == 0 else { return }
            sessions += 1
            #expect(throws: Never.self) { try rewriteAndClose() }
        }
        #expect(sessions == 1)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(cookies.count == 500)
        #expect(Set(cookies.map(\.name)) == (try names()))
    }

    /// A file changed during every reading, by processes that each commit to the WAL and end without closing
    /// (leaving it without a `-shm` again), is read `UnlockedReading.attempts` times, then throws `.busy`
    /// naming it.
    @Test func fileChangedDuringEveryReadingThrowsBusy() throws {
        try makeJarFile(at: path, leaving: .wal)
        var sessions = 0
        #expect {
            try CookieDatabase.snapshot(path) {
                sessions += 1
                #expect(throws: Never.self) {
                    try commitWithoutCheckpoint(
                        "UPDATE cookies SET value = value || 'x' WHERE name = 'c1'", to: path, keepingIndex: false)
                }
            }
        } throws: { error in
            let error = error as! CookieFileError
            return error.code == .busy && error.path == path
        }
        #expect(sessions == UnlockedReading.attempts)
    }

    /// A file that another process opened during the reading without changing anything (it read the WAL into
    /// a `-shm` of its own, gone with it) is read once: only a change makes the reading doubtful.
    @Test func fileOpenedWithoutChangeDuringTheReadingIsReadOnce() throws {
        try makeJarFile(at: path, leaving: .wal)
        var sessions = 0
        let cookies = try CookieDatabase.snapshot(path) {
            sessions += 1
            #expect(throws: Never.self) {
                try commitWithoutCheckpoint("SELECT count(*) FROM cookies", to: path, keepingIndex: false)
            }
        }
        #expect(sessions == 1)
        #expect(cookies.count == JarFileCompanions.wal.cookieCount)
    }
}
