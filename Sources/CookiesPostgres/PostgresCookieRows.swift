#if CookiesPostgres
import Cookies
import PostgresNIO

/// Reads cookies from rows whose columns, from `offset` on, are `PostgresCookieSchema.columns`.
enum PostgresCookieRows {
    /// The cookie in `row` from column `offset`; nil when its columns are NULL (the outer join of a jar
    /// without cookies). Throws when a column cannot be a cookie's.
    static func cookie(in row: PostgresRandomAccessRow, from offset: Int) throws -> Cookie? {
        guard let name = try row[offset].decode(String?.self) else { return nil }
        let sameSite: SameSite
        switch try row[offset + 11].decode(Int16.self) {
        case 1: sameSite = SameSite.none
        case 2: sameSite = .lax
        case 3: sameSite = .strict
        default: sameSite = .default
        }
        let partitionKey = try row[offset + 5].decode(String.self)
        return Cookie(
            name: name, value: try row[offset + 1].decode(String.self), domain: try row[offset + 2].decode(String.self),
            isHostOnly: try row[offset + 3].decode(Bool.self), path: try row[offset + 4].decode(String.self),
            expiry: try row[offset + 6].decode(Int64?.self).map(CookieTime.init(microsecondsSinceEpoch:)),
            creation: CookieTime(microsecondsSinceEpoch: try row[offset + 7].decode(Int64.self)),
            lastAccess: CookieTime(microsecondsSinceEpoch: try row[offset + 8].decode(Int64.self)),
            isSecure: try row[offset + 9].decode(Bool.self), isHTTPOnly: try row[offset + 10].decode(Bool.self),
            sameSite: sameSite, partitionKey: partitionKey.isEmpty ? nil : partitionKey,
            isSourceSecure: try row[offset + 12].decode(Bool.self),
            sourcePort: try row[offset + 13].decode(Int32?.self).map(Int.init))
    }

    /// The `same_site` column's value.
    static func code(of sameSite: SameSite) -> Int16 {
        switch sameSite {
        case .default: 0
        case .none: 1
        case .lax: 2
        case .strict: 3
        }
    }
}
#endif
