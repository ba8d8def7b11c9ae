import Testing
@_spi(Fuzzing) @testable import Cookies

/// rfc6265bis-22 §5.8.3: which cookies go on a request, in which order.
struct RetrievalTests {
    /// One jar set up by `setup` (lines from URLs), then one request and the exact header expected.
    struct Row: CustomTestStringConvertible, Sendable {
        var setup: [(String, String)]
        var request: String
        var context = CookieRequestContext.firstParty
        var expected: String?
        var source: String
        var testDescription: String { "\(source): \(request)" }
    }

    static let crossSiteSubresource = CookieRequestContext(siteForCookies: .origin(url("https://other.test")))
    static let crossSiteNavigation = CookieRequestContext(siteForCookies: .origin(url("https://other.test")), isTopLevelNavigation: true)

    static let rows: [Row] = [
        Row(setup: [("http://www.example.com/", "a=1")], request: "http://www.example.com/", expected: "a=1", source: "§5.8.3"),
        Row(setup: [("http://www.example.com/", "a=1")], request: "http://sub.www.example.com/", expected: nil, source: "§5.8.3: host-only"),
        Row(setup: [("http://www.example.com/", "a=1; Domain=example.com")], request: "http://x.y.example.com/", expected: "a=1", source: "§5.8.3: domain-match"),
        Row(setup: [("http://www.example.com/", "a=1; Domain=example.com")], request: "http://notexample.com/", expected: nil, source: "§5.1.3: label boundary"),
        Row(setup: [("http://www.example.com/", "a=1")], request: "http://WWW.Example.COM:8080/", expected: "a=1", source: "§5.1.2 canonical host; ports never matter"),
        Row(setup: [("http://www.example.com/", "a=1")], request: "http://www.example.com./", expected: nil, source: "a trailing dot is another host"),
        Row(setup: [("http://h.test/", "a=1; Path=/docs")], request: "http://h.test/docs", expected: "a=1", source: "§5.1.4: identical"),
        Row(setup: [("http://h.test/", "a=1; Path=/docs")], request: "http://h.test/docs/x", expected: "a=1", source: "§5.1.4: prefix then /"),
        Row(setup: [("http://h.test/", "a=1; Path=/docs/")], request: "http://h.test/docs/x", expected: "a=1", source: "§5.1.4: prefix ending in /"),
        Row(setup: [("http://h.test/", "a=1; Path=/docs")], request: "http://h.test/docsx", expected: nil, source: "§5.1.4: not at a / boundary"),
        Row(setup: [("http://h.test/", "a=1; Path=/docs")], request: "http://h.test/Docs", expected: nil, source: "§5.1.4: case-sensitive"),
        Row(setup: [("http://h.test/", "a=1; Path=/docs")], request: "http://h.test/docs?x=1#f", expected: "a=1", source: "the query and fragment are not part of the path"),
        Row(setup: [("http://h.test/", "a=1; Path=/a%2Fb")], request: "http://h.test/a/b", expected: nil, source: "paths are never percent-decoded"),
        Row(setup: [("http://h.test/", "a=1; Path=/docs")], request: "http://h.test\\docs\\x", expected: "a=1", source: "WHATWG URL: a backslash in an http path is a /"),
        Row(setup: [("https://h.test/", "a=1; Secure")], request: "http://h.test/", expected: nil, source: "§5.8.3: Secure not over http"),
        Row(setup: [("https://h.test/", "a=1; Secure")], request: "wss://h.test/", expected: "a=1", source: "§5.8.3: wss is secure"),
        Row(setup: [("http://localhost/", "a=1; Secure")], request: "http://localhost:3000/", expected: "a=1", source: "http://localhost is secure"),
        Row(setup: [("http://h.test/", "a=1; HttpOnly"), ("http://h.test/", "b=2")], request: "http://h.test/", context: .init(api: .nonHTTP), expected: "b=2", source: "§5.8.3: HttpOnly hidden from non-HTTP APIs"),
        Row(setup: [("http://h.test/", "a=1")], request: "ftp://h.test/", expected: nil, source: "only HTTP-family requests carry cookies"),
        Row(setup: [("http://h.test/", "=v")], request: "http://h.test/", expected: "v", source: "§5.8.3 step 4: a nameless cookie is its value"),
        Row(setup: [("http://h.test/", "a=1"), ("http://h.test/", "b=2"), ("http://h.test/", "c=3; Path=/x"), ("http://h.test/", "d=4; Path=/x/y")], request: "http://h.test/x/y/z", expected: "d=4; c=3; a=1; b=2", source: "§5.8.3 step 2: longer paths first, then earlier creation"),
        Row(setup: [("http://h.test/", "b=1"), ("http://h.test/", "a=1"), ("http://h.test/", "b=2")], request: "http://h.test/", expected: "b=2; a=1", source: "§5.7: a replacement keeps its creation time, hence its place"),
        // SameSite (§5.8.3 step 1)
        Row(setup: [("https://h.test/", "s=1; SameSite=Strict"), ("https://h.test/", "l=1; SameSite=Lax"), ("https://h.test/", "d=1"), ("https://h.test/", "n=1; SameSite=None; Secure")], request: "https://h.test/", expected: "s=1; l=1; d=1; n=1", source: "same-site: every cookie"),
        Row(setup: [("https://h.test/", "s=1; SameSite=Strict"), ("https://h.test/", "l=1; SameSite=Lax"), ("https://h.test/", "d=1"), ("https://h.test/", "n=1; SameSite=None; Secure")], request: "https://h.test/", context: crossSiteSubresource, expected: "n=1", source: "cross-site subresource: None only"),
        Row(setup: [("https://h.test/", "s=1; SameSite=Strict"), ("https://h.test/", "l=1; SameSite=Lax"), ("https://h.test/", "d=1"), ("https://h.test/", "n=1; SameSite=None; Secure")], request: "https://h.test/", context: crossSiteNavigation, expected: "l=1; d=1; n=1", source: "cross-site top-level GET: Lax and Default too"),
        Row(setup: [("https://h.test/", "l=1; SameSite=Lax"), ("https://h.test/", "n=1; SameSite=None; Secure")], request: "https://h.test/", context: .init(siteForCookies: .origin(url("https://other.test")), isTopLevelNavigation: true, method: "POST"), expected: "n=1", source: "cross-site top-level POST: not Lax"),
        Row(setup: [("https://h.test/", "l=1; SameSite=Lax"), ("https://h.test/", "n=1; SameSite=None; Secure")], request: "https://h.test/", context: .init(siteForCookies: .opaque, isTopLevelNavigation: true, api: .nonHTTP), expected: "n=1", source: "non-HTTP API in a cross-site context: no Lax exception"),
        Row(setup: [("https://h.test/", "l=1; SameSite=Lax")], request: "https://h.test/", context: .init(siteForCookies: .origin(url("https://www.h.test:444"))), expected: "l=1", source: "§5.2: same site, another host and port"),
        Row(setup: [("https://h.test/", "l=1; SameSite=Lax")], request: "https://h.test/", context: .init(siteForCookies: .origin(url("http://h.test"))), expected: nil, source: "§5.2: schemeful: http is another site"),
        Row(setup: [("https://h.test/", "l=1; SameSite=Lax")], request: "wss://h.test/", context: .init(siteForCookies: .origin(url("https://h.test"))), expected: "l=1", source: "§5.2 and the WebSockets standard: a wss handshake is an https fetch, same-site with its page"),
        Row(setup: [("https://h.test/", "p=1; Secure; Partitioned; SameSite=None")], request: "wss://h.test/", expected: "p=1", source: "CHIPS: a wss request is partitioned under its https site"),
    ]

