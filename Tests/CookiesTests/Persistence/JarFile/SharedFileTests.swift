import Foundation
import TestSupport
import Testing

@testable import Cookies

/// Two processes on one jar file (issue 4: "Two processes opening the same jar either share it
/// correctly (SQLite locking, busy timeout) or the second gets a clear 'in use' error — no lost updates
/// either way"). Facts: `CookieJarFile`'s contract (each jar writes only the rows it changed, in one
/// IMMEDIATE transaction per flush; for one cookie the last flush wins) and SQLite's locking
/// (https://sqlite.org/lockingv3.html, https://sqlite.org/wal.html: one writer at a time, the others
/// wait in the busy handler up to the busy timeout, then get SQLITE_BUSY).
@Suite struct SharedFileTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// Flushes per writer: enough for the two writers' transactions to interleave many times.
    static let iterations = 40

    func startWriter(_ writer: Int) throws -> CrashWriterProcess {
        try CrashWriterProcess(["--share", String(writer), String(Self.iterations), path])
    }

    /// Both writers open the file (which neither finds: they race to create it), then flush 40 times
    /// each, together. Every acknowledged change is in the file afterwards: each writer's own cookies
    /// all there, its counter at its last value, and the cookie both set holding one writer's last
    /// value; the file passes SQLite's integrity check and opens as a jar.
    @Test func twoWriterProcessesLoseNoAcknowledgedChange() throws {
        let writers = try (0..<2).map { try startWriter($0) }
        guard CrashWriterProcess.allReady(writers, "writer") else { return }
        for writer in writers { try writer.go() }
        for (number, writer) in writers.enumerated() {
            let (output, errors, status) = writer.finish()
            #expect(status == 0, "writer \(number): \(errors)")
            let acknowledged = output.split(separator: "\n").compactMap { $0.hasPrefix("acked ") ? Int($0.dropFirst(6)) : nil }
            #expect(acknowledged == Array(1...Self.iterations), "writer \(number) acknowledged every flush")
        }

        let check = try SQLiteConnection(path: path, flags: .readOnly)
        let integrity = try check.prepare("PRAGMA integrity_check")
        #expect(try integrity.step() && integrity.string(at: 0) == "ok")

        let cookies = try CookieImportFile.read(path: path, now: testEpoch).cookies
        let values = Dictionary(cookies.map { ($0.name, $0.value) }) { first, _ in first }
        #expect(cookies.count == 2 * Self.iterations + 3, "one row per cookie")
        for writer in 0..<2 {
            let lost = (1...Self.iterations).filter { values["w\(writer)-\($0)"] != String($0) }
            #expect(lost.isEmpty, "writer \(writer)'s own cookies lost: \(lost)")
            #expect(values["count-\(writer)"] == String(Self.iterations), "writer \(writer)'s last counter")
        }
        #expect(["w0-\(Self.iterations)", "w1-\(Self.iterations)"].contains(values["shared"]), "the last flush wins")
        #expect(try openTestJar(path, clock: ManualCookieClock(testEpoch)).count == 2 * Self.iterations + 3)
    }

    /// While another connection holds the file's write lock past the busy timeout, flushing a jar, and
    /// opening one that must purge an expired row, fail with `.busy`, "in use", naming the file; the
    /// flush's changes stay pending and the next flush after the lock is released writes them.
    @Test func lockHeldBeyondTheBusyTimeoutIsAClearErrorAndLosesNothing() throws {
        var options = testFileOptions()
        options.busyTimeout = .milliseconds(20)
        let clock = ManualCookieClock(testEpoch)
        let jar = try openTestJar(path, options: options, clock: clock)
        jar.setCookie("brief=1; Max-Age=1", from: url("https://example.com/"))
        try jar.flush()
        jar.setCookie("kept=1; Max-Age=3600", from: url("https://example.com/"))
        clock.advance(seconds: 2)

        let holder = try SQLiteConnection(path: path, flags: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        let flushError = #expect(throws: CookieFileError.self) { try jar.flush() }
        let openError = #expect(throws: CookieFileError.self) { try openTestJar(path, options: options, clock: clock) }
        for error in [flushError, openError] {
            #expect(error?.code == .busy)
            #expect(error?.description.hasPrefix(path + ": ") == true)
            #expect(error?.description.contains("in use") == true)
        }
        try holder.execute("COMMIT")

        #expect(try jar.flush() == 1, "the change stayed pending")
        try jar.close()
        #expect(try openTestJar(path, clock: clock).allCookies().map(\.name) == ["kept"])
    }

    /// Opening a jar whose file has nothing to purge only reads, and in WAL mode readers do not wait for
    /// a writer (https://sqlite.org/wal.html): another connection's write lock does not stop it.
    @Test func jarWithNothingToPurgeOpensWhileAnotherConnectionWrites() throws {
        let jar = try openTestJar(path)
        jar.setCookie("kept=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()

        let holder = try SQLiteConnection(path: path, flags: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        var options = testFileOptions()
        options.busyTimeout = .milliseconds(20)
        #expect(try openTestJar(path, options: options).allCookies().map(\.name) == ["kept"])
        try holder.execute("COMMIT")
    }
}
