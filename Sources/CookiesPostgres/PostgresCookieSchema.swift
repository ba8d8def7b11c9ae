#if CookiesPostgres
import PostgresNIO

/// The tables of the jars in a PostgreSQL schema (namespace), and their version.
///
/// - `cookiejar_schema`: one row, the version of these tables.
/// - `cookiejar_jars`: one row per jar: its id and `version`, made by the jar's first write
///   (`firstVersion`). Every later write of the jar increments it in the transaction that writes the
///   cookies, holding the row's lock until commit: writes of one jar are serialised, and their versions
///   are the one order every instance agrees on. A jar without a row (never written, or deleted) is at
///   version 0.
/// - `cookiejar_cookies`: one row per cookie, with the version of the write that stored it. Its key within
///   a jar is `identity`, the SHA-256 of the cookie's identity (rfc6265bis-22 §5.7 step 23: name, domain,
///   host-only flag, path; plus the CHIPS partition key), not those columns themselves: a btree index
///   entry holds at most 2,704 bytes, and a cookie's name alone may be 4,096 (§5.6 step 5), so one such
///   cookie would fail every write of its jar. Times are microseconds since 1970 (UTC); `expiry` is NULL
///   for a session cookie, `partition_key` '' for an unpartitioned cookie, `same_site` 0 default, 1 None,
///   2 Lax, 3 Strict.
enum PostgresCookieSchema {
    /// The version this library writes. Version history:
    /// - 1: the tables above, `cookiejar_cookies` keyed by its identity columns;
    /// - 2: `cookiejar_cookies` keyed by the digest of its identity (`identity`).
    static let version: Int64 = 2

    /// The SQL expression of the key of a cookie whose identity columns are those of `alias`: the SHA-256
    /// of each column's UTF-8 preceded by its length in bytes and a colon (the host-only flag as 1 or 0),
    /// so that no two identities give the same bytes.
    static func identityDigest(of alias: String) -> String {
        let text = ["name", "domain"].map { "octet_length(\(alias).\($0)) || ':' || \(alias).\($0)" }
            + ["CASE WHEN \(alias).host_only THEN '1' ELSE '0' END"]
            + ["path", "partition_key"].map { "octet_length(\(alias).\($0)) || ':' || \(alias).\($0)" }
        return "sha256(convert_to(" + text.joined(separator: " || ") + ", 'UTF8'))"
    }

    /// The SQL expression of the version a jar's row gets when a write makes it: the server's clock in
    /// microseconds since 1970. So a jar deleted (`PostgresCookieJars.deleteJar(_:)`, `purge(jarsIdleFor:)`)
    /// and made anew never passes through the versions of the jar before it, which an instance may still
    /// hold: they started at that jar's making, earlier, and went up by one a write, and every write takes
    /// more than a microsecond of the server's time. (Were every jar to start at 1, an instance holding the old jar at
    /// version 3 would take the new jar's third write for the state it holds, and keep sending cookies
    /// that were deleted.) It rests on the server's clock never going back by more than the time between
    /// a deletion and the jar's making anew. Rows made by earlier versions of this library started at 1:
    /// purge or delete jars only once every instance runs a version that makes rows this way.
    static let firstVersion = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"

    /// A key for `pg_advisory_xact_lock`, taken while the tables are created or checked, so that
    /// instances starting together create them once ("CkJr").
    static let lockKey: Int64 = 0x436B_4A72

    /// A column of a table of version `version`: its name, its type as PostgreSQL's `format_type` writes
    /// it, and the rest of its definition.
    struct Column {
        let name: String
        let type: String
        let constraints: String
    }

    /// The columns of `cookiejar_jars`.
    static let jarColumns = [
        Column(name: "jar_id", type: "text", constraints: "PRIMARY KEY"),
        Column(name: "version", type: "bigint", constraints: "NOT NULL"),
    ]