    /// A dated deviation (the Conformance article, 2026-11-27; Chromium's and Firefox's keying by
    /// registrable domain): a domain cookie goes to the hosts of its own site only, not to a host below a
    /// public suffix that lies below the cookie's domain, though the host domain-matches it (§5.8.3 step 1).
    @Test func domainCookieGoesToItsOwnSiteOnly() {
        let jar = CookieJar(publicSuffixList: PublicSuffixRules(parsing: "com\ns3.amazonaws.com\n"), clock: ManualCookieClock(testEpoch))
        #expect(jar.setCookie("d=1; Domain=amazonaws.com", from: url("https://www.amazonaws.com/")).rejection == nil)
        #expect(jar.cookieHeader(for: url("https://x.amazonaws.com/")) == "d=1")
        #expect(jar.cookieHeader(for: url("https://foo.s3.amazonaws.com/")) == nil)
    }

    /// The same deviation on receipt (Chromium's `GetCookieDomainWithString` and Firefox's `CheckDomain`
    /// refuse a Domain attribute of another registrable domain than the host's): a host below a public
    /// suffix cannot set a cookie for the site above it, which its own requests would not carry back.
    @Test func aDomainAboveTheHostsSiteIsRefused() {
        let jar = CookieJar(publicSuffixList: PublicSuffixRules(parsing: "com\ns3.amazonaws.com\n"), clock: ManualCookieClock(testEpoch))
        #expect(jar.setCookie("d=1; Domain=amazonaws.com", from: url("https://foo.s3.amazonaws.com/")).rejection == .domainOfAnotherSite)
        #expect(jar.setCookie("d=1; Domain=foo.s3.amazonaws.com", from: url("https://x.foo.s3.amazonaws.com/")).rejection == nil)
        #expect(jar.setCookie("e=1; Domain=amazonaws.com", from: url("https://www.amazonaws.com/")).rejection == nil)
        #expect(jar.cookieHeader(for: url("https://sts.amazonaws.com/")) == "e=1")
    }

