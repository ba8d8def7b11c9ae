#if CookiesPostgres
import PostgresNIO

/// BEGIN … COMMIT around a body of blocking queries on one connection: all of the body's writes or, when
/// it throws (or the connection breaks), none. Read committed, whatever the server's
/// `default_transaction_isolation`: a write waits for the lock of its jar's row and then reads what the
/// write before it committed (`PostgresCookieJarStore`), where repeatable read or serializable would fail
/// it with SQLSTATE 40001.
enum PostgresTransaction {
    static func run<Result>(
        on connection: PostgresConnection, logger: Logger, _ body: () throws -> Result
    ) throws -> Result {
        _ = try connection.query("BEGIN ISOLATION LEVEL READ COMMITTED", logger: logger).wait()
        let result: Result
        do {
            result = try body()
        } catch {
            if endsTheSession(error) {
                // The server ended the session (it rolled back); a query sent now would wait on a
                // connection going away. Closed, it leaves the pool, which connects anew.
                try? connection.close().wait()
            } else {
                _ = try? connection.query("ROLLBACK", logger: logger).wait()
            }
            throw error
        }
        _ = try connection.query("COMMIT", logger: logger).wait()
        return result
    }

    /// True when `error` leaves no session to roll back: the server's FATAL or PANIC (a terminated
    /// backend, a shutdown), or a failure of the connection itself.
    private static func endsTheSession(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        guard let severity = error.serverInfo?[.severity] else { return true }
        return severity == "FATAL" || severity == "PANIC"
    }
}
#endif
