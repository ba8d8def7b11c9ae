extension CookieJar {
    /// Puts cookies read from a file into the jar through `insert(_:)`: no §5.7 checks (the readers check
    /// what a file can get wrong, `ImportChecks`), a cookie replaces one of the same identity, limits
    /// apply, and cookies already expired are dropped; so are cookies no jar holds (`insert(_:)`'s
    /// rejections), counted by reason.
    ///
    /// The cookie-age-limit holds for imported cookies as for received ones (rfc6265bis-22 §5.5: "the user
    /// agent MUST limit the maximum age of the cookie"): an expiry later than the jar's
    /// `CookieLimits.maxAgeSeconds` after now (400 days by default) is brought to that instant, and the
    /// cookies so shortened are counted (`CookieInsertionReport.capped`). A session cookie stays one.
    /// `insert(_:)` alone keeps a cookie's expiry as it is.
    ///
    /// The jar's limits (`limits`) hold for imported cookies as for received ones: more than
    /// `maxCookiesPerSite` cookies of one site, or `maxCookies` in all, evict the least recently used
    /// ones. The report says how many each limit evicted from which site; a jar made with other
    /// `CookieLimits` keeps more.
    ///
    /// A later cookie with the identity of an earlier one (a file holding a cookie twice) replaces it, and
    /// is counted as such (`CookieInsertionReport.superseded`).
    ///
    /// - Returns: how many cookies were stored, stored with their expiry capped, replaced by a later one,
    ///   dropped as expired, refused, and evicted by the limits.
    @discardableResult
    public func insert(contentsOf cookies: some Sequence<Cookie>) -> CookieInsertionReport {
        var stored = 0
        var capped = 0
        var superseded = 0
        var expired = 0
        var rejections: [CookieRejection: Int] = [:]
        var evictions: [CookieEviction]? = []
        // The identities this call stored, as the jar keeps them (`insert(_:)` may change a cookie).
        var storedHere = Set<CookieIdentity>()
        for cookie in cookies {
            var wasCapped = false
            switch insert(cookie, capped: &wasCapped, countingEvictionsIn: &evictions) {
            case .stored(let cookie):
                stored += 1
                if wasCapped { capped += 1 }
                storedHere.insert(CookieIdentity(cookie))
            case .replaced(let cookie, _):
                stored += 1
                if wasCapped { capped += 1 }
                if !storedHere.insert(CookieIdentity(cookie)).inserted { superseded += 1 }
            case .deleted(let previous):
                expired += 1
                if storedHere.remove(CookieIdentity(previous)) != nil { superseded += 1 }
            case .expired: expired += 1
            case .rejected(let reason): rejections[reason, default: 0] += 1
            }
        }
        return CookieInsertionReport(
            stored: stored, capped: capped, superseded: superseded, expired: expired, rejections: rejections, evictions: evictions ?? [])
    }
}
