/// Where a cookie stands in eviction order (rfc6265bis-22 §6.1 leaves the order to the jar; this is
/// Chromium's CookieMonster's): non-Secure cookies before Secure ones, then the least recently accessed
/// first, then the oldest (creation time) first, as CookieMonster's `LRACookieSorter` breaks ties in last
/// access. The lesser rank goes first. Creation times are distinct among the cookies a jar received
/// (§5.7 step 24 gives them out strictly increasing); cookies inserted or loaded with equal ones, the only
/// ties left, go by site key, then send order.
///
/// The fields are laid out times first: the rank is 17 bytes, and a `SiteHeap` node puts its slot in
/// the rank's tail (24 bytes in all).
struct EvictionRank: Sendable, Comparable, BitwiseCopyable {
    var lastAccess: CookieTime
    var creation: CookieTime
    var isSecure: Bool

    init(isSecure: Bool, lastAccess: CookieTime, creation: CookieTime) {
        self.lastAccess = lastAccess
        self.creation = creation
        self.isSecure = isSecure
    }

    /// After every cookie's rank: the eviction floor of a site without cookies.
    static let last = EvictionRank(
        isSecure: true, lastAccess: CookieTime(microsecondsSinceEpoch: .max), creation: CookieTime(microsecondsSinceEpoch: .max))

    static func < (lhs: EvictionRank, rhs: EvictionRank) -> Bool {
        if lhs.isSecure != rhs.isSecure { return rhs.isSecure }
        if lhs.lastAccess != rhs.lastAccess { return lhs.lastAccess < rhs.lastAccess }
        return lhs.creation < rhs.creation
    }
}

extension StoredCookie {
    /// The cookie's place in eviction order.
    @inline(__always)
    var evictionRank: EvictionRank { EvictionRank(isSecure: isSecure, lastAccess: lastAccess, creation: creation) }
}