    /// A jar holding the cookies of `row.setup`, each line stored.
    static func jar(setUpBy row: Row) -> CookieJar {
        let (jar, _) = makeTestJar()
        for (from, line) in row.setup {
            #expect(jar.setCookie(line, from: url(from)).rejection == nil, "setup: \(line)")
        }
        return jar
    }

    @Test(arguments: rows)
    func header(_ row: Row) {
        let jar = Self.jar(setUpBy: row)
        #expect(jar.cookieHeader(for: url(row.request), context: row.context) == row.expected)
        let cookies = jar.cookies(for: url(row.request), context: row.context)
        #expect(CookieHeader.serialize(cookies.map(\.pair)) == (row.expected ?? ""), "cookies(for:) agrees with the header")
        #expect(jar.sharedLookupHeader(for: url(row.request), context: row.context) == .some(row.expected), "asked again, nothing changes: the lock is shared")
    }

    /// `appendCookieHeader(for:context:to:)` appends the bytes of the same header after what the buffer
    /// holds, or nothing, both when the lookup holds the lock alone (a jar's first lookup of the host) and
    /// when it shares it (the second); for a first-party request, `appendCookieHeader(for:to:)` (no
    /// context) appends the same, on a jar of its own.
    @Test(arguments: rows)
    func appendedHeader(_ row: Row) {
        let prefix = Array("GET / HTTP/1.1\r\nCookie: ".utf8)
        var appendings: [(name: String, append: (CookieJar, inout [UInt8]) -> Bool)] = [
            ("with the context", { jar, header in jar.appendCookieHeader(for: url(row.request), context: row.context, to: &header) })
        ]
        if row.context == .firstParty {
            appendings.append(("first-party", { jar, header in jar.appendCookieHeader(for: url(row.request), to: &header) }))
        }
        for appending in appendings {
            let jar = Self.jar(setUpBy: row)
            for lookup in ["the first, holding the lock alone", "the second, sharing it"] {
                var header = prefix
                let appended = appending.append(jar, &header)
                #expect(appended == (row.expected != nil), "\(appending.name), \(lookup)")
                #expect(header == prefix + Array((row.expected ?? "").utf8), "\(appending.name), \(lookup)")
            }
        }
    }

