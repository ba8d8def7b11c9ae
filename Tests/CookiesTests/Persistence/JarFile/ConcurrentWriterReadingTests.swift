import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Cookies

/// Reading a database file that no connection has open while another process opens it, changes every row and
/// closes it, again and again. The reading takes no lock (the file is opened immutable,
/// https://sqlite.org/uri.html#uriimmutable), and each closing checkpoints the writer's WAL into the file
/// (https://sqlite.org/wal.html#the_wal_file), during the reading perhaps: a reading that saw part of it would
/// give a mix of two saved states. A reading stands only when the file and its `-wal` are as they were before
/// it, or is made again, and after `UnlockedReading.attempts` throws `.busy` (this project's contract). The
/// writer is a plain SQLite connection on a thread of its own, each of its sessions setting every row's value
/// to its generation: a reading is whole when all its rows carry one generation.
@Suite struct ConcurrentWriterReadingTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// How many rows the file holds: enough for a reading to take a few milliseconds, as many as a
    /// writer's checkpoint can land in.
    static let rows = 2000
    /// What pads each value after its generation and "-" (so that the table spans many pages).
    static let padding = String(repeating: "p", count: 100)

    enum Reader: String, CaseIterable {
        /// `CookieImportFile.read` of a jar file (`CookieDatabase.snapshot`): `cookiejar inspect` and `export`.
        case jarFile
        /// `FirefoxCookies.read` of a Firefox `cookies.sqlite` in WAL mode, as Firefox keeps it.
        case firefox

        var table: String { self == .jarFile ? "cookies" : "moz_cookies" }

        /// The writer's pause between sessions, in microseconds, about as long as a reading (Firefox's rows
        /// take longer to read, each checked as outside input): the readings no session overlaps stand.
        var pause: UInt32 { self == .jarFile ? 5_000 : 50_000 }

        /// Makes the file at `path`, closed, every row of generation 0.
        func makeFile(at path: String) throws {
            let numbers = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))"
            let value = "'0-\(padding)'"
            switch self {
            case .jarFile:
                let jar = try openTestJar(path)
                jar.setCookie("c0=0; Max-Age=86400", from: url("https://example.com/"))
                try jar.close()
                try runSQL(
                    """
                    \(numbers) INSERT INTO cookies (\(CookieDatabaseSchema.columns))
                    SELECT 'c' || i, \(value), domain, host_only, '/' || i, partition_key, expiry, creation,
                        last_access, secure, http_only, same_site, source_secure, source_port FROM n, cookies;
                    DELETE FROM cookies WHERE name = 'c0';
                    """, on: path)
            case .firefox:
                try runSQL(
                    """
                    PRAGMA journal_mode = WAL; PRAGMA user_version = 16;
                    \(FirefoxCookiesTests.createTable)
                    \(numbers) INSERT INTO moz_cookies (name, value, host, path, expiry, lastAccessed, creationTime,
                        isSecure, isHttpOnly, sameSite, rawSameSite, schemeMap)
                    SELECT 'c' || i, \(value), 'example.com', '/', 4102444800000, 1735689600000000,
                        1735689600000000 + i, 0, 0, 256, 0, 2 FROM n;
                    """, on: path)
            }
        }

        /// The cookies read from the file at `path`.
        func read(_ path: String) throws(CookieFileError) -> [Cookie] {
            switch self {
            case .jarFile: try CookieImportFile.read(path: path, now: testEpoch).cookies
            case .firefox: try FirefoxCookies.read(contentsOf: path).cookies
            }
        }
    }

    /// Every reading made while the writer runs (for two seconds) gives every row, of one generation, or
    /// throws `.busy`; none gives a mix. The writer wrote meanwhile, and once it stops a reading is whole
    /// (how many readings fall between its sessions depends on the machine's load: none, on a busy one).
    @Test(arguments: Reader.allCases)
    func readingWhileAnotherConnectionWritesAndClosesIsNeverTorn(_ reader: Reader) throws {
        try reader.makeFile(at: path)
        let path = path
        let stop = Atomic<Bool>(false)
        let writes = Atomic<Int>(0)
        let writer = Thread {
            var generation = 1
            while !stop.load(ordering: .relaxed) {
                // Opened, every row changed, closed: the closing checkpoints the WAL into the file.
                if (try? runSQL("UPDATE \(reader.table) SET value = '\(generation)-\(Self.padding)'", on: path)) != nil {
                    writes.add(1, ordering: .relaxed)
                }
                generation += 1
                usleep(reader.pause)
            }
        }
        writer.start()
        var (whole, torn, busy) = (0, 0, 0)
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            do {
                let cookies = try reader.read(path)
                let generations = Set(cookies.map { $0.value.prefix { $0 != "-" } })
                if cookies.count == Self.rows && generations.count == 1 { whole += 1 } else { torn += 1 }
            } catch {
                #expect(error.code == .busy && error.path == path, "\(error)")
                busy += 1
            }
        }
        stop.store(true, ordering: .relaxed)
        while !writer.isFinished { usleep(1000) }
        #expect(torn == 0, "\(torn) torn of \(whole + torn + busy) readings (\(whole) whole, \(busy) busy)")
        #expect(writes.load(ordering: .relaxed) > 0)
        let last = try reader.read(path)
        #expect(last.count == Self.rows && Set(last.map { $0.value.prefix { $0 != "-" } }).count == 1)
    }
}
