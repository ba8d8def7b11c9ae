import Testing
@_spi(Fuzzing) @testable import Cookies

/// rfc6265bis-22 §5.7: which cookies a jar stores, and why it rejects the others.
struct StorageModelTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var from: String
        var line: String
        var context = CookieRequestContext()
        /// nil: stored; otherwise the rejection.
        var rejection: CookieRejection?
        var source: String
        var testDescription: String { "\(source): \(line) from \(from)" }
    }

    static let crossSite = CookieRequestContext(siteForCookies: .origin(url("https://other.test")))
    static let crossSiteNavigation = CookieRequestContext(
        siteForCookies: .origin(url("https://other.test")), isTopLevelNavigation: true)

    static let rows: [Row] = [
        Row(from: "http://www.example.com/", line: "a=b", source: "§5.7: a plain cookie"),
        Row(from: "ftp://www.example.com/", line: "a=b", rejection: .unsupportedScheme, source: "only HTTP responses set cookies"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=example.com", source: "§5.7: Domain above the host"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=www.example.com", source: "§5.7: Domain equal to the host"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=other.com", rejection: .domainMismatch, source: "§5.7: Domain elsewhere"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=ww.example.com", rejection: .domainMismatch, source: "§5.1.3: suffix not at a label boundary"),
        Row(from: "http://example.com/", line: "a=b; Domain=www.example.com", rejection: .domainMismatch, source: "§5.7: Domain below the host"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=com", rejection: .domainIsPublicSuffix, source: "§5.7: Domain is a public suffix"),
        Row(from: "http://www.example.co.uk/", line: "a=b; Domain=co.uk", rejection: .domainIsPublicSuffix, source: "§5.7: two-label suffix"),
        Row(from: "http://foo.github.io/", line: "a=b; Domain=github.io", rejection: .domainIsPublicSuffix, source: "§5.7: the PSL's private section counts"),
        Row(from: "http://www.bar.ck/", line: "a=b; Domain=bar.ck", rejection: .domainIsPublicSuffix, source: "PSL wildcard *.ck"),
        Row(from: "http://a.www.ck/", line: "a=b; Domain=www.ck", source: "PSL exception !www.ck"),
        Row(from: "http://co.uk/", line: "a=b; Domain=co.uk", source: "§5.7: a suffix equal to the host makes a host-only cookie"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=ex\u{E4}mple.com", rejection: .domainNotASCII, source: "§5.7: non-ASCII Domain"),
        Row(from: "http://192.168.0.1/", line: "a=b; Domain=192.168.0.1", source: "§5.1.3: an IP address matches itself"),
        Row(from: "http://192.168.0.1/", line: "a=b; Domain=168.0.1", rejection: .domainMismatch, source: "§5.1.3: no suffix match for IP addresses"),
        Row(from: "http://[::1]/", line: "a=b; Domain=[::1]", source: "§5.1.3: an IPv6 literal matches itself"),
        Row(from: "http://www.example.com/", line: "a=b; Secure", rejection: .secureFromInsecureOrigin, source: "§5.7: Secure from http"),
        Row(from: "https://www.example.com/", line: "a=b; Secure", source: "§5.7: Secure from https"),
        Row(from: "http://localhost/", line: "a=b; Secure", source: "http://localhost is a secure origin"),
        Row(from: "http://127.0.0.2/", line: "a=b; Secure", source: "127.0.0.0/8 is a secure origin"),
        Row(from: "http://[::1]/", line: "a=b; Secure", source: "[::1] is a secure origin"),
        Row(from: "http://app.localhost/", line: "a=b; Secure", source: "names under .localhost are secure origins"),
        Row(from: "http://www.example.com/", line: "a=b; HttpOnly", context: .init(api: .nonHTTP), rejection: .httpOnlyFromNonHTTPAPI, source: "§5.7: HttpOnly through document.cookie"),
        Row(from: "https://www.example.com/", line: "a=b; SameSite=None", rejection: .sameSiteNoneWithoutSecure, source: "§5.7: SameSite=None needs Secure"),
        Row(from: "https://www.example.com/", line: "a=b; SameSite=None; Secure", context: crossSite, source: "§5.7: None may be set cross-site"),
        Row(from: "https://www.example.com/", line: "a=b; SameSite=Lax", context: crossSite, rejection: .sameSiteFromCrossSite, source: "§5.7: Lax not from a cross-site subresource"),
        Row(from: "https://www.example.com/", line: "a=b", context: crossSite, rejection: .sameSiteFromCrossSite, source: "§5.7: Default not from a cross-site subresource"),
        Row(from: "https://www.example.com/", line: "a=b; SameSite=Strict", context: crossSiteNavigation, source: "§5.7: a top-level navigation may set Strict"),
        Row(from: "https://www.example.com/", line: "a=b", context: .init(siteForCookies: .opaque, isTopLevelNavigation: true), source: "§5.7: opaque site, top-level navigation"),
        Row(from: "https://www.example.com/", line: "a=b", context: .init(siteForCookies: .origin(url("https://example.com"))), source: "§5.2: same registrable domain is same-site"),
        Row(from: "https://www.example.com/", line: "a=b", context: .init(siteForCookies: .origin(url("http://example.com"))), rejection: .sameSiteFromCrossSite, source: "§5.2: schemeful same-site"),
        Row(from: "https://www.example.com/", line: "a=b", context: .init(siteForCookies: .origin(url("https://www.example.com:8443"))), source: "§5.2: ports never matter"),
        Row(from: "wss://www.example.com/", line: "a=b", context: .init(siteForCookies: .origin(url("https://example.com"))), source: "§5.2 and the WebSockets standard: a wss handshake is an https fetch, same-site with its page"),
        Row(from: "ws://www.example.com/", line: "a=b", context: .init(siteForCookies: .origin(url("https://example.com"))), rejection: .sameSiteFromCrossSite, source: "§5.2: ws is http, another site than an https page"),
        Row(from: "https://www.example.com/", line: "a=b", context: .init(siteForCookies: .origin(url("https://other.test")), api: .nonHTTP), rejection: .sameSiteFromCrossSite, source: "§5.7: a non-HTTP API in a cross-site document"),
        Row(from: "https://www.example.com/", line: "__Secure-a=b; Secure", source: "§5.7: __Secure- with Secure"),
        Row(from: "https://www.example.com/", line: "__Secure-a=b", rejection: .securePrefixViolation, source: "§5.7: __Secure- without Secure"),
        Row(from: "https://www.example.com/", line: "__SECURE-a=b", rejection: .securePrefixViolation, source: "§5.7: prefixes match case-insensitively"),
        Row(from: "https://www.example.com/", line: "__Host-a=b; Secure; Path=/", source: "§5.7: a valid __Host- cookie"),
        Row(from: "https://www.example.com/", line: "__host-a=b; Secure; Path=/", source: "§5.7: __host- is a __Host- cookie"),
        Row(from: "https://www.example.com/", line: "__Host-a=b; Secure", rejection: .hostPrefixViolation, source: "§5.7: __Host- needs a Path attribute"),
        Row(from: "https://www.example.com/", line: "__Host-a=b; Secure; Path=/x", rejection: .hostPrefixViolation, source: "§5.7: __Host- needs Path=/"),
        Row(from: "https://www.example.com/", line: "__Host-a=b; Secure; Path=/; Domain=www.example.com", rejection: .hostPrefixViolation, source: "§5.7: __Host- must be host-only"),
        Row(from: "https://www.example.com/", line: "__Host-a=b; Path=/", rejection: .hostPrefixViolation, source: "§5.7: __Host- needs Secure"),
        Row(from: "https://www.example.com/", line: "__Host-a=b; Secure; Path=", source: "§5.6.4: an empty Path is the default-path, / here"),
        Row(from: "https://www.example.com/d/p", line: "__Host-a=b; Secure; Path=", rejection: .hostPrefixViolation, source: "§5.6.4: an empty Path is the default-path, /d here"),
        Row(from: "https://www.example.com/", line: "__Host-a=b; Secure; Path=x", source: "§5.6.4: a Path not starting with / is the default-path, / here"),
        Row(from: "https://www.example.com/", line: "=__Secure-a", rejection: .namelessWithPrefix, source: "§5.7: nameless cookie impersonating __Secure-"),
        Row(from: "https://www.example.com/", line: "__HOST-x", rejection: .namelessWithPrefix, source: "§5.7: nameless cookie impersonating __Host-"),
        Row(from: "https://www.example.com/", line: "a=b; Partitioned", rejection: .partitionedWithoutSecure, source: "CHIPS §2.1: Partitioned needs Secure"),
        Row(from: "https://www.example.com/", line: "a=b; Partitioned; Secure", source: "CHIPS §2.1"),
    ]

    @Test(arguments: rows)
    func storesOrRejects(_ row: Row) {
        let (jar, _) = makeTestJar()
        let outcome = jar.setCookie(row.line, from: url(row.from), context: row.context)
        #expect(outcome.rejection == row.rejection, "\(outcome)")
        if row.rejection == nil { #expect(jar.count == 1) } else { #expect(jar.count == 0) }
    }

    @Test func hostOnlyAndDomainCookiesAreDistinct() throws {
        let (jar, _) = makeTestJar()
        let hostOnly = try #require(jar.setCookie("a=1", from: url("http://example.com/")).cookie)
        #expect(hostOnly.isHostOnly && hostOnly.domain == "example.com")
        let domain = try #require(jar.setCookie("a=2; Domain=example.com", from: url("http://example.com/")).cookie)
        #expect(!domain.isHostOnly && domain.domain == "example.com")
        #expect(jar.count == 2, "§5.7: the host-only-flag is part of a cookie's identity")
        let suffixHost = try #require(jar.setCookie("a=3; Domain=co.uk", from: url("http://co.uk/")).cookie)
        #expect(suffixHost.isHostOnly, "§5.7: a public suffix Domain equal to the host becomes host-only")
    }

    @Test(arguments: [
        ("/", "/"), ("", "/"), ("/a", "/"), ("/a/", "/a"), ("/a/b", "/a"), ("/a/b/c", "/a/b"), ("/a//", "/a/"),
    ])
    func defaultPath(requestPath: String, expected: String) throws {
        // §5.1.4 default-path.
        let (jar, _) = makeTestJar()
        let cookie = try #require(jar.setCookie("a=b", from: CookieURL(scheme: "http", host: CanonicalHost("h.test")!, path: requestPath)).cookie)
        #expect(cookie.path == expected)
    }

    @Test func expiryFromMaxAgeAndExpires() throws {
        let (jar, clock) = makeTestJar()
        let now = clock.now()
        let session = try #require(jar.setCookie("s=1", from: url("http://h.test/")).cookie)
        #expect(session.expiry == nil && !session.isPersistent, "§5.7: no Max-Age or Expires: a session cookie")
        let maxAge = try #require(jar.setCookie("m=1; Max-Age=60; Expires=Wed, 09 Jun 2100 10:18:14 GMT", from: url("http://h.test/")).cookie)
        #expect(maxAge.expiry == now.adding(seconds: 60), "§5.7: Max-Age has precedence over Expires")
        let expires = try #require(jar.setCookie("e=1; Expires=Wed, 01 Jan 2025 01:00:00 GMT", from: url("http://h.test/")).cookie)
        #expect(expires.expiry == CookieTime(secondsSinceEpoch: Int64(1_735_693_200)))
        let capped = try #require(jar.setCookie("c=1; Max-Age=999999999", from: url("http://h.test/")).cookie)
        #expect(capped.expiry == now.adding(seconds: 34_560_000), "§5.6.2: 400-day cap, exactly 34,560,000 s")
        let cappedExpires = try #require(jar.setCookie("d=1; Expires=Fri, 31 Dec 9999 23:59:59 GMT", from: url("http://h.test/")).cookie)
        #expect(cappedExpires.expiry == now.adding(seconds: 34_560_000), "§5.6.1: 400-day cap on Expires")
    }

    @Test func expiredCookieDeletesTheOldOne() {
        let (jar, _) = makeTestJar()
        jar.setCookie("a=1; Max-Age=100", from: url("http://h.test/"))
        for deletion in ["a=x; Max-Age=0", "a=x; Max-Age=-1", "a=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT"] {
            jar.setCookie("a=1", from: url("http://h.test/"))
            guard case .deleted(let previous) = jar.setCookie(deletion, from: url("http://h.test/")) else {
                Issue.record("\(deletion) did not delete")
                continue
            }
            #expect(previous.value == "1")
            #expect(jar.count == 0)
        }
        #expect(jar.setCookie("a=1; Max-Age=0", from: url("http://h.test/")) == .expired, "nothing to delete")
    }

    @Test func replacementKeepsCreationTime() throws {
        let (jar, clock) = makeTestJar()
        let first = try #require(jar.setCookie("a=1", from: url("http://h.test/")).cookie)
        clock.advance(seconds: 10)
        guard case .replaced(let second, let previous) = jar.setCookie("a=2", from: url("http://h.test/")) else {
            Issue.record("not replaced")
            return
        }
        #expect(previous == first)
        #expect(second.creation == first.creation, "§5.7: the old creation-time is kept")
        #expect(second.value == "2")
    }

    @Test func creationTimesStrictlyIncrease() throws {
        let (jar, _) = makeTestJar()
        jar.receive(["a=1", "b=2", "c=3"], from: url("http://h.test/"))
        let times = ["a", "b", "c"].compactMap { name in jar.allCookies().first { $0.name == name }?.creation }
        #expect(times.count == 3)
        #expect(times == times.sorted() && Set(times).count == 3, "one response's lines are created in order")
    }

    @Test func leaveSecureCookiesAlone() {
        // §5.7: an insecure origin cannot overwrite or shadow a Secure cookie.
        let (jar, _) = makeTestJar()
        #expect(jar.setCookie("a=secure; Secure; Path=/", from: url("https://www.example.com/")).rejection == nil)
        #expect(jar.setCookie("a=evil", from: url("http://www.example.com/")).rejection == .wouldShadowSecureCookie)
        #expect(jar.setCookie("a=evil; Path=/sub", from: url("http://www.example.com/")).rejection == .wouldShadowSecureCookie)
        #expect(jar.setCookie("a=evil; Domain=example.com", from: url("http://www.example.com/")).rejection == .wouldShadowSecureCookie)
        #expect(jar.setCookie("b=fine", from: url("http://www.example.com/")).rejection == nil, "other names are fine")
        #expect(jar.setCookie("a=fine", from: url("https://www.example.com/")).rejection == nil, "a secure origin may")
    }

    @Test func leaveSecureCookiesAloneOnlyForMatchingPaths() {
        let (jar, _) = makeTestJar()
        jar.setCookie("a=secure; Secure; Path=/admin", from: url("https://www.example.com/"))
        #expect(jar.setCookie("a=other; Path=/", from: url("http://www.example.com/")).rejection == nil,
            "§5.7: '/' does not path-match '/admin'")
    }

    @Test func nonHTTPCannotOverwriteHTTPOnly() {
        let (jar, _) = makeTestJar()
        jar.setCookie("a=1; HttpOnly", from: url("http://h.test/"))
        let script = CookieRequestContext(api: .nonHTTP)
        #expect(jar.setCookie("a=2", from: url("http://h.test/"), context: script).rejection == .wouldOverwriteHTTPOnlyCookie)
        #expect(jar.setCookie("a=2; Max-Age=0", from: url("http://h.test/"), context: script).rejection == .wouldOverwriteHTTPOnlyCookie)
        #expect(jar.cookies(for: url("http://h.test/")).first?.value == "1")
    }

    @Test func partitionKeyIsTheTopLevelSite() throws {
        let (jar, _) = makeTestJar()
        let context = CookieRequestContext(siteForCookies: .origin(url("https://top.example")), partition: url("https://www.top.example"))
        let cookie = try #require(jar.setCookie("p=1; Secure; Partitioned; SameSite=None", from: url("https://embed.test/"), context: context).cookie)
        #expect(cookie.partitionKey == "https://top.example")
        let own = try #require(jar.setCookie("p=1; Secure; Partitioned", from: url("https://embed.test/")).cookie)
        #expect(own.partitionKey == "https://embed.test", "no context: the request's own site")
        #expect(jar.count == 2, "the partition key is part of the identity")
    }

    /// §5.7 step 16 across sites: the Secure cookie an insecure origin must leave alone may live in
    /// another site than the new cookie's, above it (a public-suffix host's own cookie) or below it (a
    /// site whose key ends in the new cookie's domain). Each row stores a Secure cookie from `secureURL`,
    /// then an insecure origin sets the same name; after the Secure cookie is deleted it may.
    struct CrossSiteShadowRow: CustomTestStringConvertible, Sendable {
        var secureURL: String
        var insecureURL: String
        var insecureLine: String
        var source: String
        var testDescription: String { source }
    }

    static let crossSiteShadowRows: [CrossSiteShadowRow] = [
        CrossSiteShadowRow(
            secureURL: "https://user.github.io/", insecureURL: "http://github.io/", insecureLine: "a=evil",
            source: "a public-suffix host (github.io, PRIVATE section) below which a site holds the Secure cookie"),
        CrossSiteShadowRow(
            secureURL: "https://wiki.intranet/", insecureURL: "http://intranet/", insecureLine: "a=evil",
            source: "a one-label host (intranet, a public suffix by the list's default rule \"*\") below which a site holds it"),
        CrossSiteShadowRow(
            secureURL: "https://shop.com/", insecureURL: "http://com/", insecureLine: "a=evil",
            source: "a top-level domain as a host (com) below which a site holds the Secure cookie"),
        CrossSiteShadowRow(
            secureURL: "https://github.io/", insecureURL: "http://user.github.io/", insecureLine: "a=evil",
            source: "the public-suffix host above the new cookie's site holds the Secure cookie"),
        CrossSiteShadowRow(
            secureURL: "https://bucket.s3.example.com/", insecureURL: "http://example.com/", insecureLine: "a=evil",
            source: "a registrable domain (example.com) with a public suffix below it (s3.example.com, as s3.amazonaws.com)"),
        CrossSiteShadowRow(
            secureURL: "https://bucket.s3.example.com/", insecureURL: "http://www.example.com/",
            insecureLine: "a=evil; Domain=example.com", source: "the same, through a Domain attribute"),
    ]

    @Test(arguments: crossSiteShadowRows)
    func leaveSecureCookiesAloneAcrossSites(_ row: CrossSiteShadowRow) {
        let list = PublicSuffixRules(parsing: "com\nio\ngithub.io\ns3.example.com\n")
        let jar = CookieJar(publicSuffixList: list, clock: ManualCookieClock(testEpoch))
        #expect(jar.setCookie("a=secure; Secure; Path=/", from: url(row.secureURL)).cookie != nil)
        #expect(jar.setCookie(row.insecureLine, from: url(row.insecureURL)).rejection == .wouldShadowSecureCookie)
        #expect(jar.setCookie("a=gone; Secure; Path=/; Max-Age=0", from: url(row.secureURL)).rejection == nil)
        #expect(jar.count == 0)
        #expect(jar.setCookie(row.insecureLine, from: url(row.insecureURL)).cookie != nil, "no Secure cookie is left")
        #expect(jar.storeStructureViolation() == nil)
    }
}
