import Testing

@testable import Cookies

/// `insert(contentsOf:)` reports what the jar's limits evicted (issue 22: importing 1,000 cookies of one
/// site kept 163 of them without a word). Limits from `CookieLimits` (Chromium's CookieMonster: 180 a
/// site purged by 30, 3300 in all purged by 300; rfc6265bis-22 §6.1).
struct CookieInsertionReportTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var limits: CookieLimits
        /// Cookies inserted: (site, how many), in this order, each a second after the one before.
        var sites: [(String, Int)]
        var expectedEvictions: [CookieEviction]
        var expectedCount: Int
    }

    static let cases: [Case] = [
        // 180 fit; the 181st cuts the site to 150, and so does every 31st after it: 26 more times up to
        // 986, leaving 150 + 14 - 1 = 163 after the 1,000th.
        Case(
            testDescription: "1,000 cookies of one site, default limits: 837 evicted by the per-site limit",
            limits: .default, sites: [("example.com", 1_000)],
            expectedEvictions: [CookieEviction(limit: .perSite, site: "example.com", count: 837)], expectedCount: 163),
        // 11 cookies with room for 10: the jar is cut to 7, the 4 oldest (all of a.com) go.
        Case(
            testDescription: "the jar-wide limit: the oldest cookies go, from whichever site holds them",
            limits: CookieLimits(maxCookies: 10, purgeCount: 3), sites: [("a.com", 6), ("b.com", 5)],
            expectedEvictions: [CookieEviction(limit: .total, site: "a.com", count: 4)], expectedCount: 7),
        // a.com: 5 fit, the 6th cuts it to 3 (3 evicted); b.com's 4th makes 7 in a jar with room for 6,
        // which is cut to 5 (2 evicted: the oldest, a.com's).
        Case(
            testDescription: "both limits, each counted for its own site",
            limits: CookieLimits(maxCookiesPerSite: 5, sitePurgeCount: 2, maxCookies: 6, purgeCount: 1),
            sites: [("a.com", 6), ("b.com", 4)],
            expectedEvictions: [
                CookieEviction(limit: .perSite, site: "a.com", count: 3), CookieEviction(limit: .total, site: "a.com", count: 2),
            ],
            expectedCount: 5),
        Case(
            testDescription: "within the limits nothing is evicted", limits: .default, sites: [("a.com", 3), ("b.com", 3)],
            expectedEvictions: [], expectedCount: 6),
    ]

    @Test(arguments: cases)
    func reportsEvictionsBySiteAndLimit(_ row: Case) {
        let (jar, _) = makeTestJar(limits: row.limits)
        var cookies: [Cookie] = []
        for (site, count) in row.sites {
            for index in 0..<count {
                cookies.append(
                    Cookie(
                        name: "\(site)-\(index)", value: "1", domain: site, expiry: testEpoch.adding(seconds: 86_400),
                        creation: testEpoch.adding(seconds: Int64(cookies.count))))
            }
        }
        let report = jar.insert(contentsOf: cookies)
        #expect(report.stored == cookies.count)
        #expect(report.expired == 0)
        #expect(report.evictions == row.expectedEvictions)
        #expect(report.evictedCount == cookies.count - row.expectedCount)
        #expect(jar.count == row.expectedCount)
    }

    /// Expired cookies are counted apart; a cookie replacing another of its identity counts as stored.
    @Test func countsExpiredAndReplacedCookies() {
        let (jar, _) = makeTestJar()
        let live = Cookie(name: "a", value: "1", domain: "a.com", creation: testEpoch)
        let replacing = Cookie(name: "a", value: "2", domain: "a.com", creation: testEpoch.adding(seconds: 1))
        let expired = Cookie(name: "b", value: "1", domain: "a.com", expiry: testEpoch, creation: testEpoch.adding(seconds: -10))
        let report = jar.insert(contentsOf: [live, replacing, expired])
        #expect(report == CookieInsertionReport(stored: 2, superseded: 1, expired: 1, evictions: []))
        #expect(jar.allCookies().map(\.value) == ["2"])
    }

    struct SupersedingCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// Cookies the jar holds before the call.
        var held: [Cookie]
        var inserted: [Cookie]
        var stored: Int
        var superseded: Int
        var expired: Int
        /// The values the jar holds after the call.
        var values: Set<String>
    }

    static let later = testEpoch.adding(seconds: 1)
    static let partition = "https://top.example"

    /// A cookie of the call with the identity of an earlier cookie of the same call (§5.7 step 23: name,
    /// domain, host-only flag, path; CHIPS: the partition key) replaces it, and is counted as such (this
    /// project's contract: an import whose file holds one cookie twice says why the jar holds fewer); one
    /// replacing a cookie the jar held before is not, nor one of another identity.
    static let supersedingCases: [SupersedingCase] = [
        SupersedingCase(
            testDescription: "a file holding one cookie twice: the later one replaces the earlier",
            held: [], inserted: [Cookie(name: "sid", value: "1", domain: "a.com", creation: testEpoch), Cookie(name: "sid", value: "2", domain: "a.com", creation: later)],
            stored: 2, superseded: 1, expired: 0, values: ["2"]),
        SupersedingCase(
            testDescription: "a cookie of the jar replaced by one of the call: not superseded",
            held: [Cookie(name: "sid", value: "0", domain: "a.com", creation: testEpoch)],
            inserted: [Cookie(name: "sid", value: "1", domain: "a.com", creation: later)],
            stored: 1, superseded: 0, expired: 0, values: ["1"]),
        SupersedingCase(
            testDescription: "the same name, domain and path partitioned: another identity (CHIPS), both kept",
            held: [],
            inserted: [
                Cookie(name: "sid", value: "1", domain: "a.com", creation: testEpoch, isSecure: true),
                Cookie(name: "sid", value: "2", domain: "a.com", creation: later, isSecure: true, partitionKey: partition),
            ],
            stored: 2, superseded: 0, expired: 0, values: ["1", "2"]),
        SupersedingCase(
            testDescription: "a host-only and a domain cookie of one name: two identities (§5.7 step 23)",
            held: [],
            inserted: [
                Cookie(name: "sid", value: "1", domain: "a.com", creation: testEpoch),
                Cookie(name: "sid", value: "2", domain: "a.com", isHostOnly: false, creation: later),
            ],
            stored: 2, superseded: 0, expired: 0, values: ["1", "2"]),
        SupersedingCase(
            testDescription: "a later expired cookie deletes the earlier one of the call",
            held: [],
            inserted: [
                Cookie(name: "sid", value: "1", domain: "a.com", creation: testEpoch),
                Cookie(name: "sid", value: "2", domain: "a.com", expiry: testEpoch, creation: later),
            ],
            stored: 1, superseded: 1, expired: 1, values: []),
    ]

    @Test(arguments: supersedingCases)
    func countsCookiesALaterOneOfTheCallReplaced(_ row: SupersedingCase) {
        let (jar, _) = makeTestJar()
        jar.insert(contentsOf: row.held)
        let report = jar.insert(contentsOf: row.inserted)
        #expect(report == CookieInsertionReport(stored: row.stored, superseded: row.superseded, expired: row.expired, evictions: []))
        #expect(Set(jar.allCookies().map(\.value)) == row.values)
    }

    /// Cookies no jar holds (§5.6 step 5's 4,096 bytes; a port outside 0-65535) are counted by reason,
    /// and the jar is left as it was for each.
    @Test func countsCookiesTheJarRefusesByReason() {
        let (jar, _) = makeTestJar()
        let kept = Cookie(name: "a", value: "1", domain: "a.com", creation: testEpoch)
        let long = Cookie(name: "a", value: String(repeating: "v", count: 4096), domain: "a.com", creation: testEpoch)
        let longer = Cookie(name: "b", value: String(repeating: "v", count: 5000), domain: "a.com", creation: testEpoch)
        let port = Cookie(name: "c", value: "1", domain: "a.com", creation: testEpoch, sourcePort: 70_000)
        let report = jar.insert(contentsOf: [kept, long, longer, port])
        #expect(report == CookieInsertionReport(stored: 1, expired: 0, rejections: [.nameAndValueTooLong: 2, .invalidSourcePort: 1], evictions: []))
        #expect(jar.allCookies() == [kept])
    }

    /// Evictions given in any order and in pieces are merged by site and limit and sorted.
    @Test func reportMergesEvictionsBySiteAndLimit() {
        let report = CookieInsertionReport(
            stored: 0, expired: 0,
            evictions: [
                CookieEviction(limit: .total, site: "b.com", count: 1), CookieEviction(limit: .perSite, site: "b.com", count: 30),
                CookieEviction(limit: .total, site: "a.com", count: 2), CookieEviction(limit: .perSite, site: "b.com", count: 31),
            ])
        #expect(
            report.evictions == [
                CookieEviction(limit: .total, site: "a.com", count: 2), CookieEviction(limit: .perSite, site: "b.com", count: 61),
                CookieEviction(limit: .total, site: "b.com", count: 1),
            ])
        #expect(report.evictedCount(by: .perSite) == 61 && report.evictedCount(by: .total) == 3 && report.evictedCount == 64)
    }
}
