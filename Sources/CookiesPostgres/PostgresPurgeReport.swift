#if CookiesPostgres
/// What `PostgresCookieJars.purge(jarsIdleFor:)` deleted.
public struct PostgresPurgeReport: Sendable, Hashable {
    /// Cookies whose expiry had passed, of every jar.
    public var expiredCookies = 0
    /// Jars deleted with their cookies: idle for the time asked, or holding no cookie.
    public var idleJars = 0

    public init(expiredCookies: Int = 0, idleJars: Int = 0) {
        self.expiredCookies = expiredCookies
        self.idleJars = idleJars
    }
}
#endif
