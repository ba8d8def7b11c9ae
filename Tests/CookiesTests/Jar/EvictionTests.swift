import Testing
@_spi(Fuzzing) @testable import Cookies

/// Limits (rfc6265bis-22 §6.1, Chromium's CookieMonster numbers): a hostile server cannot grow the jar.
struct EvictionTests {
    @Test func defaultsAreChromiums() {
        let limits = CookieLimits.default
        #expect(limits.maxCookiesPerSite == 180 && limits.sitePurgeCount == 30)
        #expect(limits.maxCookies == 3300 && limits.purgeCount == 300)
        #expect(limits.maxAgeSeconds == 34_560_000)
    }

    /// Limits whose fields were set out of range after `init` (a negative purge count) are enforced
    /// within range, as `init` would have made them: no trap, and neither a site nor the jar grows past
    /// its limit.
    @Test func limitsSetOutOfRangeAreEnforcedWithinIt() {
        var limits = CookieLimits(maxCookiesPerSite: 3, maxCookies: 3)
        limits.sitePurgeCount = -2
        limits.purgeCount = -100
        let (jar, _) = makeTestJar(limits: limits)
        #expect(jar.limits == CookieLimits(maxCookiesPerSite: 3, sitePurgeCount: 0, maxCookies: 3, purgeCount: 0))
        for index in 0..<10 { jar.setCookie("c\(index)=1", from: url("https://example.com/")) }
        for index in 0..<10 { jar.setCookie("d\(index)=1", from: url("https://s\(index).test/")) }
        #expect(jar.count == 3)
        #expect(jar.storeStructureViolation() == nil)
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
        // 11 cookies, the limit 10: down to 10 - 3. The lookup left every cookie last accessed at one
        // time, the replacement of c0 later: c1...c4 go (ties in send order), then c0 would, then the
        // Secure cookie; the cookie just stored never. What is left stays in send order (creation order:
        // c0 kept its creation time, §5.7 step 23).
        #expect(jar.allCookies().map(\.name) == ["secure", "c0", "c5", "c6", "c7", "c8", "new"])
    }

    /// A site over its limit keeps exactly the cookies a full sort in eviction order would keep
    /// (Chromium's CookieMonster: non-Secure before Secure, least recently accessed first, ties in last
    /// access broken by creation time), and never the cookie just stored: seeded runs with few distinct
    /// access times (many ties) and a mix of Secure cookies, on both sides of the limit.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func perSiteEvictionKeepsWhatAFullSortKeeps(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let limits = CookieLimits(maxCookiesPerSite: 40, sitePurgeCount: 1 + Int(random.next() % 39))
        let (jar, _) = makeTestJar(limits: limits)
        // Path "/" everywhere: send order is creation order, which is also the index.
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

    /// CHIPS: a site's limit holds for each of its partitions apart, as Chromium keeps a budget per
    /// partition: the cookies a site sets as an embed of many top-level sites (each `*.github.io` name is
    /// one, so they cost an attacker nothing) never evict the site's own first-party cookies, and within one
    /// partition the limit holds as for the site's own.
    @Test func partitionedCookiesKeepToTheirPartitionsLimit() {
        let (jar, _) = makeTestJar(limits: CookieLimits(maxCookiesPerSite: 10, sitePurgeCount: 2))
        jar.setCookie("session=s; Path=/; HttpOnly", from: url("https://victim.test/"))
        jar.setCookie("csrf=abc; Path=/", from: url("https://victim.test/"))
        func embedded(in top: String) -> CookieRequestContext {
            CookieRequestContext(siteForCookies: .origin(url(top)), partition: url(top))
        }
        for index in 0..<30 {
            let outcome = jar.setCookie(
                "w=1; Secure; SameSite=None; Partitioned; Path=/", from: url("https://victim.test/widget"),
                context: embedded(in: "https://u\(index).test/"))
            #expect(outcome.rejection == nil)
        }
        #expect(jar.cookieHeader(for: url("https://victim.test/")) == "session=s; csrf=abc")
        for index in 0..<15 {
            jar.setCookie(
                "p\(index)=1; Secure; SameSite=None; Partitioned; Path=/", from: url("https://victim.test/"),
                context: embedded(in: "https://u0.test/"))
        }
        let inU0 = jar.allCookies().filter { $0.partitionKey == "https://u0.test" }
        // 16 arrivals: the 11th and the 14th go over 10, each time down to 10 - 2; two more after each.
        #expect(inU0.count == 10)
        #expect(!inU0.contains { $0.name == "w" }, "the least recently used of the partition went")
        #expect(jar.allCookies().count(where: { $0.partitionKey == nil }) == 2)
        #expect(jar.storeStructureViolation() == nil)
    }

