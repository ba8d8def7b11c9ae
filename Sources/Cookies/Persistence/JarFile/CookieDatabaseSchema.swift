/// The on-disk schema of a jar file: one row per cookie, every field the jar keeps, and the
/// migrations from each earlier version.
///
/// A jar file is an SQLite database whose header carries `applicationID` (`PRAGMA application_id`,
/// https://sqlite.org/pragma.html#pragma_application_id) so that another application's database is
/// recognised and left alone, and the schema version in `PRAGMA user_version`.
enum CookieDatabaseSchema {
    /// "CkJr": marks the file as a cookie jar.
    static let applicationID: Int64 = 0x436B_4A72

    /// The version this library writes. Version history:
    /// - 1: `host` with a leading dot for domain cookies, expiry in seconds, SameSite as text, no
    ///   partition key, no source port.
    /// - 2: host-only flag, expiry in microseconds, SameSite as an integer, CHIPS partition key and
    ///   source port.
    static let version: Int64 = 2

    /// The `same_site` column's values.
    static func code(of sameSite: SameSite) -> Int64 {
        switch sameSite {
        case .default: 0
        case .none: 1
        case .lax: 2
        case .strict: 3
        }
    }

    static func sameSite(code: Int64) -> SameSite? {
        switch code {
        case 0: .default
        case 1: SameSite.none
        case 2: .lax
        case 3: .strict
        default: nil
        }
    }

    /// The cookies table of version 2, named `table`. Times are microseconds since 1970 (UTC);
    /// `expiry` is NULL for a session cookie; `partition_key` is '' for an unpartitioned cookie (so
    /// that the unique key, which treats NULLs as distinct, holds); `source_port` is NULL when the
    /// URL named no port. The CHECKs keep a damaged or hand-edited row from loading as a cookie.
    static func createTable(_ table: String) -> String {
        """
        CREATE TABLE \(table) (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            domain TEXT NOT NULL,
            host_only INTEGER NOT NULL CHECK (host_only IN (0, 1)),
            path TEXT NOT NULL,
            partition_key TEXT NOT NULL,
            expiry INTEGER,
            creation INTEGER NOT NULL,
            last_access INTEGER NOT NULL,
            secure INTEGER NOT NULL CHECK (secure IN (0, 1)),
            http_only INTEGER NOT NULL CHECK (http_only IN (0, 1)),
            same_site INTEGER NOT NULL CHECK (same_site BETWEEN 0 AND 3),
            source_secure INTEGER NOT NULL CHECK (source_secure IN (0, 1)),
            source_port INTEGER CHECK (source_port BETWEEN 0 AND 65535),
            UNIQUE (name, domain, host_only, path, partition_key)
        );
        """
    }

    /// Creates the current schema in an empty database (run inside a transaction).
    static let create = """
        PRAGMA application_id = \(applicationID);
        \(createTable("cookies"))
        PRAGMA user_version = \(version);
        """

    /// The statements that move a file from version `from` to `from + 1` (run inside one transaction
    /// with the others, so a migration is applied completely or not at all).
    static func migration(from version: Int64) -> String? {
        switch version {
        case 1:
            // Version 1 marked domain cookies with a leading dot on `host` and kept expiry in seconds.
            """
            \(createTable("cookies_v2"))
            INSERT INTO cookies_v2 (name, value, domain, host_only, path, partition_key, expiry, creation,
                last_access, secure, http_only, same_site, source_secure, source_port)
            SELECT name, value,
                CASE WHEN substr(host, 1, 1) = '.' THEN substr(host, 2) ELSE host END,
                substr(host, 1, 1) <> '.', path, '',
                CASE WHEN expiry > 9223372036854 THEN 9223372036854775807 ELSE expiry * 1000000 END, creation, last_access, secure, http_only,
                CASE same_site WHEN 'Default' THEN 0 WHEN 'None' THEN 1 WHEN 'Lax' THEN 2 WHEN 'Strict' THEN 3 END,
                source_secure, NULL
            FROM cookies;
            DROP TABLE cookies;
            ALTER TABLE cookies_v2 RENAME TO cookies;
            PRAGMA user_version = 2;
            """
        default: nil
        }
    }

    /// Every column, in the order `CookieDatabase` binds and reads them.
    static let columns =
        "name, value, domain, host_only, path, partition_key, expiry, creation, last_access, secure, http_only, same_site, source_secure, source_port"
}
