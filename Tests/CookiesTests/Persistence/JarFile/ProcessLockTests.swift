import Foundation
import TestSupport
import Testing

@testable import Cookies

/// The library's reads of a jar file leave alone the POSIX advisory locks that SQLite connections of this process
/// hold on it (`SQLiteLockedFiles`). A process's `fcntl` locks on a file go when it closes any descriptor of the
/// file (POSIX `fcntl`); a connection in WAL mode holds a shared lock on the file while it is open, and without it
/// another process's last connection to close takes the exclusive lock, checkpoints and deletes the `-wal` and
/// `-shm`, and this process's later commits go to a WAL no other process reads (https://sqlite.org/walformat.html).
/// Another process tells who holds a lock on the file (`CrashWriter --lock-holder`, `fcntl(F_GETLK)`): a
/// connection of the test's own process shares the process's locks, and would not see them gone.
@Suite struct ProcessLockTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// The process that another process finds holding a lock on the file (0: none).
    func lockHolder() throws -> Int32? {
        let (output, errors, status) = try CrashWriterProcess(["--lock-holder", path]).finish()
        #expect(status == 0, "\(errors)")
        return Int32(output.dropLast())
    }

    /// What a CrashWriter run as `--open jar|read` (`how`) says once released: "opened <count of cookies>".
    func openInAnotherProcess(_ how: String) throws -> String {
        let opener = try CrashWriterProcess(["--open", how, path])
        guard CrashWriterProcess.allReady([opener], "the \(how) process") else { return "" }
        try opener.go()
        let (output, errors, status) = opener.finish()
        #expect(status == 0, "\(errors)")
        return output
    }

    /// A jar of this process, on the system clock (another process reads the file, and on its clock a cookie of
    /// the test epoch has expired), holding `cookies` cookies written to the file.
    func openJar(holding cookies: Int) throws -> CookieJar {
        let jar = try openTestJar(path, clock: ManualCookieClock(SystemCookieClock().now()))
        for index in 0..<cookies {
            jar.setCookie("c\(index)=\(index); Max-Age=86400", from: url("https://example.com/"))
        }
        try jar.flush()
        return jar
    }

    /// A path of the library that reads a jar file, run while a connection of this process holds a lock on it.
    enum Reading: CaseIterable {
        /// `CookieImportFile.read` of a jar open in this process (an app importing from, or inspecting, its own
        /// jar file), which tells the file's format from its first bytes.
        case importOfOpenJar
        /// A jar opening a file that a connection of this process is reading (two jars of one process opening one
        /// file at once, or, here, a jar opened by mistake on the application's own database, in rollback-journal
        /// mode, SQLite's default), which reads the file's header before it makes its connection
        /// (`CookieDatabase.checkHeader`). The jar refuses the file without changing its lock: one that took the
        /// exclusive lock to turn the file to WAL mode would take the shared one again as it gave that up, and hide
        /// the loss.
        case jarOpeningFileBeingRead
        /// `CookieDatabase.snapshot` of a file whose `-wal` has no `-shm`, read over the `unix-none` VFS, while a jar
        /// of this process opens the file.
        case snapshotWhileJarOpens
    }

    /// Whatever the reading, the connection's lock is still held once it is done: by this process.
    @Test(arguments: Reading.allCases)
    func readingKeepsTheLocksOfThisProcess(_ reading: Reading) throws {
        // The connection holding the lock, kept to the end of the test.
        var holder: AnyObject?
        switch reading {
        case .importOfOpenJar:
            holder = try openJar(holding: 3)
            #expect(try lockHolder() == getpid(), "a jar in WAL mode holds a shared lock while it is open")
            _ = try CookieImportFile.read(path: path, now: .distantPast)
        case .jarOpeningFileBeingRead:
            try runSQL("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello');", on: path)
            let connection = try SQLiteConnection(path: path, flags: .readOnly)
            try connection.execute("BEGIN")
            _ = try connection.integer("SELECT count(*) FROM notes")
            holder = connection
            #expect(try lockHolder() == getpid(), "a read transaction holds a shared lock")
            #expect { try openTestJar(path) } throws: { ($0 as? CookieFileError)?.code == .foreign }
        case .snapshotWhileJarOpens:
            try makeJarFile(at: path, leaving: .wal)
            _ = try CookieDatabase.snapshot(path) {
                guard holder == nil else { return }
                #expect(throws: Never.self) { holder = try openTestJar(path) }
            }
            #expect(holder != nil)
        }
        #expect(try lockHolder() == getpid())
        withExtendedLifetime(holder) {}
    }

    /// How many descriptors of this process are open on the file at `path`.
    func descriptorsOpen(on path: String) throws -> Int {
        let file = try #require(CookieFileSystem.identity(path))
        return try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").compactMap { Int32($0) }
            .filter { CookieFileSystem.identity(ofDescriptor: $0) == file }.count
    }

    /// An import of a jar open in this process reads it through SQLite alone: it opens no descriptor of its own,
    /// which could be closed only once the jar is, so that importing again and again keeps no more descriptors of
    /// the file open than importing once (SQLite reuses the one it keeps for its readings).
    @Test func importsOfAnOpenJarKeepNoDescriptorOpen() throws {
        let jar = try openJar(holding: 1)
        _ = try CookieImportFile.read(path: path, now: .distantPast)
        let descriptors = try descriptorsOpen(on: path)
        for _ in 0..<20 { _ = try CookieImportFile.read(path: path, now: .distantPast) }
        #expect(try descriptorsOpen(on: path) == descriptors)
        try jar.close()
    }

    /// What the lock is for: after an import reads the file of a jar open in this process, another process that
    /// opens and closes the jar leaves its `-wal` (it cannot take the exclusive lock), and the jar's next flush is
    /// seen by the processes that read the file (its WAL is the one they read, not one deleted under it).
    @Test func flushAfterAnImportOfTheOpenJarIsSeenByOtherProcesses() throws {
        let jar = try openJar(holding: 1)
        _ = try CookieImportFile.read(path: path, now: .distantPast)
        #expect(try openInAnotherProcess("jar") == "opened 1\n")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        jar.setCookie("c1=1; Max-Age=86400", from: url("https://example.com/"))
        try jar.flush()
        #expect(try openInAnotherProcess("read") == "opened 2\n")
        try jar.close()
    }
}
