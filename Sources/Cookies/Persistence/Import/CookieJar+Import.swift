extension CookieJar {
    /// Puts cookies read from a file into the jar through `insert(_:)`: no §5.7 checks (the readers check
    /// what a file can get wrong, `ImportChecks`), a cookie replaces one of the same identity, limits
    /// apply, and cookies already expired are dropped; so are cookies no jar holds (`insert(_:)`'s
    /// rejections), counted by reason.
    ///
    /// The jar's limits (`limits`) hold for imported cookies as for received ones: more than
    /// `maxCookiesPerSite` cookies of one site, or `maxCookies` in all, evict the least recently used
    /// ones. The report says how many each limit evicted from which site; a jar made with other
    /// `CookieLimits` keeps more.
    ///
    /// - Returns: how many cookies were stored, dropped as expired, refused, and evicted by the limits.
    @discardableResult
    public func insert(contentsOf cookies: some Sequence<Cookie>) -> CookieInsertionReport {
        var stored = 0
        var expired = 0
        var rejections: [CookieRejection: Int] = [:]
        var evictions: [CookieEviction]? = []
        for cookie in cookies {
            switch insert(cookie, countingEvictionsIn: &evictions) {
            case .stored, .replaced: stored += 1
            case .deleted, .expired: expired += 1
            case .rejected(let reason): rejections[reason, default: 0] += 1
            }
        }
        return CookieInsertionReport(stored: stored, expired: expired, rejections: rejections, evictions: evictions ?? [])
    }
}
