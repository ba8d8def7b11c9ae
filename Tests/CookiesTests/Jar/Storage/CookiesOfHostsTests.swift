import Testing

@_spi(Fuzzing) @testable import Cookies

/// Retrieval visits only the cookies whose domain a request's host matches (`CookiesOfHosts`), learnt at
/// the first request of a host and dropped when the site's cookies change. Whatever changed, the header
/// sent is the one the full scan of the site (the report of `cookiejar inspect`) finds.
struct CookiesOfHostsTests {
    /// The cookies kept for a host are those given for it, in the order given; a host of other bytes (a
    /// prefix, another case) is not kept; once `hostLimit` hosts are kept, no other is, until a change.
    @Test func hostsKeepTheirCookies() {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        func cookies(of kept: CookiesOfHosts, _ host: String) -> [Int]? {
            bytes(host).withUnsafeBufferPointer { kept.cookies(ofHost: $0)?.map(Int.init) }
        }
        func add(_ host: String, _ cookies: [UInt32], to kept: inout CookiesOfHosts) {
            bytes(host).withUnsafeBufferPointer { host in cookies.withUnsafeBufferPointer { kept.add(host: host, cookies: $0) } }
        }
        var kept = CookiesOfHosts()
        add("www.example.com", [0, 2, 5], to: &kept)
        add("example.com", [], to: &kept)
        #expect(cookies(of: kept, "www.example.com") == [0, 2, 5])
        #expect(cookies(of: kept, "example.com") == [], "a host with no cookies is kept too")
        #expect(cookies(of: kept, "www.example.co") == nil && cookies(of: kept, "WWW.example.com") == nil)
        // A host is told by its length and its first, second and last eight bytes up to 24 bytes; past
        // that, the bytes between the second and the last eight decide: hosts differing only in the tenth
        // byte, only in the seventeenth (of 25) and only in the eighteenth (of 30).
        add("abcdefgh.1.example.com", [7], to: &kept)
        add("aaaaaaaaaaaaaaaa1bbbbbbbb", [8], to: &kept)
        add("abcdefghijklmnop.1.example.com", [9], to: &kept)
        #expect(cookies(of: kept, "abcdefgh.2.example.com") == nil && cookies(of: kept, "abcdefgh.1.example.com") == [7])
        #expect(cookies(of: kept, "aaaaaaaaaaaaaaaa2bbbbbbbb") == nil && cookies(of: kept, "aaaaaaaaaaaaaaaa1bbbbbbbb") == [8])
        #expect(cookies(of: kept, "abcdefghijklmnop.2.example.com") == nil)
        #expect(cookies(of: kept, "abcdefghijklmnop.1.example.com") == [9])
        #expect(!kept.isFull)
        for host in 5..<CookiesOfHosts.hostLimit { add("h\(host).example.com", [1], to: &kept) }
        #expect(kept.isFull, "hostLimit hosts are kept")
        #expect(cookies(of: kept, "www.example.com") == [0, 2, 5] && cookies(of: kept, "h5.example.com") == [1])
        #expect(cookies(of: kept, "h\(CookiesOfHosts.hostLimit - 1).example.com") == [1], "the last host kept")
        kept.invalidate()
        #expect(!kept.isFull && cookies(of: kept, "www.example.com") == nil, "a change drops every host")
        add("one.more.example.com", [3], to: &kept)
        #expect(cookies(of: kept, "one.more.example.com") == [3])
    }

    /// One step of a jar's life: receipts (URL, `Set-Cookie` value) after the clock moved on.
    struct Step: CustomTestStringConvertible, Sendable {
        var seconds: Int64 = 0
        var receipts: [(String, String)]
        /// Pairs that a request (URL, pair) must carry after the step, so that the step is seen to matter.
        var sends: [(String, String)] = []
        var why: String
        var testDescription: String { why }
    }

    /// The requests asked after each step: every host of the site, and paths in and out of the cookies'.
    static let requests = [
        "https://example.com/", "https://www.example.com/docs/a", "http://www.example.com/", "https://a.b.example.com/",
        "https://b.example.com/docs", "https://new.example.com/", "https://other.example.com/docs/a/b",
        "http://192.0.2.1/a", "http://[2001:db8::1]/",
    ]

    /// Each step changes the site in one of the ways that add, remove or move cookies (§5.7 steps 22-23,
    /// the purge of expired cookies a retrieval makes (§5.7: expired cookies are evicted), the per-site
    /// limit of §5.7 step 24 with a limit of 12).
    static let steps: [Step] = [
        Step(receipts: [
            ("https://www.example.com/", "h=1"), ("https://www.example.com/", "d=1; Domain=example.com"),
            ("https://www.example.com/docs/x", "p=1; Path=/docs"), ("https://a.b.example.com/", "ab=1; Domain=b.example.com"),
            ("https://example.com/", "root=1"), ("https://www.example.com/", "s=1; Secure; Max-Age=60"),
        ], why: "cookies of four domains, host-only and not"),
        Step(receipts: [("https://new.example.com/", "n=1; Domain=new.example.com; Path=/")], why: "a new domain"),
        Step(receipts: [
            ("https://www.example.com/", "chip=1; Secure; Partitioned; Path=/"), ("http://192.0.2.1/a/b", "ip=1"),
            ("http://[2001:db8::1]/", "ip6=1"),
        ], sends: [("https://www.example.com/docs/a", "chip=1"), ("http://192.0.2.1/a", "ip=1"), ("http://[2001:db8::1]/", "ip6=1")],
        why: "a partitioned cookie (CHIPS) of the request's own site; IPv4 and IPv6 hosts"),
        Step(receipts: [("https://www.example.com/docs/x", "first=1; Path=/docs/a")], why: "a cookie inserted before the others"),
        Step(receipts: [("https://www.example.com/", "d=2; Domain=example.com")], why: "a replacement keeps its place"),
        Step(receipts: [("https://www.example.com/", "h=; Max-Age=0")], why: "a deletion moves the later cookies up"),
        Step(seconds: 61, receipts: [], why: "an expired cookie is purged at the next request"),
        Step(receipts: (1...10).map { ("https://other.example.com/", "o\($0)=1; Path=/docs") }, why: "the per-site limit evicts"),
        Step(receipts: [("https://new.example.com/", "n=; Domain=new.example.com; Max-Age=0")], why: "a domain's last cookie goes"),
        Step(receipts: [], why: "nothing changed: the cookies kept for each host are sent"),
    ]

    @Test func sentCookiesAreThoseTheFullScanFinds() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookiesPerSite: 12, sitePurgeCount: 3))
        for step in Self.steps {
            clock.advance(seconds: step.seconds)
            for (from, line) in step.receipts {
                #expect(jar.setCookie(line, from: url(from)).rejection == nil, "\(step.why): \(line)")
            }
            for request in Self.requests {
                // The report first: it leaves last-access times alone, and a request made first would
                // purge what expired.
                let reported = jar.retrievalReport(for: url(request)).filter { $0.exclusion == nil }
                let expected = reported.isEmpty ? nil : CookieHeader.serialize(reported.map(\.cookie.pair))
                #expect(jar.cookieHeader(for: url(request)) == expected, "\(step.why): \(request)")
            }
            for (request, pair) in step.sends {
                #expect(jar.cookieHeader(for: url(request))?.split(separator: "; ").contains(Substring(pair)) == true, "\(step.why): \(request)")
            }
            #expect(jar.storeStructureViolation() == nil, "\(step.why)")
        }
    }
}