    /// The columns of `cookiejar_cookies` in `schema` (an identifier already quoted).
    static func cookieColumns(in schema: String) -> [Column] {
        [
            Column(name: "jar_id", type: "text", constraints: "NOT NULL REFERENCES \(schema).cookiejar_jars ON DELETE CASCADE"),
            Column(name: "name", type: "text", constraints: "NOT NULL"),
            Column(name: "value", type: "text", constraints: "NOT NULL"),
            Column(name: "domain", type: "text", constraints: "NOT NULL"),
            Column(name: "host_only", type: "boolean", constraints: "NOT NULL"),
            Column(name: "path", type: "text", constraints: "NOT NULL"),
            Column(name: "partition_key", type: "text", constraints: "NOT NULL"),
            Column(name: "expiry", type: "bigint", constraints: ""),
            Column(name: "creation", type: "bigint", constraints: "NOT NULL"),
            Column(name: "last_access", type: "bigint", constraints: "NOT NULL"),
            Column(name: "secure", type: "boolean", constraints: "NOT NULL"),
            Column(name: "http_only", type: "boolean", constraints: "NOT NULL"),
            Column(name: "same_site", type: "smallint", constraints: "NOT NULL CHECK (same_site BETWEEN 0 AND 3)"),
            Column(name: "source_secure", type: "boolean", constraints: "NOT NULL"),
            Column(name: "source_port", type: "integer", constraints: "CHECK (source_port BETWEEN 0 AND 65535)"),
            Column(name: "version", type: "bigint", constraints: "NOT NULL"),
            Column(name: "identity", type: "bytea", constraints: "NOT NULL"),
        ]
    }

    /// The tables of version `version` in `schema` (an identifier already quoted) with their columns, and
    /// what their definitions add after the columns.
    static func tables(in schema: String) -> [(name: String, columns: [Column], more: [String])] {
        [
            ("cookiejar_jars", jarColumns, []),
            ("cookiejar_cookies", cookieColumns(in: schema), ["PRIMARY KEY (jar_id, identity)"]),
        ]
    }

    /// The statements that create version `version` in `schema` (an identifier already quoted), which exists.
    static func create(in schema: String) -> [String] {
        [
            "CREATE TABLE \(schema).cookiejar_schema (version bigint NOT NULL)",
            "INSERT INTO \(schema).cookiejar_schema (version) VALUES (\(version))",
        ] + tables(in: schema).map { table in
            let definitions = table.columns.map { "\($0.name) \($0.type) \($0.constraints)" } + table.more
            return "CREATE TABLE \(schema).\(table.name) (\n    " + definitions.joined(separator: ",\n    ") + "\n)"
        }
    }

    /// Why the tables of version `version` in `schema` (an identifier already quoted) are not the jars'
    /// tables, or nil when they are: a column missing or of another type (a table of another application
    /// under the same name, or one altered by hand), or one more that a row must be given (NOT NULL,
    /// without a default), which every write of a cookie would fail on. A column more that may be left
    /// out is let be.
    static func columnMismatch(in schema: String, on connection: PostgresConnection, logger: Logger) throws -> String? {
        for table in tables(in: schema) {
            var found: [String: (type: String, isRequired: Bool)] = [:]
            let rows = try connection.query(
                """
                SELECT attname::text, format_type(atttypid, atttypmod), attnotnull AND NOT atthasdef
                FROM pg_attribute WHERE attrelid = to_regclass(\(schema + "." + table.name)) AND attnum > 0 AND NOT attisdropped
                """, logger: logger
            ).wait()
            for row in rows {
                let (name, type, isRequired) = try row.decode((String, String, Bool).self)
                found[name] = (type, isRequired)
            }
            for column in table.columns {
                guard let actual = found.removeValue(forKey: column.name) else {
                    return "\(table.name) has no column \(column.name)"
                }
                if actual.type != column.type {
                    return "column \(column.name) of \(table.name) is \(actual.type), not \(column.type)"
                }
            }
            if let extra = found.filter(\.value.isRequired).keys.sorted().first {
                return "\(table.name) has a column \(extra) that every row must be given, which no jar writes"
            }
        }
        return nil
    }

    /// The statements that move the tables in `schema` (an identifier already quoted) from version `from`
    /// to `from + 1`; nil for a version this library never wrote.
    static func migration(from version: Int64, in schema: String) -> [String]? {
        switch version {
        case 1:
            [
                "ALTER TABLE \(schema).cookiejar_cookies ADD COLUMN identity bytea",
                "UPDATE \(schema).cookiejar_cookies c SET identity = \(identityDigest(of: "c"))",
                "ALTER TABLE \(schema).cookiejar_cookies ALTER COLUMN identity SET NOT NULL",
                "ALTER TABLE \(schema).cookiejar_cookies DROP CONSTRAINT cookiejar_cookies_pkey",
                "ALTER TABLE \(schema).cookiejar_cookies ADD PRIMARY KEY (jar_id, identity)",
                "UPDATE \(schema).cookiejar_schema SET version = 2",
            ]
        default:
            nil
        }
    }

