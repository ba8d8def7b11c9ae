import Foundation
import TestSupport
import Testing

@testable import Cookies

/// Several processes opening one WAL jar file at the same moment, while its shared-memory index must be
/// rebuilt (a `-wal` file left by a process that ended without checkpointing, and no `-shm`): the first
/// connection rebuilds the index from the WAL, and until it is done every other connection's read fails
/// with SQLITE_BUSY_RECOVERY (extended code 261, "database is locked"; https://sqlite.org/rescode.html
/// #busy_recovery, https://sqlite.org/walformat.html#recovery). Seen in a fresh checkout, where
/// `cookiejar inspect` runs on the sample jar and its `-wal` raced each other. Opening waits for the
/// recovery within the busy timeout: every process opens the file and reads every cookie.
@Suite struct OpeningRaceTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// Cookies in the file, and the transactions left in its WAL: enough WAL (about 20 MB) that
    /// rebuilding its index takes the first process long enough for the others to run into it.
    static let cookies = 1_500
    static let walTransactions = 12
    /// Processes opening the file together, and how many times they do.
    static let processes = 6
    static let rounds = 3

    /// Writes a jar of `cookies` cookies (10 sites of 150, within the limits; values of 1 KB), then leaves
    /// `walTransactions` rewrites of every row in its WAL, un-checkpointed, as a killed process would.
    func makeFileWithUncheckpointedWAL() throws {
        let jar = try openTestJar(path, clock: ManualCookieClock(SystemCookieClock().now()))
        let value = String(repeating: "v", count: 1_000)
        for index in 0..<Self.cookies {
            jar.setCookie("c\(index)=\(value); Max-Age=86400", from: url("https://site\(index % 10).com/"))
        }
        try jar.close()
        let connection = try SQLiteConnection(path: path, flags: .readWrite)
        try connection.execute("PRAGMA wal_autocheckpoint = 0")
        for round in 0..<Self.walTransactions {
            try connection.execute("UPDATE cookies SET last_access = last_access + \(round + 1)")
        }
        connection.setCheckpointsOnClose(false)
    }

    /// `jar`: `CookieJar(contentsOf:)`, opening to read and write; `read`: `CookieImportFile.read`, reading
    /// without writing (`cookiejar inspect`, `export`), which reads a WAL without a `-shm` through an index of
    /// its own (`SQLiteConnection(privateWALIndexFileAt:)`), so that the readers neither wait nor make one.
    @Test(arguments: ["jar", "read"])
    func processesOpeningAFileUnderRecoveryAtOnceAllOpenIt(_ how: String) throws {
        try makeFileWithUncheckpointedWAL()
        let database = try Data(contentsOf: URL(fileURLWithPath: path))
        let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let expected = "opened \(Self.cookies)\n"
        for round in 0..<Self.rounds {
            // Every round starts from the same files and no index: the first opening rebuilds it.
            try database.write(to: URL(fileURLWithPath: path))
            try wal.write(to: URL(fileURLWithPath: path + "-wal"))
            try? FileManager.default.removeItem(atPath: path + "-shm")
            let openers = try (0..<Self.processes).map { _ in try CrashWriterProcess(["--open", how, path]) }
            guard CrashWriterProcess.allReady(openers, "round \(round), process") else { return }
            for opener in openers { try opener.go() }
            for (number, opener) in openers.enumerated() {
                let (output, errors, status) = opener.finish()
                #expect(status == 0, "round \(round), process \(number): \(errors)")
                #expect(output == expected, "round \(round), process \(number)")
            }
        }
    }
}
