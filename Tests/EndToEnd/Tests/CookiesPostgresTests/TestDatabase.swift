import Cookies
import CookiesPostgres
import Foundation
import PostgresNIO
import Testing

/// Every test of the server, one at a time: the outage test restarts the server, and the process tests
/// load the machine.
@Suite(.serialized) struct PostgresServerTests {}

/// The server the tests use (PGHOST, PGPORT, PGUSER, PGDATABASE; Tests/EndToEnd/start-postgres.sh starts
/// one), a schema of each test's own, and a connection of the tests' own to look at the rows.
struct TestDatabase {
    let schema: String
    let clock: ManualCookieClock

    /// A new schema named after `label`.
    init(_ label: String) {
        schema = "t_\(label)_\(UInt32.random(in: 0...UInt32.max))"
        clock = ManualCookieClock(CookieTime(secondsSinceEpoch: Int64(1_800_000_000)))
    }

    /// An instance of the fleet on this schema (each call makes another instance, with its own connections);
    /// `persistsSessionCookies` nil leaves the configuration's default; `flushDelay` nil writes each change at
    /// once, a delay in the background after it.
    func instance(
        limits: CookieLimits = .default, maximumOpenJars: Int = 100, persistsSessionCookies: Bool? = false,
        timeout: Duration = .seconds(30), flushDelay: Duration? = nil
    ) throws -> PostgresCookieJars {
        var configuration = PostgresCookieJars.Configuration.environment()
        configuration.schema = schema
        configuration.timeout = timeout
        configuration.clock = clock
        configuration.limits = limits
        configuration.maximumOpenJars = maximumOpenJars
        configuration.writeOptions.flushDelay = flushDelay
        if let persistsSessionCookies { configuration.writeOptions.persistsSessionCookies = persistsSessionCookies }
        return try PostgresCookieJars(configuration)
    }

    /// Runs `sql` on a connection of its own and returns the rows.
    static func query(_ sql: String) throws -> [PostgresRandomAccessRow] {
        let connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(),
            configuration: PostgresCookieJars.Configuration.environment().connection, id: 0,
            logger: Logger(label: "tests")
        ).wait()
        defer { try? connection.close().wait() }
        return try connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "tests")).wait().map { $0.makeRandomAccess() }
    }

    /// A connection of its own inside a transaction that holds the lock of jar `id`'s row, as an instance
    /// frozen inside a write would: `ROLLBACK` on it (or closing it) releases the lock.
    func connectionLockingJar(_ id: String) throws -> PostgresConnection {
        let logger = Logger(label: "tests")
        let connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(),
            configuration: PostgresCookieJars.Configuration.environment().connection, id: 1, logger: logger
        ).wait()
        _ = try connection.query("BEGIN", logger: logger).wait()
        _ = try connection.query(
            PostgresQuery(unsafeSQL: "SELECT version FROM \(schema).cookiejar_jars WHERE jar_id = '\(id)' FOR UPDATE"),
            logger: logger
        ).wait()
        return connection
    }

    /// Releases the lock `connectionLockingJar` took on `connection` (`ROLLBACK`) `seconds` from now, on a
    /// thread of its own, while the test's thread waits for it in a call to the jars.
    func rollBack(_ connection: PostgresConnection, after seconds: Double) {
        Thread {
            Thread.sleep(forTimeInterval: seconds)
            _ = try? connection.query("ROLLBACK", logger: Logger(label: "tests")).wait()
        }.start()
    }

    /// Waits (polling for up to `seconds`) until a write of this test waits for a locked row (its
    /// statement names the test's schema: never another test's), then runs `selecting` on each such
    /// backend's `pid` (`pid` itself, or `pg_terminate_backend(pid)`); false when none came.
    @discardableResult
    func untilAWriteWaitsForALock(selecting expression: String = "pid", seconds: Double = 10) -> Bool {
        for _ in 0..<Int(seconds / 0.05) {
            let found = try? Self.query(
                """
                SELECT \(expression) FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE '%\(schema)%'
                """)
            if let found, !found.isEmpty { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Every stored cookie of jar `id`: name → value.
    func rows(of id: String) throws -> [String: String] {
        var rows: [String: String] = [:]
        for row in try Self.query("SELECT name, value FROM \(schema).cookiejar_cookies WHERE jar_id = '\(id)'") {
            rows[try row[0].decode(String.self)] = try row[1].decode(String.self)
        }
        return rows
    }

    /// The ids of the jars that have a row, in order.
    func jarIDs() throws -> [String] {
        try Self.query("SELECT jar_id FROM \(schema).cookiejar_jars ORDER BY jar_id").map { try $0[0].decode(String.self) }
    }

    /// A column of the stored cookie `name` of jar `id`.
    func column(_ column: String, of name: String, in id: String) throws -> Int64? {
        try Self.query("SELECT \(column) FROM \(schema).cookiejar_cookies WHERE jar_id = '\(id)' AND name = '\(name)'")
            .first.flatMap { try $0[0].decode(Int64?.self) }
    }

    /// Runs `body` with `level` the database's default transaction isolation for the connections opened
    /// meanwhile (`ALTER DATABASE … SET default_transaction_isolation`), reset after it.
    static func withDefaultIsolation<R>(_ level: String, _ body: () throws -> R) throws -> R {
        let database = try query("SELECT current_database()")[0][0].decode(String.self)
        _ = try query("ALTER DATABASE \"\(database)\" SET default_transaction_isolation = '\(level)'")
        defer { _ = try? query("ALTER DATABASE \"\(database)\" RESET default_transaction_isolation") }
        return try body()
    }

    /// Drops the schema.
    func drop() {
        _ = try? Self.query("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }

    /// The built helper executable `name`: in the build directory, which holds the test binary or a
    /// directory above it.
    static func executable(_ name: String) throws -> String {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let found = sequence(first: binary.deletingLastPathComponent()) { $0.path == "/" ? nil : $0.deletingLastPathComponent() }
            .map { $0.appendingPathComponent(name).path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let found else { throw CocoaError(.fileNoSuchFile) }
        return found
    }
}

/// `https://NAME/`.
func url(_ host: String) -> CookieURL { CookieURL("https://\(host)/")! }