    /// The columns of a cookie, in the order `PostgresCookieRows` reads them.
    static let columns =
        "name, value, domain, host_only, path, partition_key, expiry, creation, last_access, secure, http_only, same_site, source_secure, source_port"

    /// Creates the tables in `schema` if they are missing (and the schema, when it is missing too), migrates
    /// older ones, and refuses newer or foreign ones (`columnMismatch`); in one transaction, under an advisory lock. The schema
    /// is created only when missing: `CREATE SCHEMA IF NOT EXISTS` asks for the database's CREATE privilege
    /// even when the schema exists, which a role given a schema of its own, and no more, lacks. Refuses a database whose encoding is
    /// neither UTF8 nor SQL_ASCII: cookies are UTF-8 (every connection asks for it, `client_encoding`),
    /// which another encoding (LATIN1…) cannot hold whole: a cookie of a character it lacks would fail
    /// every write of its jar. SQL_ASCII keeps the bytes as they are given, so the UTF-8 written here
    /// comes back as it went; bytes another writer put there that are not UTF-8 fail the read with
    /// SQLSTATE 22021 (the server checks the text it sends a UTF8 client), never a cookie with U+FFFD.
    static func prepare(_ schema: String, on connection: PostgresConnection, logger: Logger) throws(PostgresCookieStoreError) {
        let action = "cannot prepare the cookie jar tables in schema \(schema)"
        do {
            let encoding = try connection.query("SHOW server_encoding", logger: logger).wait().first?.decode(String.self)
            guard encoding == "UTF8" || encoding == "SQL_ASCII" else {
                throw PostgresCookieStoreError(
                    .invalidConfiguration, action: action,
                    detail: "the database's encoding is \(encoding ?? "unknown"), which cannot hold every cookie "
                        + "(they are UTF-8): create it with ENCODING 'UTF8'")
            }
            try PostgresTransaction.run(on: connection, logger: logger) {
                _ = try connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger).wait()
                func exists(_ table: String) throws -> Bool {
                    try connection.query("SELECT to_regclass(\(schema + "." + table))::text", logger: logger)
                        .wait().first?.makeRandomAccess()[0].decode(String?.self) != nil
                }
                let tables = ["cookiejar_jars", "cookiejar_cookies"]
                guard try exists("cookiejar_schema") else {
                    if let found = try tables.first(where: exists) {
                        throw PostgresCookieStoreError(
                            .foreign, action: action, detail: "\(found) exists without cookiejar_schema: not a jar table")
                    }
                    let namespace = try connection.query("SELECT to_regnamespace(\(schema))::text", logger: logger)
                        .wait().first?.makeRandomAccess()[0].decode(String?.self)
                    if namespace == nil { _ = try connection.run("CREATE SCHEMA IF NOT EXISTS \(schema)", logger: logger) }
                    for statement in create(in: schema) {
                        _ = try connection.run(statement, logger: logger)
                    }
                    return
                }
                // One row holding a bigint: anything else (no row, NULL, another type) is another table.
                let rows = try connection.run("SELECT version FROM \(schema).cookiejar_schema", logger: logger)
                guard rows.count == 1, let found = try? rows.first?.makeRandomAccess()[0].decode(Int64.self) else {
                    throw PostgresCookieStoreError(
                        .foreign, action: action, detail: "cookiejar_schema holds no version: not a jar table")
                }
                if let missing = try tables.first(where: { try !exists($0) }) {
                    throw PostgresCookieStoreError(
                        .foreign, action: action, detail: "cookiejar_schema is there but \(missing) is missing")
                }
                guard found <= version else {
                    throw PostgresCookieStoreError(
                        .newerSchema, action: action,
                        detail: "written by a newer version (schema \(found); this version reads up to \(version))")
                }
                for from in found..<version {
                    guard let statements = migration(from: from, in: schema) else {
                        throw PostgresCookieStoreError(.foreign, action: action, detail: "unknown schema version \(found)")
                    }
                    for statement in statements {
                        _ = try connection.run(statement, logger: logger)
                    }
                }
                if let mismatch = try columnMismatch(in: schema, on: connection, logger: logger) {
                    throw PostgresCookieStoreError(.foreign, action: action, detail: mismatch + ": not a jar table")
                }
            }
        } catch {
            throw PostgresCookieStoreError(error, action: action)
        }
    }
}
#endif
