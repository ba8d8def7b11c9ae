/// Where a cookie stands in eviction order (Chromium's CookieMonster, rfc6265bis-22 §6.1 leaves the
/// order to the jar): non-Secure cookies before Secure ones, then the least recently accessed first. The
/// lesser rank goes first; ties are broken by site key, then send order.
struct EvictionRank: Sendable, Comparable, BitwiseCopyable {
    var isSecure: Bool
    var lastAccess: CookieTime

    /// After every cookie's rank: the eviction floor of a site without cookies.
    static let last = EvictionRank(isSecure: true, lastAccess: CookieTime(microsecondsSinceEpoch: .max))

    static func < (lhs: EvictionRank, rhs: EvictionRank) -> Bool {
        lhs.isSecure != rhs.isSecure ? rhs.isSecure : lhs.lastAccess < rhs.lastAccess
    }
}

extension StoredCookie {
    /// The cookie's place in eviction order.
    @inline(__always)
    var evictionRank: EvictionRank { EvictionRank(isSecure: isSecure, lastAccess: lastAccess) }
}
