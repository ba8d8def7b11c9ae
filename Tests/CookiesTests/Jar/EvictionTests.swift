import Testing
@testable import Cookies

/// Limits (rfc6265bis-22 §6.1, Chromium's CookieMonster numbers): a hostile server cannot grow the jar.
struct EvictionTests {
    @Test func defaultsAreChromiums() {
        let limits = CookieLimits.default
        #expect(limits.maxCookiesPerSite == 180 && limits.sitePurgeCount == 30)
        #expect(limits.maxCookies == 3300 && limits.purgeCount == 300)
        #expect(limits.maxAgeSeconds == 34_560_000)
    }

    @Test func perSiteLimitEvictsLeastRecentlyAccessedNonSecureFirst() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookiesPerSite: 10, sitePurgeCount: 3))
        jar.setCookie("secure=1; Secure", from: url("https://h.test/"))
        for index in 0..<9 {
            clock.advance(seconds: 1)
            jar.setCookie("c\(index)=1", from: url("https://h.test/"))
        }
        // Touch c0 so that c1 becomes the least recently accessed.
        clock.advance(seconds: 1)
        _ = jar.cookies(for: url("https://h.test/"))
        clock.advance(seconds: 1)
        jar.setCookie("c0=touched", from: url("https://h.test/"))
        #expect(jar.count == 10)
        clock.advance(seconds: 1)
        jar.setCookie("new=1", from: url("https://h.test/"))
        #expect(jar.count == 7, "purged to limit minus purge count")
        let names = Set(jar.allCookies().map(\.name))
        #expect(names.contains("secure"), "Secure cookies go last")
        #expect(names.contains("new"), "the cookie just stored stays")
    }

    /// A site over its limit keeps exactly the cookies a full sort in eviction order would keep
    /// (Chromium's CookieMonster: non-Secure before Secure, least recently accessed first), ties in last
    /// access broken by send order, and never the cookie just stored: seeded runs with few distinct
    /// access times (many ties) and a mix of Secure cookies, on both sides of the limit.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func perSiteEvictionKeepsWhatAFullSortKeeps(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let limits = CookieLimits(maxCookiesPerSite: 40, sitePurgeCount: 1 + Int(random.next() % 39))
        let (jar, _) = makeTestJar(limits: limits)
        // Path "/" everywhere: send order is creation order.
        var cookies: [Cookie] = []
        for index in 0..<limits.maxCookiesPerSite {
            cookies.append(
                Cookie(
                    name: "c\(index)", value: "1", domain: "h.test", creation: testEpoch.adding(seconds: Int64(index)),
                    lastAccess: testEpoch.adding(seconds: Int64(random.next() % 5)), isSecure: random.next() % 3 == 0,
                    isSourceSecure: true))
            jar.insert(cookies[index])
        }
        let kept = Cookie(name: "new", value: "1", domain: "h.test", creation: testEpoch.adding(seconds: 1000), isSourceSecure: true)
        jar.insert(kept)
        let order = cookies.indices.sorted {
            (cookies[$0].isSecure ? 1 : 0, cookies[$0].lastAccess, $0) < (cookies[$1].isSecure ? 1 : 0, cookies[$1].lastAccess, $1)
        }
        let survivors = order.dropFirst(cookies.count + 1 - (limits.maxCookiesPerSite - limits.sitePurgeCount)).map { cookies[$0].name }
        #expect(Set(jar.allCookies().map(\.name)) == Set(survivors + ["new"]))
    }

    @Test func expiredCookiesGoFirst() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookiesPerSite: 5, sitePurgeCount: 0))
        jar.setCookie("short=1; Max-Age=1", from: url("http://h.test/"))
        for index in 0..<4 { jar.setCookie("c\(index)=1", from: url("http://h.test/")) }
        clock.advance(seconds: 2)
        jar.setCookie("new=1", from: url("http://h.test/"))
        #expect(Set(jar.allCookies().map(\.name)) == ["c0", "c1", "c2", "c3", "new"])
    }

    @Test func totalLimitHolds() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookiesPerSite: 50, maxCookies: 100, purgeCount: 10))
        for site in 0..<40 {
            for index in 0..<5 {
                clock.advance(seconds: 1)
                jar.setCookie("c\(index)=1", from: url("http://s\(site).test/"))
                #expect(jar.count <= 100)
            }
        }
        #expect(jar.count > 80)
        #expect(jar.cookies(forSite: "s39.test").count == 5, "the newest site keeps its cookies")
        #expect(jar.cookies(forSite: "s0.test").isEmpty, "the least recently accessed went first")
    }

    @Test func hostileServerCannotGrowTheJar() {
        let (jar, _) = makeTestJar()
        for index in 0..<2_000 {
            jar.setCookie("c\(index)=\(index); Domain=evil.test", from: url("http://a\(index % 7).evil.test/"))
        }
        #expect(jar.count <= 180)
    }
}
