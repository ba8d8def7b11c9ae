/// Where a cookie stands in the order in which the jar's limits evict (rfc6265bis-22 §5.7, "remove excess
/// cookies": of cookies of the same removal priority, the one with the earliest last-access-time goes
/// first): the least recently accessed first, then the oldest (creation time) first, as Chromium's
/// CookieMonster's `LRACookieSorter` breaks ties in last access. The lesser rank goes first. Creation
/// times are distinct among the cookies a jar received (§5.7 step 24 gives them out strictly increasing);
/// cookies inserted or loaded with equal ones, the only ties left, go by site key, then send order. The
/// priorities before it (expired cookies, then non-Secure cookies of a site over its limit) are the
/// limits' own (`CookieStore.enforceLimits`).
///
/// A `SiteHeap` node puts its slot after the rank's 16 bytes (24 bytes in all).
struct EvictionRank: Sendable, Comparable, BitwiseCopyable {
    var lastAccess: CookieTime
    var creation: CookieTime

    init(lastAccess: CookieTime, creation: CookieTime) {
        self.lastAccess = lastAccess
        self.creation = creation
    }

    /// After every cookie's rank: the eviction floor of a site without cookies.
    static let last = EvictionRank(
        lastAccess: CookieTime(microsecondsSinceEpoch: .max), creation: CookieTime(microsecondsSinceEpoch: .max))

    static func < (lhs: EvictionRank, rhs: EvictionRank) -> Bool {
        if lhs.lastAccess != rhs.lastAccess { return lhs.lastAccess < rhs.lastAccess }
        return lhs.creation < rhs.creation
    }
}

extension StoredCookie {
    /// The cookie's place in eviction order.
    @inline(__always)
    var evictionRank: EvictionRank { EvictionRank(lastAccess: lastAccess, creation: creation) }
}
