#if CookiesPostgres
import PostgresNIO

/// The tables of the jars in a PostgreSQL schema (namespace), and their version.
///
/// - `cookiejar_schema`: one row, the version of these tables.
/// - `cookiejar_jars`: one row per jar: its id and `version`, the number of the jar's last write. Every
///   write of a jar increments it in the transaction that writes the cookies, holding the row's lock until
///   commit: writes of one jar are serialised, and their versions are the one order every instance agrees
///   on.
/// - `cookiejar_cookies`: one row per cookie (the identity of rfc6265bis-22 §5.7 step 23 plus the CHIPS
///   partition key is the key within a jar), with the version of the write that stored it. Times are
///   microseconds since 1970 (UTC); `expiry` is NULL for a session cookie, `partition_key` '' for an
///   unpartitioned cookie, `same_site` 0 default, 1 None, 2 Lax, 3 Strict.
enum PostgresCookieSchema {
    /// The version this library writes. Version history:
    /// - 1: the tables above.
    static let version: Int64 = 1

    /// A key for `pg_advisory_xact_lock`, taken while the tables are created or checked, so that
    /// instances starting together create them once ("CkJr").
    static let lockKey: Int64 = 0x436B_4A72

    /// The statements that create version `version` in `schema` (an identifier already quoted).
    static func create(in schema: String) -> [String] {
        [
            "CREATE SCHEMA IF NOT EXISTS \(schema)",
            "CREATE TABLE \(schema).cookiejar_schema (version bigint NOT NULL)",
            "INSERT INTO \(schema).cookiejar_schema (version) VALUES (\(version))",
            """
            CREATE TABLE \(schema).cookiejar_jars (
                jar_id text PRIMARY KEY,
                version bigint NOT NULL
            )
            """,
            """
            CREATE TABLE \(schema).cookiejar_cookies (
                jar_id text NOT NULL REFERENCES \(schema).cookiejar_jars ON DELETE CASCADE,
                name text NOT NULL,
                value text NOT NULL,
                domain text NOT NULL,
                host_only boolean NOT NULL,
                path text NOT NULL,
                partition_key text NOT NULL,
                expiry bigint,
                creation bigint NOT NULL,
                last_access bigint NOT NULL,
                secure boolean NOT NULL,
                http_only boolean NOT NULL,
                same_site smallint NOT NULL CHECK (same_site BETWEEN 0 AND 3),
                source_secure boolean NOT NULL,
                source_port integer CHECK (source_port BETWEEN 0 AND 65535),
                version bigint NOT NULL,
                PRIMARY KEY (jar_id, name, domain, host_only, path, partition_key)
            )
            """,
        ]
    }

    /// The statements that move the tables from version `from` to `from + 1`; nil for a version this
    /// library never wrote. (Version 1 is the first: there is none yet.)
    static func migration(from version: Int64) -> [String]? {
        nil
    }

    /// The columns of a cookie, in the order `PostgresCookieRows` reads them.
    static let columns =
        "name, value, domain, host_only, path, partition_key, expiry, creation, last_access, secure, http_only, same_site, source_secure, source_port"

    /// Creates the tables in `schema` if they are missing, migrates older ones, and refuses newer or
    /// foreign ones; in one transaction, under an advisory lock.
    static func prepare(_ schema: String, on connection: PostgresConnection, logger: Logger) throws(PostgresCookieStoreError) {
        let action = "cannot prepare the cookie jar tables in schema \(schema)"
        do {
            try PostgresTransaction.run(on: connection, logger: logger) {
                _ = try connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger).wait()
                let table = try connection.query(
                    "SELECT to_regclass(\(schema + ".cookiejar_schema"))::text", logger: logger
                ).wait().first?.makeRandomAccess()[0].decode(String?.self)
                guard table != nil else {
                    for statement in create(in: schema) {
                        _ = try connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).wait()
                    }
                    return
                }
                let found = try connection.query(
                    PostgresQuery(unsafeSQL: "SELECT version FROM \(schema).cookiejar_schema"), logger: logger
                ).wait().first?.makeRandomAccess()[0].decode(Int64.self)
                guard let found else {
                    throw PostgresCookieStoreError(.foreign, action: action, detail: "cookiejar_schema holds no version")
                }
                guard found <= version else {
                    throw PostgresCookieStoreError(
                        .newerSchema, action: action,
                        detail: "written by a newer version (schema \(found); this version reads up to \(version))")
                }
                for from in found..<version {
                    guard let statements = migration(from: from) else {
                        throw PostgresCookieStoreError(.foreign, action: action, detail: "unknown schema version \(found)")
                    }
                    for statement in statements {
                        _ = try connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).wait()
                    }
                }
            }
        } catch {
            throw PostgresCookieStoreError(error, action: action)
        }
    }
}
#endif