    /// §5.7: expired cookies are the first priority. The expired cookie is the one received last, so that
    /// least-recently-accessed order alone would evict another.
    @Test func expiredCookiesGoFirst() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookiesPerSite: 5, sitePurgeCount: 0))
        for index in 0..<4 { jar.setCookie("c\(index)=1", from: url("http://h.test/")) }
        clock.advance(seconds: 1)
        jar.setCookie("short=1; Max-Age=1", from: url("http://h.test/"))
        clock.advance(seconds: 2)
        jar.setCookie("new=1", from: url("http://h.test/"))
        #expect(Set(jar.allCookies().map(\.name)) == ["c0", "c1", "c2", "c3", "new"])
    }

    /// §5.7, removing excess cookies: once no site is over its limit, every cookie is of the last priority
    /// ("all cookies"), and "the user agent MUST evict the cookie with the earliest last-access-time first",
    /// Secure or not: a Secure cookie not used since long goes before a cookie used a moment ago.
    @Test func theJarsLimitEvictsByLastAccessSecureOrNot() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookies: 2, purgeCount: 0))
        jar.setCookie("old=1; Secure", from: url("https://a.test/"))
        clock.advance(seconds: 10)
        jar.setCookie("recent=1", from: url("http://b.test/"))
        clock.advance(seconds: 10)
        #expect(jar.cookieHeader(for: url("http://b.test/")) == "recent=1")
        clock.advance(seconds: 10)
        jar.setCookie("c=1", from: url("http://c.test/"))
        #expect(Set(jar.allCookies().map(\.name)) == ["recent", "c"])
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
        // The 101st cookie brings the jar to 100 - 10 (11 go), and so every 11 cookies after it; the last
        // at the 200th. Every cookie was last accessed when it was created, one second apart: the oldest
        // go, whatever their site (§6.1; CookieMonster: least recently accessed first). The newest 90
        // are left: sites s22...s39, whole.
        let expected = (22..<40).flatMap { site in (0..<5).map { "s\(site).test c\($0)" } }
        #expect(jar.allCookies().map { "\($0.domain) \($0.name)" } == expected)
    }

    /// A jar at its limit that meets hosts whose site keys have domains of their own above them (an IPv4
    /// address: "2.3.4", "3.4" and "4" above "1.2.3.4") keeps its count of the sites below each domain
    /// (what §5.7 step 16 asks of a domain) right, also each time that table, grown far past the sites, is
    /// counted again from them: the store's own check after every receipt.
    @Test func manyAddressSitesKeepTheCountsOfSitesBelowDomains() {
        let (jar, _) = makeTestJar(limits: CookieLimits(maxCookies: 40, purgeCount: 10))
        for index in 0..<3_000 {
            jar.setCookie("c=1", from: url("http://10.\(index / 250).\(index % 250).\(index % 7)/"))
            #expect(jar.storeStructureViolation() == nil, "receipt \(index)")
            if jar.storeStructureViolation() != nil { return }
        }
        #expect(jar.count <= 40)
    }

    /// Sites that go leave their slots vacant, and new sites take them, the latest vacated first (a small
    /// site's arrays kept for the next site of the slot, a large one's freed): a jar at its limit that
    /// meets new sites of one cookie and of thirty, some emptied by a deletion, keeps its bookkeeping (the
    /// store's own check, which also checks the vacant slots: no key, no cookies, the ones listed), lists
    /// only the sites that hold cookies, and sends each new site its own cookies, none of its slot's
    /// former site's.
    @Test func removedSitesLeaveSlotsThatNewSitesTake() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookies: 60, purgeCount: 20))
        for index in 0..<400 {
            clock.advance(seconds: 1)
            let site = url("https://s\(index).test/")
            let received = index % 5 == 0 ? 30 : 1
            for name in 0..<received { jar.setCookie("c\(name)=\(index)", from: site) }
            // Every seventh site loses c0: a site of one cookie goes with it.
            if index % 7 == 0 { jar.setCookie("c0=; Max-Age=0", from: site) }
            #expect(jar.storeStructureViolation() == nil, "site \(index)")
            if jar.storeStructureViolation() != nil { return }
            let sent = jar.cookies(for: site)
            #expect(sent.count == received - (index % 7 == 0 ? 1 : 0), "site \(index)")
            #expect(sent.allSatisfy { $0.value == "\(index)" && $0.domain == "s\(index).test" }, "site \(index)")
        }
        let bySite = jar.storedCookiesBySite()
        #expect(!bySite.keys.contains(""))
        #expect(bySite.values.reduce(0) { $0 + $1.count } == jar.count)
        #expect(Set(jar.allCookies().map(\.domain)) == Set(bySite.keys))
    }

    /// A jar cut from many sites to few gives its vacant slots back once they are more than half of its
    /// slots and more than the purge count (the store's check fails otherwise): 3,000 sites, 2,700 of them
    /// deleted, which gives the slots back three times. The sites kept move to other slots and are still found where
    /// lookups had cached their slots, sent their own cookies, purged of expired ones by the jar-wide
    /// purge (the expiry order) and evicted least recently accessed first (the eviction order).
    @Test func manyVacantSlotsAreGivenBack() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookies: 3_400, purgeCount: 100))
        let sites = (0..<3_000).map { url("https://s\($0).test/") }
        let kept = sites.indices.filter { $0 % 10 == 0 }
        for (index, site) in sites.enumerated() {
            clock.advance(seconds: 1)
            jar.setCookie("c=\(index)", from: site)
            if index % 10 == 0 { jar.setCookie("short=1; Max-Age=100000", from: site) }
        }
        for site in sites { _ = jar.cookieHeader(for: site) }
        for (deleted, index) in sites.indices.filter({ $0 % 10 != 0 }).enumerated() {
            jar.setCookie("c=; Max-Age=0", from: sites[index])
            if deleted % 100 == 0 {
                #expect(jar.storeStructureViolation() == nil, "after \(deleted + 1) sites deleted")
            }
        }
        #expect(jar.storeStructureViolation() == nil)
        #expect(kept.allSatisfy { jar.cookieHeader(for: sites[$0]) == "c=\($0); short=1" })
        #expect(jar.count == 600)

        // The short cookies expire; 3,200 cookies of new sites come, past the limit of 3,400: the expired
        // ones go first, then the kept sites' own, least recently accessed, down to 3,300.
        clock.advance(seconds: 200_000)
        let newSites = (0..<3_200).map { url("https://n\($0).test/") }
        for (index, site) in newSites.enumerated() {
            clock.advance(seconds: 1)
            jar.setCookie("n=\(index)", from: site)
        }
        #expect(jar.storeStructureViolation() == nil)
        #expect(newSites.indices.allSatisfy { jar.cookieHeader(for: newSites[$0]) == "n=\($0)" })
        let keptHeaders = kept.map { jar.cookieHeader(for: sites[$0]) }
        #expect(keptHeaders.allSatisfy { $0 == nil || !$0!.contains("short") })
        #expect(keptHeaders.count { $0 != nil } == jar.count - 3_200)
        #expect(jar.count <= 3_400)
    }

    /// A site enters the store's expiry and eviction orders with its first cookie, even one that leaves
    /// both of the site's bounds where an empty site's are (a Secure session cookie last accessed at the
    /// end of time, as an app may insert one): a site that had cookies moves in the orders only when a
    /// bound changes. Such a site is then evicted like any other.
    @Test func aSiteWhoseFirstCookieLeavesItsBoundsEntersTheOrders() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookies: 3, purgeCount: 1))
        let endOfTime = CookieTime(microsecondsSinceEpoch: .max)
        jar.insert(Cookie(name: "late", value: "1", domain: "late.test", creation: clock.now(), lastAccess: endOfTime, isSecure: true))
        #expect(jar.storeStructureViolation() == nil)
        for index in 0..<3 {
            clock.advance(seconds: 1)
            jar.setCookie("c=1; Secure", from: url("https://s\(index).test/"))
            #expect(jar.storeStructureViolation() == nil, "receipt \(index)")
        }
        // The fourth cookie brings the jar to 3 - 1: the two least recently accessed Secure cookies go,
        // and the one accessed last of all stays.
        #expect(jar.allCookies().map(\.domain) == ["late.test", "s2.test"])
    }

    /// One scenario of ties in last access: what a jar is given, in order, and which cookies it keeps.
    struct TieCase: Sendable, CustomTestStringConvertible {
        enum Action: Sendable {
            /// A response from `url` sets `line`.
            case receive(String, from: String)
            /// A request to `url`, which moves the last-access time of what it sends (§5.8.3 step 3).
            case lookUp(String)
            case advance(seconds: Int64)
            /// A cookie handed over as it is (`CookieJar.insert`), with these times in seconds after
            /// `testEpoch`.
            case insert(name: String, domain: String, path: String, created: Int64, lastAccess: Int64)
        }

        let limits: CookieLimits
        let actions: [Action]
        /// What is left, as "domain name", sorted.
        let kept: [String]
        let source: String
        var testDescription: String { source }
    }

    /// Among cookies last accessed at one time, the oldest goes first, in a site and across sites, not
    /// the first in send order nor the first site key; only cookies of equal creation times (handed over,
    /// never received: §5.7 step 24) go by site key, then send order.
    @Test(arguments: [
        TieCase(
            limits: CookieLimits(maxCookiesPerSite: 3, sitePurgeCount: 0),
            actions: [
                .receive("a=1; Path=/", from: "http://h.test/"), .receive("b=1; Path=/deep", from: "http://h.test/deep"),
                .receive("c=1; Path=/deep/er", from: "http://h.test/deep/er"), .advance(seconds: 5),
                .lookUp("http://h.test/deep/er/x"), .advance(seconds: 5), .receive("d=1; Path=/deep/er", from: "http://h.test/"),
            ],
            kept: ["h.test b", "h.test c", "h.test d"],
            source: "Chromium LRACookieSorter: ties in last access go by creation; send order would put c (longest path) first"),
        TieCase(
            limits: CookieLimits(maxCookies: 2, purgeCount: 0),
            actions: [
                .receive("old=1", from: "http://b.test/"), .receive("new=1", from: "http://a.test/"), .advance(seconds: 5),
                .lookUp("http://a.test/"), .lookUp("http://b.test/"), .advance(seconds: 5), .receive("c=1", from: "http://c.test/"),
            ],
            kept: ["a.test new", "c.test c"],
            source: "Chromium LRACookieSorter across sites: b.test's older cookie goes, where site key order would take a.test's"),
        TieCase(
            limits: CookieLimits(maxCookies: 3, purgeCount: 1),
            actions: [
                .insert(name: "x", domain: "b.test", path: "/", created: 1, lastAccess: 2),
                .insert(name: "x", domain: "a.test", path: "/", created: 1, lastAccess: 2),
                .insert(name: "y", domain: "a.test", path: "/deep", created: 1, lastAccess: 2),
                .insert(name: "z", domain: "c.test", path: "/", created: 3, lastAccess: 3),
            ],
            kept: ["b.test x", "c.test z"],
            source: "equal ranks (inserted): a.test before b.test (site key), then y before x in a.test (send order)"),
    ])
    func tiesInLastAccessGoOldestFirst(_ tieCase: TieCase) {
        let (jar, clock) = makeTestJar(limits: tieCase.limits)
        for action in tieCase.actions {
            switch action {
            case .receive(let line, let from): jar.setCookie(line, from: url(from))
            case .lookUp(let to): _ = jar.cookies(for: url(to))
            case .advance(let seconds): clock.advance(seconds: seconds)
            case .insert(let name, let domain, let path, let created, let lastAccess):
                jar.insert(
                    Cookie(
                        name: name, value: "1", domain: domain, path: path, creation: testEpoch.adding(seconds: created),
                        lastAccess: testEpoch.adding(seconds: lastAccess), isSourceSecure: false))
            }
            #expect(jar.storeStructureViolation() == nil)
        }
        #expect(jar.allCookies().map { "\($0.domain) \($0.name)" }.sorted() == tieCase.kept)
    }

    @Test func hostileServerCannotGrowTheJar() {
        let (jar, _) = makeTestJar()
        for index in 0..<2_000 {
            jar.setCookie("c\(index)=\(index); Domain=evil.test", from: url("http://a\(index % 7).evil.test/"))
        }
        // Every cookie goes to the site evil.test, each created 1 µs after the one before (the clock stands
        // still: §5.7 step 24's strictly increasing creation times), so the oldest go first: the 181st
        // cookie brings the site to 180 - 30 (31 go), and so every 31 cookies after it, the last time at
        // the 1979th; 21 came since. The newest 171 are left, in send order.
        #expect(jar.allCookies().map(\.name) == (1829..<2000).map { "c\($0)" })
    }

    /// Which cookies survive, operation after operation, is what a plain model of the rules keeps: the
    /// site's expired cookies, then the site's first cookies in eviction order, when a site goes over its
    /// limit; every expired cookie, then the jar's first cookies in eviction order (ties in last access by
    /// creation time), when the jar goes over its limit; never the cookie just stored (rfc6265bis-22 §5.7
    /// step 24, §6.1; Chromium's CookieMonster order). Seeded runs mix receipts (new cookies and
    /// replacements, Secure or not, some soon expired), lookups that update last-access times (§5.8.3
    /// step 3) and purge the site's expired cookies, deleted sites, and a clock that sometimes stands
    /// still (ties) or goes back.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func survivorsMatchAReferenceModel(seed: UInt64) {
        checkSurvivorsAgainstTheModel(
            seed: seed, siteCount: 12, limits: CookieLimits(maxCookiesPerSite: 6, sitePurgeCount: 2, maxCookies: 30, purgeCount: 7))
    }

    /// The same with many sites of few cookies, as a crawler's jar meets them: most receipts create a
    /// site and most purges remove whole sites, so sites come and go, and new sites take the slots (and the
    /// memory) of removed ones.
    @Test(arguments: [7, 8, 9] as [UInt64])
    func survivorsMatchAReferenceModelWithManySites(seed: UInt64) {
        checkSurvivorsAgainstTheModel(
            seed: seed, siteCount: 500, limits: CookieLimits(maxCookiesPerSite: 6, sitePurgeCount: 2, maxCookies: 60, purgeCount: 15))
    }

    private func checkSurvivorsAgainstTheModel(seed: UInt64, siteCount: UInt64, limits: CookieLimits) {
        var random = SplitMix64(seed: seed)
        let (jar, clock) = makeTestJar(limits: limits)
        var model = EvictionModel(limits: limits)
        var now = testEpoch
        for step in 0..<3000 {
            let roll = random.next() % 100
            now = now.adding(seconds: roll < 5 ? -3 : Int64(random.next() % 3))
            clock.set(now)
            let site = "s\(random.next() % siteCount).test"
            if roll < 65 {
                let name = "c\(random.next() % 9)"
                let isSecure = random.next() % 3 == 0
                let maxAge: Int64? = random.next() % 5 == 0 ? Int64(1 + random.next() % 20) : nil
                let value = "\(step)"
                let line = name + "=" + value + (isSecure ? "; Secure" : "") + (maxAge.map { "; Max-Age=\($0)" } ?? "")
                jar.setCookie(line, from: url("https://" + site + "/"))
                model.receive(site: site, name: name, value: value, isSecure: isSecure, maxAge: maxAge, now: now)
            } else if roll < 95 {
                _ = jar.cookies(for: url("https://" + site + "/"))
                model.lookUp(site: site, now: now)
            } else {
                jar.deleteCookies(forSite: site)
                model.sites[site] = nil
            }
            let stored = jar.storedCookiesBySite().mapValues { $0.map { "\($0.name)=\($0.value)@\($0.lastAccess)" } }
            let expected = model.sites.mapValues { $0.map { "\($0.name)=\($0.value)@\($0.lastAccess)" } }
            #expect(stored == expected, "step \(step)")
            #expect(jar.storeStructureViolation() == nil, "step \(step)")
            if stored != expected { return }
        }
    }
}

