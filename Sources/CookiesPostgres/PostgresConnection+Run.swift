#if CookiesPostgres
import PostgresNIO

extension PostgresConnection {
    /// Runs `sql` with `binds` and waits for its result: every call of the jars blocks its thread for its
    /// round trips (`PostgresCookieJars`).
    func run(_ sql: String, binding binds: PostgresBindings = PostgresBindings(), logger: Logger) throws -> PostgresQueryResult {
        try query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
    }
}
#endif