    /// CHIPS §2.2: a stored partition key is the request's when it is exactly `scheme://site`.
    @Test(arguments: [
        ("https://a.example", true, "the same schemeful site"),
        ("http://a.example", false, "another scheme"),
        ("https://b.example", false, "another site of the same length"),
        ("https://a.exampl", false, "a prefix of the site"),
        ("https://a.example.", false, "a longer key"),
        ("https:/ a.example", false, "no :// between scheme and site"),
    ])
    func partitionKeysMatchTheRequestsSchemefulSite(_ key: String, _ matches: Bool, _ source: String) {
        let filter = RetrievalFilter(
            url: url("https://embed.test/"), context: .firstParty, isCrossSite: false, partition: ("https", "a.example"))
        #expect(filter.isRequestPartition(key) == matches, "\(source)")
    }

    /// §5.8.3 step 4: headers are written into a buffer the jar keeps; a short header after a long one
    /// carries none of the long one's bytes, and a longer one grows the buffer. A header appended to a
    /// buffer emptied in between has the same bytes.
    @Test func headersOfEveryLengthComeOutWhole() {
        let (jar, _) = makeTestJar()
        let long = String(repeating: "L", count: 1500)
        jar.receive("big=\(long)", from: url("https://long.test/"))
        jar.receive("s=1", from: url("https://short.test/"))
        jar.receive("bigger=\(long)\(long)", from: url("https://longer.test/"))
        jar.receive("é=ü", from: url("https://several.test/"))
        jar.receive("=\(long)", from: url("https://several.test/"))
        let expected = [
            ("https://long.test/", "big=" + long), ("https://short.test/", "s=1"),
            ("https://longer.test/", "bigger=" + long + long), ("https://several.test/", "é=ü; " + long),
        ]
        var appended: [UInt8] = []
        for _ in 0..<2 {
            for (request, header) in expected {
                #expect(jar.cookieHeader(for: url(request)) == header)
                appended.removeAll(keepingCapacity: true)
                #expect(jar.appendCookieHeader(for: url(request), to: &appended))
                #expect(appended == Array(header.utf8), "appended: \(request)")
            }
        }
    }

    @Test func partitionedCookiesStayInTheirPartition() {
        let (jar, _) = makeTestJar()
        let inTopA = CookieRequestContext(siteForCookies: .origin(url("https://a.example")), partition: url("https://a.example"))
        let inTopB = CookieRequestContext(siteForCookies: .origin(url("https://b.example")), partition: url("https://b.example"))
        jar.setCookie("p=1; Secure; Partitioned; SameSite=None", from: url("https://embed.test/"), context: inTopA)
        jar.setCookie("u=1; Secure; SameSite=None", from: url("https://embed.test/"), context: inTopA)
        #expect(jar.cookieHeader(for: url("https://embed.test/"), context: inTopA) == "p=1; u=1")
        #expect(jar.cookieHeader(for: url("https://embed.test/"), context: inTopB) == "u=1", "CHIPS: other partition")
        #expect(jar.cookieHeader(for: url("https://embed.test/")) == "u=1", "first party: its own partition")
    }

