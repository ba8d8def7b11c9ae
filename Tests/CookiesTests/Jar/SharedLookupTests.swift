import Testing
@_spi(Fuzzing) @testable import Cookies

/// Which lookups share the jar's lock (`CookieLock`): those that change nothing. A lookup that would
/// change the store (learn a host or a host's cookies, purge expired cookies, move a last-access time)
/// holds the lock alone; a lookup made with the lock shared makes the header the other makes.
struct SharedLookupTests {
    /// A request moves a cookie's last-access time when it comes a second or more after it, or a second
    /// or more before it (§5.8.3 step 3 moves it on every request; the jar's deviation, dated 2026-11-26,
    /// is `SiteCookies.lastAccessUpdateInterval`). A lookup that moves none shares the lock.
    @Test(arguments: [
        (0, false, "the same instant: nothing to move"),
        (999_999, false, "less than a second later: unchanged (the jar's deviation)"),
        (1_000_000, true, "a second later: §5.8.3 step 3"),
        (3_600_000_000, true, "an hour later: §5.8.3 step 3"),
        (-999_999, false, "a moment before it, as a thread that read the clock before another's lookup: unchanged"),
        (-1_000_000, true, "a second before it, the clock set back: §5.8.3 step 3, the request's time"),
    ] as [(Int64, Bool, String)])
    func lastAccessMovesASecondAway(advance: Int64, moves: Bool, source: String) throws {
        let (jar, clock) = makeTestJar()
        let page = url("http://h.test/")
        jar.setCookie("a=1", from: page)
        #expect(jar.cookieHeader(for: page) == "a=1", "the host's cookies are kept from here on")
        let before = try #require(jar.allCookies().first).lastAccess
        clock.set(CookieTime(microsecondsSinceEpoch: before.microsecondsSinceEpoch + advance))
        #expect(jar.sharedLookupHeader(for: page) == (moves ? nil : .some("a=1")), "\(source)")
        #expect(jar.cookieHeader(for: page) == "a=1", "\(source)")
        #expect(jar.allCookies().first?.lastAccess == (moves ? clock.now() : before), "\(source)")
    }

    /// Step by step, whether a lookup can be made with the lock shared (nil: it would change the store)
    /// and, when it can, its header.
    @Test func lookupsShareTheLockWhenTheyChangeNothing() {
        let (jar, clock) = makeTestJar()
        let page = url("http://h.test/")
        jar.setCookie("a=1", from: page)
        #expect(jar.sharedLookupHeader(for: page) == nil, "the host's cookies are not kept yet (CookiesOfHosts)")
        #expect(jar.cookieHeader(for: page) == "a=1")
        #expect(jar.sharedLookupHeader(for: page) == .some("a=1"), "nothing to change")

        let other = url("http://other.test/")
        #expect(jar.sharedLookupHeader(for: other) == nil, "a host whose site is not known yet")
        #expect(jar.cookieHeader(for: other) == nil)
        #expect(jar.sharedLookupHeader(for: other) == .some(nil), "a known site without cookies")

        clock.advance(seconds: 1)
        #expect(jar.sharedLookupHeader(for: page) == nil, "a last-access time due to move")
        #expect(jar.cookieHeader(for: page) == "a=1")
        #expect(jar.sharedLookupHeader(for: page) == .some("a=1"))

        jar.setCookie("b=2; Max-Age=5", from: page)
        #expect(jar.sharedLookupHeader(for: page) == nil, "a receipt drops the cookies kept for the site's hosts")
        #expect(jar.cookieHeader(for: page) == "a=1; b=2")
        #expect(jar.sharedLookupHeader(for: page) == .some("a=1; b=2"))

        clock.set(CookieTime(microsecondsSinceEpoch: clock.now().microsecondsSinceEpoch + 4_500_000))
        #expect(jar.cookieHeader(for: page) == "a=1; b=2", "last-access times moved 4.5 s on")
        clock.set(CookieTime(microsecondsSinceEpoch: clock.now().microsecondsSinceEpoch + 600_000))
        #expect(jar.sharedLookupHeader(for: page) == nil, "an expired cookie to purge (§5.8.3), no last-access time due")
        #expect(jar.cookieHeader(for: page) == "a=1")
        #expect(jar.sharedLookupHeader(for: page) == .some("a=1"))

        let crossSite = CookieRequestContext(siteForCookies: .origin(url("http://third.test")))
        #expect(jar.sharedLookupHeader(for: page, context: crossSite) == nil, "the site for cookies of a host not known yet")
        #expect(jar.cookieHeader(for: page, context: crossSite) == nil, "§5.8.3: a SameSite=Lax default cookie stays off a cross-site subresource")
        #expect(jar.sharedLookupHeader(for: page, context: crossSite) == .some(nil))
    }