/// The eviction rules as plainly as they can be written, for `survivorsMatchAReferenceModel`: every
/// cookie on path "/" of its host (so send order is creation order), each purge a full sort.
private struct EvictionModel {
    struct Entry {
        let name: String
        let value: String
        let isSecure: Bool
        let expiry: CookieTime?
        let creation: CookieTime
        var lastAccess: CookieTime

        func isExpired(at now: CookieTime) -> Bool { expiry.map { $0 <= now } ?? false }
        /// Its place when its site is over the limit (§5.7: non-Secure cookies of the site first).
        var siteRank: (Int, CookieTime, CookieTime) { (isSecure ? 1 : 0, lastAccess, creation) }
        /// Its place when the jar is over the limit (§5.7: "all cookies", by last access alone).
        var jarRank: (CookieTime, CookieTime) { (lastAccess, creation) }
    }

    let limits: CookieLimits
    /// Site key → its cookies in send order (creation order).
    var sites: [String: [Entry]] = [:]
    var lastCreation = CookieTime(microsecondsSinceEpoch: .min)

    var count: Int { sites.values.reduce(0) { $0 + $1.count } }

    mutating func receive(site: String, name: String, value: String, isSecure: Bool, maxAge: Int64?, now: CookieTime) {
        let expiry = maxAge.map { now.adding(seconds: $0) }
        var cookies = sites[site] ?? []
        if let index = cookies.firstIndex(where: { $0.name == name }) {
            if !cookies[index].isExpired(at: now) {
                // §5.7 step 23: the new cookie takes the old one's place and creation time.
                cookies[index] = Entry(
                    name: name, value: value, isSecure: isSecure, expiry: expiry, creation: cookies[index].creation, lastAccess: now)
                sites[site] = cookies
                return
            }
            cookies.remove(at: index)
        }
        let creation = max(now, CookieTime(microsecondsSinceEpoch: lastCreation.microsecondsSinceEpoch + 1))
        lastCreation = creation
        cookies.append(Entry(name: name, value: value, isSecure: isSecure, expiry: expiry, creation: creation, lastAccess: creation))
        sites[site] = cookies
        // The site's limit: its expired cookies, then its first in eviction order (creation times are
        // distinct: no ties).
        if cookies.count > limits.maxCookiesPerSite {
            let target = limits.maxCookiesPerSite - limits.sitePurgeCount
            purgeExpired(site: site, now: now)
            let kept = sites[site] ?? []
            if kept.count > limits.maxCookiesPerSite {
                let order = kept.indices.filter { kept[$0].name != name }.sorted { kept[$0].siteRank < kept[$1].siteRank }
                let doomed = Set(order.prefix(kept.count - target))
                sites[site] = kept.indices.filter { !doomed.contains($0) }.map { kept[$0] }
            }
        }
        // The jar's limit: every expired cookie, then the first in eviction order (no ties either).
        if count > limits.maxCookies {
            for key in sites.keys { purgeExpired(site: key, now: now) }
            if count > limits.maxCookies {
                var order: [(rank: (CookieTime, CookieTime), site: String, index: Int)] = []
                for (key, cookies) in sites {
                    for index in cookies.indices where !(key == site && cookies[index].name == name) {
                        order.append((cookies[index].jarRank, key, index))
                    }
                }
                order.sort { $0.rank < $1.rank }
                var doomed: [String: Set<Int>] = [:]
                for victim in order.prefix(count - (limits.maxCookies - limits.purgeCount)) {
                    doomed[victim.site, default: []].insert(victim.index)
                }
                for (key, indices) in doomed {
                    let cookies = sites[key]!
                    let kept = cookies.indices.filter { !indices.contains($0) }.map { cookies[$0] }
                    sites[key] = kept.isEmpty ? nil : kept
                }
            }
        }
    }

    /// §5.8.3 for "https://<site>/": the site's expired cookies go, the others are sent and their
    /// last-access time becomes `now` (step 3) when it is a second or more before or after `now` (the
    /// jar's dated deviation, `SiteCookies.lastAccessUpdateInterval`).
    mutating func lookUp(site: String, now: CookieTime) {
        guard sites[site] != nil else { return }
        purgeExpired(site: site, now: now)
        guard var cookies = sites[site] else { return }
        for index in cookies.indices
        where now >= cookies[index].lastAccess.adding(seconds: 1) || now <= cookies[index].lastAccess.adding(seconds: -1) {
            cookies[index].lastAccess = now
        }
        sites[site] = cookies
    }

    mutating func purgeExpired(site: String, now: CookieTime) {
        let kept = (sites[site] ?? []).filter { !$0.isExpired(at: now) }
        sites[site] = kept.isEmpty ? nil : kept
    }
}
