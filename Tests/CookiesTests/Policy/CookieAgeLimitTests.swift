import Testing
@testable import Cookies

/// The cookie-age-limit (rfc6265bis-22 §5.5; §5.6.1, §5.6.2, §5.7 step 6): what `expiryTime` gives and
/// what `cappedLifetime` says, which must agree.
struct CookieAgeLimitTests {
    static let now = CookieTime(secondsSinceEpoch: Int64(1_767_225_600))
    static let limit: Int64 = 400 * 24 * 60 * 60

    struct Row: Sendable, CustomTestStringConvertible {
        var maxAge: Int64?
        var expires: Int64?
        var capped: CappedLifetime?
        var source: String
        var testDescription: String { source }
    }

    static let rows: [Row] = [
        Row(maxAge: nil, expires: nil, capped: nil, source: "§5.7 step 6: a session cookie"),
        Row(maxAge: 60, expires: nil, capped: nil, source: "§5.6.2: within the limit"),
        Row(maxAge: limit, expires: nil, capped: nil, source: "§5.6.2: exactly 400 days"),
        Row(maxAge: limit + 1, expires: nil, capped: .maxAge(limit + 1), source: "§5.6.2 step 6: over 400 days"),
        Row(maxAge: 0, expires: nil, capped: nil, source: "§5.6.2: zero expires at once"),
        Row(maxAge: 60, expires: 1_767_225_600 + limit * 2, capped: nil, source: "§5.7 step 6: Max-Age wins over Expires"),
        Row(maxAge: nil, expires: 1_767_225_600 + limit, capped: nil, source: "§5.6.1: exactly 400 days ahead"),
        Row(maxAge: nil, expires: 1_767_225_600 + limit + 1, capped: .expires(1_767_225_600 + limit + 1), source: "§5.6.1 step 3: beyond 400 days"),
    ]

    @Test(arguments: rows)
    func cappedLifetimeAgreesWithExpiryTime(_ row: Row) throws {
        let limits = CookieLimits.default
        let cookie = try ParsedSetCookie(name: "a", value: "b", expires: row.expires, maxAge: row.maxAge)
        #expect(limits.cappedLifetime(of: cookie, receivedAt: Self.now) == row.capped)
        // §5.7 step 6 as written: the requested expiry-time (Max-Age first), at most the limit after now.
        let requested: CookieTime? = row.maxAge.map { $0 <= 0 ? .distantPast : Self.now.adding(seconds: $0) }
            ?? row.expires.map { CookieTime(secondsSinceEpoch: $0) }
        let ceiling = Self.now.adding(seconds: Self.limit)
        #expect(limits.expiryTime(maxAge: row.maxAge, expires: row.expires, receivedAt: Self.now) == requested.map { min($0, ceiling) })
        #expect((row.capped != nil) == (requested.map { $0 > ceiling } ?? false))
    }
}