    /// CHIPS §2.1 with no partition given: the top level is the site for cookies' origin (rfc6265bis-22
    /// §5.2.1: same-site with the top level), not the request's own site. A cookie the embed set
    /// first-party stays off its requests embedded in another site, and one set while embedded goes only
    /// under that site; under an opaque site for cookies no top level is known: a Partitioned cookie is
    /// refused, and none is sent.
    @Test func thePartitionWithoutOneGivenIsTheSiteForCookies() {
        let (jar, _) = makeTestJar()
        let embed = url("https://embed.test/")
        let inShop = CookieRequestContext(siteForCookies: .origin(url("https://shop.example")))
        #expect(jar.setCookie("own=1; Secure; SameSite=None; Partitioned", from: embed).rejection == nil)
        #expect(jar.setCookie("shop=1; Secure; SameSite=None; Partitioned", from: embed, context: inShop).rejection == nil)
        #expect(jar.allCookies().first { $0.name == "shop" }?.partitionKey == "https://shop.example")
        #expect(jar.cookieHeader(for: embed, context: inShop) == "shop=1")
        #expect(jar.cookieHeader(for: embed) == "own=1")
        let opaque = CookieRequestContext(siteForCookies: .opaque)
        #expect(jar.setCookie("o=1; Secure; SameSite=None; Partitioned", from: embed, context: opaque).rejection == .partitionedWithoutTopLevelSite)
        #expect(jar.cookieHeader(for: embed, context: opaque) == nil)
        let navigation = CookieRequestContext(siteForCookies: .origin(url("https://shop.example")), isTopLevelNavigation: true)
        #expect(jar.cookieHeader(for: embed, context: navigation) == "own=1", "a navigation's document is the top level")
    }

    @Test func expiredCookiesAreNeverSentAndArePurged() {
        let (jar, clock) = makeTestJar()
        jar.setCookie("a=1; Max-Age=10", from: url("http://h.test/"))
        jar.setCookie("b=2", from: url("http://h.test/"))
        clock.advance(seconds: 9)
        #expect(jar.cookieHeader(for: url("http://h.test/")) == "a=1; b=2")
        clock.advance(seconds: 1)
        #expect(jar.cookieHeader(for: url("http://h.test/")) == "b=2", "expired at exactly its expiry-time")
        #expect(jar.count == 1, "purged on the way")
    }

    @Test func expiredCookieNeverShadowsANewerOne() throws {
        let (jar, clock) = makeTestJar()
        let old = try #require(jar.setCookie("a=1; Max-Age=10", from: url("http://h.test/")).cookie)
        clock.advance(seconds: 20)
        let new = try #require(jar.setCookie("a=2", from: url("http://h.test/")).cookie)
        #expect(new.creation > old.creation, "an expired cookie lends nothing to its successor")
    }

    @Test func retrievalUpdatesLastAccess() throws {
        let (jar, clock) = makeTestJar()
        jar.setCookie("a=1", from: url("http://h.test/"))
        clock.advance(seconds: 5)
        let sent = try #require(jar.cookies(for: url("http://h.test/")).first)
        #expect(sent.lastAccess == clock.now(), "§5.8.3 step 3")
        #expect(jar.allCookies().first?.lastAccess == clock.now())
    }

    @Test func deletionAPIs() {
        let (jar, clock) = makeTestJar()
        jar.setCookie("s=1", from: url("http://a.test/"))
        jar.setCookie("p=1; Max-Age=100", from: url("http://a.test/"))
        jar.setCookie("q=1; Domain=a.test; Path=/x", from: url("http://www.a.test/x"))
        jar.setCookie("o=1", from: url("http://b.test/"))
        jar.setCookie("t=1; Secure; Partitioned; Max-Age=100", from: url("https://embed.test/"), context: .init(partition: url("https://a.test")))
        #expect(jar.deleteSessionCookies() == 3, "what a relaunch does: s, q, o are session cookies")
        #expect(Set(jar.allCookies().map(\.name)) == ["p", "t"])
        jar.setCookie("s=1", from: url("http://a.test/"))
        #expect(jar.cookies(forSite: "a.test").map(\.name).sorted() == ["p", "s"])
        #expect(jar.signOut(from: url("https://www.a.test/")) == 3, "sign-out: the site's cookies and those partitioned under it")
        #expect(jar.allCookies().isEmpty)
        jar.setCookie("o=1", from: url("http://b.test/"))
        let cookie = jar.allCookies()[0]
        #expect(jar.delete(cookie))
        #expect(!jar.delete(cookie))
        jar.setCookie("o=1", from: url("http://b.test/"))
        jar.setCookie("e=1; Max-Age=1", from: url("http://b.test/"))
        clock.advance(seconds: 2)
        #expect(jar.deleteExpiredCookies() == 1)
        #expect(jar.deleteCookies(forSite: "b.test") == 1)
        jar.setCookie("o=1", from: url("http://b.test/"))
        #expect(jar.deleteAll() == 1 && jar.count == 0)
    }
}

