/// Cookies that one of a jar's limits (`CookieLimits`, rfc6265bis-22 §6.1) evicted from one site: a line
/// of a `CookieInsertionReport`.
public struct CookieEviction: Sendable, Hashable {
    /// The limit a site or the jar went over.
    public enum Limit: Sendable, Hashable, CaseIterable, Comparable {
        /// `CookieLimits.maxCookiesPerSite`: the site, or one of its partitions (CHIPS), went over it, and
        /// lost its least recently used cookies there (non-Secure first) until it held `sitePurgeCount`
        /// fewer than the limit.
        case perSite
        /// `CookieLimits.maxCookies`: the jar went over it, and lost its least recently used cookies
        /// (from any site, Secure or not) until it held `purgeCount` fewer than the limit.
        case total
    }

    /// The limit that evicted the cookies.
    public var limit: Limit
    /// The site that lost them: its registrable domain, or its host when it has none.
    public var site: String
    /// How many cookies the limit evicted from the site.
    public var count: Int

    /// `count` cookies of `site` evicted by `limit`.
    public init(limit: Limit, site: String, count: Int) {
        self.limit = limit
        self.site = site
        self.count = count
    }
}
