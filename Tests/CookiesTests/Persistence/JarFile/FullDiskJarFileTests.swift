import CSQLite
import Foundation
import TestSupport
import Testing

@testable import Cookies

// SQLite's extended I/O error codes (https://sqlite.org/rescode.html), macros of expressions that Swift does
// not import: SQLITE_IOERR_SHMSIZE, SQLITE_IOERR_WRITE, SQLITE_IOERR_READ, SQLITE_IOERR_SHORT_READ,
// SQLITE_CANTOPEN_ISDIR.
private let ioErrorSHMSize = SQLITE_IOERR | 19 << 8
private let ioErrorWrite = SQLITE_IOERR | 3 << 8
private let ioErrorRead = SQLITE_IOERR | 1 << 8
private let ioErrorShortRead = SQLITE_IOERR | 2 << 8
private let cannotOpenDirectory = SQLITE_CANTOPEN | 5 << 8

/// A jar file on a full disk: SQLite's failures for lack of room are `.full`, whichever result code carries
/// them, and opening does not fail for lack of room to purge.
@Suite struct FullDiskJarFileTests {
    /// SQLite reports a full disk as SQLITE_FULL when a write to the file or its `-wal` falls short, and as an
    /// I/O error when another call fails, growing the `-shm` (SQLITE_IOERR_SHMSIZE) or writing a journal
    /// (SQLITE_IOERR_WRITE): only `sqlite3_system_errno` tells that one from a failing disk
    /// (https://sqlite.org/rescode.html, https://sqlite.org/c3ref/system_errno.html). The errno of any other
    /// code is a leftover of an earlier failure.
    @Test(arguments: [
        (SQLITE_FULL, 0, CookieFileError.Code.full),
        (ioErrorSHMSize, ENOSPC, .full),
        (ioErrorSHMSize, EDQUOT, .full),
        (ioErrorWrite, ENOSPC, .full),
        (ioErrorSHMSize, EIO, .io),
        (ioErrorRead, 0, .io),
        (SQLITE_BUSY, ENOSPC, .busy),
    ] as [(Int32, Int32, CookieFileError.Code)])
    func classifiesByResultCodeAndSystemErrno(code: Int32, systemErrno: Int32, expected: CookieFileError.Code) {
        let error = CookieFileError(
            SQLiteError(code: code, message: "disk I/O error", systemErrno: systemErrno), path: "/jar",
            doing: "cannot read the jar file's header")
        #expect(error.code == expected)
        #expect(error.detail.contains("no space left on the disk") == (expected == .full && code != SQLITE_FULL))
    }

    /// SQLite's message for a failed system call names no reason: the system's follows it, for an I/O error
    /// and for a file SQLite could not open (EMFILE: "unable to open database file: Too many open files"), but
    /// not for a code that comes from no failed call, whose errno is a leftover (a short read,
    /// SQLITE_IOERR_SHORT_READ; the extended cannot-open codes such as SQLITE_CANTOPEN_ISDIR), nor for any
    /// other code (https://sqlite.org/c3ref/system_errno.html).
    @Test(arguments: [
        (SQLITE_CANTOPEN, EMFILE, true),
        (ioErrorRead, EIO, true),
        (ioErrorShortRead, EMFILE, false),
        (cannotOpenDirectory, EMFILE, false),
        (SQLITE_CORRUPT, EMFILE, false),
        (SQLITE_CANTOPEN, 0, false),
    ] as [(Int32, Int32, Bool)])
    func namesTheSystemsReasonOfAFailedCall(code: Int32, systemErrno: Int32, named: Bool) {
        let error = CookieFileError(
            SQLiteError(code: code, message: "unable to open database file", systemErrno: systemErrno), path: "/jar",
            doing: "cannot read the jar file's header")
        let reason = ": " + String(cString: strerror(systemErrno)) + " (SQLite code"
        #expect(error.detail.contains(reason) == named, "\(error.detail)")
    }