    /// A site added moves none: a host whose site is cached keeps sharing the lock. A host cached as having
    /// no site is looked up again once a site was added (it may be that site, here through a Domain cookie,
    /// §5.7 step 10), and every host once a site was removed (its slot, left vacant, may go to another
    /// site). Each lookup gets the header it would alone.
    @Test func sitesComingAndGoingLeaveCachedHostsCorrect() {
        let (jar, _) = makeTestJar()
        let page = url("http://h.test/")
        let www = url("http://www.other.test/")
        jar.setCookie("a=1", from: page)
        #expect(jar.cookieHeader(for: page) == "a=1")
        #expect(jar.cookieHeader(for: www) == nil)
        #expect(jar.sharedLookupHeader(for: page) == .some("a=1"))
        #expect(jar.sharedLookupHeader(for: www) == .some(nil), "a host known to have no site")

        jar.setCookie("n=1", from: url("http://new.test/"))
        #expect(jar.sharedLookupHeader(for: page) == .some("a=1"), "another site added: this one did not move")
        #expect(jar.sharedLookupHeader(for: www) == nil, "a site added: the host's absence is looked up again")
        #expect(jar.cookieHeader(for: www) == nil)

        jar.setCookie("o=1; Domain=other.test", from: url("http://other.test/"))
        #expect(jar.sharedLookupHeader(for: www) == nil, "its own site added")
        #expect(jar.cookieHeader(for: www) == "o=1")
        #expect(jar.sharedLookupHeader(for: www) == .some("o=1"))

        jar.setCookie("a=; Max-Age=0", from: page)
        #expect(jar.sharedLookupHeader(for: www) == nil, "a site removed: cached slots are looked up again")
        #expect(jar.cookieHeader(for: www) == "o=1")
        #expect(jar.sharedLookupHeader(for: www) == .some("o=1"))
        #expect(jar.cookieHeader(for: page) == nil)
    }

    /// A site keeps the cookies of at most `CookiesOfHosts.hostLimit` hosts; a lookup of another host
    /// finds its cookies itself and shares the lock (it has nothing to keep), until the site's cookies
    /// change and it has room again. Each host gets the header the full scan finds (the report).
    @Test func hostsBeyondTheKeptOnesShareTheLock() {
        let (jar, _) = makeTestJar()
        let limit = CookiesOfHosts.hostLimit
        jar.setCookie("d=1; Domain=example.test", from: url("http://www.example.test/"))
        jar.setCookie("only=1", from: url("http://h\(limit + 1).example.test/"))
        for host in 0..<limit {
            #expect(jar.sharedLookupHeader(for: url("http://h\(host).example.test/")) == nil, "h\(host): room to keep it")
            #expect(jar.cookieHeader(for: url("http://h\(host).example.test/")) == "d=1")
        }
        #expect(jar.sharedLookupHeader(for: url("http://h0.example.test/")) == .some("d=1"), "a kept host")
        for (host, header) in [(limit, "d=1"), (limit + 1, "d=1; only=1"), (limit + 2, "d=1")] {
            let request = url("http://h\(host).example.test/")
            let reported = jar.retrievalReport(for: request).filter { $0.exclusion == nil }
            #expect(CookieHeader.serialize(reported.map(\.cookie.pair)) == header, "h\(host): the full scan")
            #expect(jar.sharedLookupHeader(for: request) == .some(header), "h\(host): the site keeps no more hosts")
            #expect(jar.cookieHeader(for: request) == header, "h\(host)")
            #expect(jar.sharedLookupHeader(for: request) == .some(header), "h\(host): still not kept")
        }
        #expect(jar.storeStructureViolation() == nil)
        jar.setCookie("e=1; Domain=example.test", from: url("http://www.example.test/"))
        #expect(jar.sharedLookupHeader(for: url("http://h\(limit + 1).example.test/")) == nil, "a change: room again")
        #expect(jar.cookieHeader(for: url("http://h\(limit + 1).example.test/")) == "d=1; only=1; e=1")
        #expect(jar.sharedLookupHeader(for: url("http://h\(limit + 1).example.test/")) == .some("d=1; only=1; e=1"), "kept")
    }
}