/// `retrievalReport`: every cookie of the site with the §5.8.3 rule that keeps it off the request.
struct RetrievalReportTests {
    @Test func everyExclusionIsNamed() {
        let (jar, clock) = makeTestJar()
        let lines = [
            ("https://www.h.test/", "sent=1; Domain=h.test"),
            ("https://www.h.test/", "host=1"),
            ("https://h.test/", "other=1; Domain=h.test; Path=/admin"),
            ("https://h.test/", "secure=1; Secure; Domain=h.test"),
            ("https://h.test/", "http=1; HttpOnly; Domain=h.test"),
            ("https://h.test/", "lax=1; SameSite=Lax; Domain=h.test"),
            ("https://h.test/", "part=1; Secure; Partitioned; SameSite=None; Domain=h.test"),
            ("https://h.test/", "old=1; Max-Age=5; Domain=h.test"),
        ]
        for (from, line) in lines { #expect(jar.setCookie(line, from: url(from)).rejection == nil, "\(line)") }
        clock.advance(seconds: 10)
        let context = CookieRequestContext(siteForCookies: .origin(url("https://top.example")), partition: url("https://top.example"), api: .nonHTTP)
        let report = jar.retrievalReport(for: url("http://a.h.test/"), context: context)
        let reasons = Dictionary(uniqueKeysWithValues: report.map { ($0.cookie.name, $0.exclusion) })
        #expect(reasons == [
            "sent": .sameSite, "host": .hostOnly, "other": .pathMismatch, "secure": .secureOnly,
            "http": .httpOnly, "lax": .sameSite, "part": .secureOnly, "old": .expired,
        ])
        let firstParty = jar.retrievalReport(for: url("https://a.h.test/"))
        #expect(firstParty.filter { $0.exclusion == nil }.map(\.cookie.name) == ["sent", "secure", "http", "lax", "part"])
        let elsewhere = jar.retrievalReport(for: url("https://a.h.test/"), context: .init(partition: url("https://top.example")))
        #expect(elsewhere.first { $0.cookie.name == "part" }?.exclusion == .partition)
        #expect(jar.retrievalReport(for: url("ftp://a.h.test/")).allSatisfy { $0.exclusion == .unsupportedScheme || $0.exclusion == .expired })
    }

    /// The store remembers where each host's site is; removing a site moves the last one into its
    /// place. Every site is asked for once, then each removal is followed by requests and receipts for
    /// the sites that stay: each still gets exactly its own cookies.
    @Test func sitesFoundAfterOthersAreRemoved() {
        let (jar, _) = makeTestJar()
        let hosts = ["a.test", "b.test", "c.test", "d.test", "e.test"]
        for host in hosts { jar.setCookie("k=\(host)", from: url("http://\(host)/")) }
        for host in hosts { #expect(jar.cookieHeader(for: url("http://\(host)/")) == "k=\(host)") }
        for (removed, host) in hosts.enumerated().dropLast() {
            #expect(jar.deleteCookies(forSite: host) == 1)
            for other in hosts[(removed + 1)...] {
                #expect(jar.cookieHeader(for: url("http://\(other)/")) == "k=\(other)", "after removing \(host)")
                jar.setCookie("n=\(other)", from: url("http://\(other)/"))
                #expect(jar.cookieHeader(for: url("http://\(other)/")) == "k=\(other); n=\(other)")
                jar.setCookie("n=; Max-Age=0", from: url("http://\(other)/"))
            }
            #expect(jar.cookieHeader(for: url("http://\(host)/")) == nil)
            #expect(jar.storeStructureViolation() == nil)
        }
    }
}