    /// A jar closed cleanly has no `-shm`: opening it must make one, which a full disk refuses
    /// (SQLITE_IOERR_SHMSIZE, ENOSPC). The open throws `.full`, and the file is left as it was.
    @Test(.enabled(if: SmallTmpfs.canMount, "fills a tmpfs of its own, which only root (CAP_SYS_ADMIN) may mount"))
    func jarWithoutShmOnAFullDiskThrowsFull() throws {
        let disk = try SmallTmpfs()
        let path = disk.file("cookies.sqlite")
        let jar = try openTestJar(path)
        jar.setCookie("a=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        let before = fileBytes(path)
        try disk.fill()
        #expect {
            try openTestJar(path)
        } throws: { error in
            (error as? CookieFileError)?.code == .full
        }
        #expect(fileBytes(path) == before)

        disk.makeRoom()
        #expect(try openTestJar(path).allCookies().map(\.name) == ["a"])
    }

    /// With its `-wal` and `-shm` in place (another jar has the file open), a jar opens on a full disk though
    /// the purge of an expired row finds no room: the row stays until the next write, which deletes it once
    /// there is room.
    @Test(.enabled(if: SmallTmpfs.canMount, "fills a tmpfs of its own, which only root (CAP_SYS_ADMIN) may mount"))
    func purgeWithoutRoomWaitsForTheNextWrite() throws {
        let disk = try SmallTmpfs()
        let path = disk.file("cookies.sqlite")
        let clock = ManualCookieClock(testEpoch)
        let other = try openTestJar(path, clock: clock)
        other.setCookie("expiring=1; Max-Age=60", from: url("https://example.com/"))
        other.setCookie("lasting=1; Max-Age=3600", from: url("https://example.com/"))
        try other.flush()
        try disk.fill()
        clock.advance(seconds: 120)

        let jar = try openTestJar(path, clock: clock)
        #expect(jar.allCookies().map(\.name) == ["lasting"])
        #expect(try rowNames(path) == ["expiring", "lasting"])
        jar.setCookie("new=1; Max-Age=3600", from: url("https://example.com/"))
        #expect {
            try jar.flush()
        } throws: { error in
            (error as? CookieFileError)?.code == .full
        }

        disk.makeRoom()
        try jar.flush()
        #expect(try rowNames(path) == ["lasting", "new"])
        withExtendedLifetime(other) {}
    }

    /// The names of the rows of the jar file at `path`, sorted.
    private func rowNames(_ path: String) throws -> [String] {
        let statement = try SQLiteConnection(path: path, flags: .readOnly).prepare("SELECT name FROM cookies ORDER BY name")
        var names: [String] = []
        while try statement.step() { names.append(statement.string(at: 0)) }
        return names
    }
}

/// A tmpfs of 400 KiB mounted on a temporary directory, to fill: a full disk, made for real. Unmounted when
/// the last reference to it goes.
final class SmallTmpfs {
    private let directory = TemporaryDirectory()
    private var filler: String { directory.file("filler") }

    /// True when this process may mount one (root, with CAP_SYS_ADMIN, on Linux).
    static let canMount = (try? SmallTmpfs()) != nil

    init() throws {
        #if os(Linux)
        let status = "size=400k".withCString { mount("tmpfs", directory.path, "tmpfs", 0, $0) }
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM) }
        #else
        throw POSIXError(.ENOTSUP)
        #endif
    }

    /// The path of `name` on the tmpfs.
    func file(_ name: String) -> String {
        directory.file(name)
    }

    /// Fills the tmpfs with a file of its own, to its last byte: a write then fails with ENOSPC.
    func fill() throws {
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let page = [UInt8](repeating: 1, count: 4096)
        for size in [page.count, 1] {
            while write(descriptor, page, size) == size {}
        }
        guard errno == ENOSPC else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Frees what `fill()` took.
    func makeRoom() {
        unlink(filler)
    }

    deinit {
        #if os(Linux)
        umount2(directory.path, Int32(MNT_DETACH))
        #endif
    }
}
