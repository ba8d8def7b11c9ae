/// How many cookies a jar keeps. A hostile server can never grow the jar beyond these bounds.
///
/// rfc6265bis-22 §6.1 asks for at least 50 cookies per domain and 3000 in total; the defaults are
/// Chromium's (`CookieMonster::kDomainMaxCookies` 180, `kMaxCookies` 3300, purging 30 and 300 at once
/// so that eviction runs rarely). The 400-day expiry cap is §5.6.1/§5.6.2 ("cookie-age-limit").
///
/// A site or jar over its limit loses its expired cookies first (rfc6265bis-22 §5.7's priority order for
/// removing excess cookies), then its least recently accessed ones, a site its non-Secure cookies before
/// its Secure ones, a jar any cookie of any site; among cookies last accessed at one time, the oldest first
/// (as Chromium's `LRACookieSorter`); never the cookie whose arrival went over the limit.
///
/// A jar enforces the limits `withinRange`: a field set out of its range (a negative purge count) is
/// brought within it, as `init` brings its arguments.
public struct CookieLimits: Sendable, Hashable {
    /// Most cookies kept per site (registrable domain, or host when it has none), counted for each of its
    /// partitions (CHIPS) apart: the site's own cookies, and those it set in each top-level site embedding
    /// it. Default: 180.
    public var maxCookiesPerSite: Int
    /// How many more are removed when a site goes over its limit. Default: 30.
    public var sitePurgeCount: Int
    /// Most cookies kept in the whole jar. Default: 3300.
    public var maxCookies: Int
    /// How many more are removed when the jar goes over its limit. Default: 300.
    public var purgeCount: Int
    /// The longest lifetime a cookie can be given, in seconds. Default: 400 days (34,560,000 s).
    public var maxAgeSeconds: Int64

    /// Limits with these values, each brought within its range: at least one cookie per site and in
    /// all, a purge that leaves at least one cookie, no negative lifetime.
    public init(
        maxCookiesPerSite: Int = 180, sitePurgeCount: Int = 30, maxCookies: Int = 3300, purgeCount: Int = 300,
        maxAgeSeconds: Int64 = 400 * 24 * 60 * 60
    ) {
        self.maxCookiesPerSite = max(1, maxCookiesPerSite)
        self.sitePurgeCount = max(0, min(sitePurgeCount, self.maxCookiesPerSite - 1))
        self.maxCookies = max(1, maxCookies)
        self.purgeCount = max(0, min(purgeCount, self.maxCookies - 1))
        self.maxAgeSeconds = max(0, maxAgeSeconds)
    }

    /// These limits brought within their ranges, as `init` brings them: what a jar enforces, whatever
    /// values were set on the fields since.
    public var withinRange: CookieLimits {
        CookieLimits(
            maxCookiesPerSite: maxCookiesPerSite, sitePurgeCount: sitePurgeCount, maxCookies: maxCookies,
            purgeCount: purgeCount, maxAgeSeconds: maxAgeSeconds)
    }

    /// Chromium's limits: 180 per site, 3300 in total, 400 days.
    public static let `default` = CookieLimits()
}
