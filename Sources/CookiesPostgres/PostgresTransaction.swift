#if CookiesPostgres
import PostgresNIO

/// BEGIN … COMMIT around a body of blocking queries on one connection: all of the body's writes or, when
/// it throws (or the connection breaks), none.
enum PostgresTransaction {
    static func run<Result>(
        on connection: PostgresConnection, logger: Logger, _ body: () throws -> Result
    ) throws -> Result {
        _ = try connection.query("BEGIN", logger: logger).wait()
        let result: Result
        do {
            result = try body()
        } catch {
            // A broken connection rolls back by itself; the pool drops it.
            _ = try? connection.query("ROLLBACK", logger: logger).wait()
            throw error
        }
        _ = try connection.query("COMMIT", logger: logger).wait()
        return result
    }
}
#endif
