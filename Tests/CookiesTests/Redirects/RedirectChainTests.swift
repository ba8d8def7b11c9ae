import Testing

@testable import Cookies

@Suite("RedirectChain")
struct RedirectChainTests {
    struct MethodCase: Sendable, CustomTestStringConvertible {
        let status: Int
        let method: String
        let next: String?
        var testDescription: String { "\(status) after \(method) → \(next ?? "no redirect")" }
    }

    /// RFC 9110 §15.4: 303 makes a GET (but of HEAD, §15.4.4); 301 and 302 make POST a GET, as user agents
    /// do (§15.4.2, §15.4.3; Fetch's HTTP-redirect fetch step 12); 307 and 308 keep the method (§15.4.8,
    /// §15.4.9); 300 and 304 ask for no automatic redirect, nor does a 2xx.
    static let methodCases: [MethodCase] = [
        MethodCase(status: 301, method: "POST", next: "GET"), MethodCase(status: 301, method: "DELETE", next: "DELETE"),
        MethodCase(status: 302, method: "POST", next: "GET"), MethodCase(status: 302, method: "GET", next: "GET"),
        MethodCase(status: 303, method: "POST", next: "GET"), MethodCase(status: 303, method: "DELETE", next: "GET"),
        MethodCase(status: 303, method: "HEAD", next: "HEAD"),
        MethodCase(status: 307, method: "POST", next: "POST"), MethodCase(status: 308, method: "PUT", next: "PUT"),
        MethodCase(status: 300, method: "GET", next: nil), MethodCase(status: 304, method: "GET", next: nil),
        MethodCase(status: 200, method: "GET", next: nil),
    ]

    @Test(arguments: methodCases)
    func method(_ testCase: MethodCase) throws {
        let (jar, _) = makeTestJar()
        var chain = RedirectChain(url: "https://a.test/x", method: testCase.method, jar: jar)
        let step = try chain.follow(status: testCase.status, to: "https://a.test/next")
        #expect(step?.method == testCase.next)
        // Fetch drops the body and its fields exactly when the method changed to GET.
        #expect(step?.dropsBody == (testCase.next.map { $0 != testCase.method }))
        #expect(step.map { $0.removedFieldNames.contains("content-type") } == step?.dropsBody)
        #expect(chain.context.method == testCase.next ?? testCase.method)
        #expect(chain.hops.count == (testCase.next == nil ? 1 : 2))
    }

    struct OriginCase: Sendable, CustomTestStringConvertible {
        let from: String
        let to: String
        let leavesOrigin: Bool
        var testDescription: String { "\(from) → \(to)" }
    }

    /// RFC 6454 §5: an origin is scheme, host and port, the default port counting as written. Fetch drops
    /// Authorization on a hop to another origin; Go's net/http also Cookie and Cookie2; AsyncHTTPClient's
    /// own following also Proxy-Authorization (`RedirectState.swift`, 1.37).
    static let originCases: [OriginCase] = [
        OriginCase(from: "https://a.test/x", to: "https://a.test/y?q", leavesOrigin: false),
        OriginCase(from: "https://a.test/x", to: "https://a.test:443/y", leavesOrigin: false),
        OriginCase(from: "https://a.test/x", to: "http://a.test/y", leavesOrigin: true),
        OriginCase(from: "https://a.test/x", to: "https://a.test:8443/y", leavesOrigin: true),
        OriginCase(from: "https://a.test/x", to: "https://www.a.test/y", leavesOrigin: true),
        OriginCase(from: "https://a.test/x", to: "https://b.test/y", leavesOrigin: true),
    ]

    @Test(arguments: originCases)
    func credentials(_ testCase: OriginCase) throws {
        let (jar, _) = makeTestJar()
        var chain = RedirectChain(url: testCase.from, method: "GET", jar: jar)
        let step = try #require(try chain.follow(status: 302, to: testCase.to))
        #expect(step.leavesOrigin == testCase.leavesOrigin)
        #expect(step.removedFieldNames == (testCase.leavesOrigin ? ["authorization", "proxy-authorization", "cookie", "cookie2", "origin"] : []))
    }

    struct OriginFieldCase: Sendable, CustomTestStringConvertible {
        let status: Int
        let method: String
        let to: String
        let keepsOrigin: Bool
        var testDescription: String { "\(status) after \(method) to \(to): Origin \(keepsOrigin ? "kept" : "removed")" }
    }

    /// The `Origin` field on a hop from https://a.test/form, for each redirect status. AsyncHTTPClient's own
    /// following (1.37, `transformRequestForRedirect` in RedirectState.swift) removes it on every hop to
    /// another origin, whatever the status and method, and keeps it on a hop that keeps the origin. Fetch
    /// ("serializing a request origin") writes "null" for a request whose chain went from a URL whose origin
    /// is not the request's own to another origin, on a 307/308 that keeps a POST or PUT; after a 301/302
    /// POST or a 303, the GET has no `Origin` at all unless it is a CORS request ("append a request
    /// `Origin` header"); a hop within the origin does not taint the request.
    static let originFieldCases: [OriginFieldCase] = [
        OriginFieldCase(status: 307, method: "POST", to: "https://b.test/submit", keepsOrigin: false),
        OriginFieldCase(status: 308, method: "PUT", to: "https://b.test/submit", keepsOrigin: false),
        OriginFieldCase(status: 301, method: "POST", to: "https://b.test/submit", keepsOrigin: false),
        OriginFieldCase(status: 302, method: "GET", to: "https://b.test/submit", keepsOrigin: false),
        OriginFieldCase(status: 303, method: "POST", to: "https://b.test/submit", keepsOrigin: false),
        OriginFieldCase(status: 307, method: "POST", to: "http://a.test/submit", keepsOrigin: false),
        OriginFieldCase(status: 307, method: "POST", to: "https://a.test/submit", keepsOrigin: true),
        OriginFieldCase(status: 308, method: "PUT", to: "https://a.test:443/submit", keepsOrigin: true),
        OriginFieldCase(status: 303, method: "POST", to: "https://a.test/submit", keepsOrigin: true),
    ]

    @Test(arguments: originFieldCases)
    func originField(_ testCase: OriginFieldCase) throws {
        let (jar, _) = makeTestJar()
        var chain = RedirectChain(url: "https://a.test/form", method: testCase.method, jar: jar)
        let step = try #require(try chain.follow(status: testCase.status, to: testCase.to))
        #expect(step.removedFieldNames.contains("origin") == !testCase.keepsOrigin)
    }

    /// The jar's cookies on each hop: a cookie set by a redirect goes on the next hop; a cross-site chain
    /// keeps SameSite=Lax cookies off a request that is no top-level navigation (rfc6265bis-22 §5.2,
    /// §5.8.3 step 1), even back on the cookie's own site; an app's own request (`firstParty`) is one.
    @Test("each hop's cookies and context")
    func hopCookies() throws {
        let (jar, _) = makeTestJar()
        jar.receive("lax=1; SameSite=Lax", from: url("https://a.test/"))
        jar.receive("none=1; SameSite=None; Secure", from: url("https://a.test/"))
        // A document's fetch: no navigation.
        var chain = RedirectChain(url: "https://a.test/login", method: "POST", context: CookieRequestContext(), jar: jar)
        #expect(try chain.cookieHeader() == "lax=1; none=1")
        chain.receive(["session=s; SameSite=Lax"])
        _ = try chain.follow(status: 302, to: "https://www.a.test/home")
        #expect(chain.context.siteForCookies == .origin(url("https://a.test/login")))
        #expect(try chain.cookieHeader() == nil)
        _ = try chain.follow(status: 302, to: "https://a.test/home")
        #expect(try chain.cookieHeader() == "lax=1; none=1; session=s")
        _ = try chain.follow(status: 302, to: "https://b.test/away")
        #expect(chain.context.siteForCookies == .opaque)
        _ = try chain.follow(status: 302, to: "https://a.test/back")
        #expect(chain.context.siteForCookies == .opaque)
        #expect(try chain.cookieHeader() == "none=1")

        var navigation = RedirectChain(url: "https://b.test/away", method: "GET", jar: jar)
        #expect(navigation.context.isTopLevelNavigation)
        _ = try navigation.follow(status: 302, to: "https://a.test/back")
        #expect(try navigation.cookieHeader() == "lax=1; none=1; session=s")
    }

    /// CHIPS: a partitioned cookie is keyed by the top-level site. A chain that is no navigation (a
    /// document's fetch from a.test) keeps a.test as its top level on a hop to b.test: b.test's Partitioned
    /// cookie is stored in a.test's partition and b.test's own top-level one stays off; a navigation (an
    /// app's own request) makes b.test the top level, whose partition is b.test's own.
    @Test func partitionOfTheHops() throws {
        let (jar, _) = makeTestJar()
        jar.receive("own=1; Secure; SameSite=None; Partitioned", from: url("https://b.test/"))
        var fetch = RedirectChain(url: "https://a.test/embed", method: "GET", context: CookieRequestContext(), jar: jar)
        _ = try fetch.follow(status: 302, to: "https://b.test/widget")
        #expect(try fetch.cookieHeader() == nil)
        fetch.receive(["p=1; Secure; SameSite=None; Partitioned"])
        #expect(jar.allCookies().first { $0.name == "p" }?.partitionKey == "https://a.test")

        var navigation = RedirectChain(url: "https://a.test/", method: "GET", jar: jar)
        _ = try navigation.follow(status: 302, to: "https://b.test/")
        #expect(try navigation.cookieHeader() == "own=1")
        navigation.receive(["q=1; Secure; SameSite=None; Partitioned"])
        #expect(jar.allCookies().first { $0.name == "q" }?.partitionKey == "https://b.test")
    }

    /// One chain of an app's own request (`firstParty`, a top-level navigation) and what each hop stores
    /// and sends. Facts: rfc6265bis-22 §5.2 (sites are schemeful: HTML's "same site"), §5.7 step 18.3 (a
    /// cross-site top-level navigation stores cookies whatever their SameSite), §5.8.3 step 1 (Lax cookies
    /// go on a cross-site top-level navigation with a safe method, Strict ones never).
    struct NavigationCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var method = "GET"
        /// (status, Location, the Set-Cookie fields of that hop's response) per redirect; the last hop's
        /// fields are `finalSetCookies`.
        var hops: [(status: Int, location: String, setCookies: [String])]
        var start: String
        var finalSetCookies: [String] = []
        /// The last hop's Cookie field, and the names the jar holds at the end.
        var lastCookieHeader: String?
        var stored: Set<String>
    }

    static let navigationCases: [NavigationCase] = [
        NavigationCase(
            testDescription: "an http URL redirected to https: the https hop is cross-site, and its session is stored",
            hops: [(301, "https://app.test/login", [])], start: "http://app.test/login",
            finalSetCookies: ["sid=abc; Secure; HttpOnly"], lastCookieHeader: "lax=1; none=1",
            stored: ["strict", "lax", "none", "sid"]),
        NavigationCase(
            testDescription: "an SSO round trip (app → identity provider → app): the provider's and the app's cookies are stored, Lax ones sent back, Strict ones not",
            hops: [(302, "https://idp.test/authorize", []), (302, "https://app.test/callback", ["idp=1; Secure"])],
            start: "https://app.test/", finalSetCookies: ["session=s; SameSite=Lax; Secure"], lastCookieHeader: "lax=1; none=1",
            stored: ["strict", "lax", "none", "idp", "session"]),
        NavigationCase(
            testDescription: "a POST redirected with 307 to another site keeps its method: only SameSite=None cookies go",
            method: "POST", hops: [(307, "https://app.test/submit", [])], start: "https://form.test/post",
            lastCookieHeader: "none=1", stored: ["strict", "lax", "none"]),
    ]

    @Test(arguments: navigationCases)
    func appRequestIsANavigation(_ testCase: NavigationCase) throws {
        let (jar, _) = makeTestJar()
        jar.receive("strict=1; SameSite=Strict; Secure", from: url("https://app.test/"))
        jar.receive("lax=1; SameSite=Lax; Secure", from: url("https://app.test/"))
        jar.receive("none=1; SameSite=None; Secure", from: url("https://app.test/"))
        var chain = RedirectChain(url: testCase.start, method: testCase.method, jar: jar)
        for hop in testCase.hops {
            _ = try chain.cookieHeader()
            chain.receive(hop.setCookies)
            _ = try #require(try chain.follow(status: hop.status, to: hop.location))
        }
        #expect(try chain.cookieHeader() == testCase.lastCookieHeader)
        chain.receive(testCase.finalSetCookies)
        #expect(Set(jar.allCookies().map(\.name)) == testCase.stored)
    }

    /// Fetch's "normalize a method": the six methods it names are upper-cased whatever their case, so a
    /// `post` answered by 302 becomes a GET without its body; another method keeps its case (RFC 9110 §9.1).
    @Test(arguments: [("post", 302, "GET"), ("Put", 307, "PUT"), ("patch", 307, "patch"), ("head", 303, "HEAD")])
    func methodsAreNormalised(_ method: String, _ status: Int, _ next: String) throws {
        let (jar, _) = makeTestJar()
        var chain = RedirectChain(url: "https://a.test/x", method: method, jar: jar)
        let step = try #require(try chain.follow(status: status, to: "https://a.test/y"))
        #expect(step.method == next && chain.current.method == next)
    }

    /// `receive(_:)` names the cookies the jar took a response's lines for: stored, replaced, deleted or
    /// already expired (a deletion of a cookie the jar never held: one the caller sends itself); not a line
    /// refused (another site's Domain) or unparsable.
    @Test func receiveNamesTheCookiesItChanged() throws {
        let (jar, _) = makeTestJar()
        jar.receive("rotated=old", from: try #require(CookieURL("https://www.example.com/")))
        var chain = RedirectChain(url: "https://www.example.com/start", method: "GET", jar: jar)
        let changed = chain.receive([
            "new=1", "rotated=new", "gone=; Max-Age=0", "foreign=1; Domain=other.test", "=", "\u{1}bad=1",
        ])
        #expect(changed == ["new", "rotated", "gone"])
        #expect(jar.allCookies().map(\.name).sorted() == ["new", "rotated"])
    }

    struct OwnCookiesCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// The request's own `Cookie` field values.
        var own: [String]
        /// (status, Location, the Set-Cookie fields of that hop's response) per redirect.
        var hops: [(status: Int, location: String, setCookies: [String])] = []
        /// Each hop's `Cookie` field, the first request's first.
        var sent: [String?]
    }

    /// The request's own cookies go with the jar's (here `sid=1`, host-only on a.test) in one field, the
    /// own ones first and winning for a name both have ("the user agent MUST NOT attach more than one
    /// Cookie header field", rfc6265bis-22 §5.8.1); one a response on the way set or deleted goes from
    /// then on as the jar holds it (Go's net/http drops such a cookie from the Cookie field it forwards);
    /// none goes on once a hop left the origin, back on it included (Go's net/http and curl drop the
    /// Cookie field on a hop to another host, CVE-2022-27776).
    static let ownCookiesCases: [OwnCookiesCase] = [
        OwnCookiesCase(testDescription: "the caller's and the jar's, in one field", own: ["csrf=abc"], sent: ["csrf=abc; sid=1"]),
        OwnCookiesCase(testDescription: "a name both have: the caller's value", own: ["sid=mine; csrf=abc"], sent: ["sid=mine; csrf=abc"]),
        OwnCookiesCase(
            testDescription: "several fields of the caller's, one field sent", own: ["a=1", "b=2"], sent: ["a=1; b=2; sid=1"]),
        OwnCookiesCase(
            testDescription: "a hop to the same origin keeps them", own: ["csrf=abc"], hops: [(302, "https://a.test/next", [])],
            sent: ["csrf=abc; sid=1", "csrf=abc; sid=1"]),
        OwnCookiesCase(
            testDescription: "a response deleting one: gone from the next hop, the others kept", own: ["csrf=abc; keep=1"],
            hops: [(302, "https://a.test/next", ["csrf=; Max-Age=0"])], sent: ["csrf=abc; keep=1; sid=1", "keep=1; sid=1"]),
        OwnCookiesCase(
            testDescription: "a response setting one: the jar's value from then on", own: ["sid=mine"],
            hops: [(302, "https://a.test/next", ["sid=2"])], sent: ["sid=mine", "sid=2"]),
        OwnCookiesCase(
            testDescription: "a hop to another origin, and back: none of the caller's", own: ["csrf=abc"],
            hops: [(302, "https://b.test/x", []), (302, "https://a.test/back", [])], sent: ["csrf=abc; sid=1", nil, "sid=1"]),
    ]

    @Test(arguments: ownCookiesCases)
    func ownCookies(_ testCase: OwnCookiesCase) throws {
        let (jar, _) = makeTestJar()
        jar.receive("sid=1", from: url("https://a.test/"))
        var chain = RedirectChain(url: "https://a.test/start", method: "GET", jar: jar, ownCookies: testCase.own)
        var sent = [try chain.cookieHeader()]
        for hop in testCase.hops {
            chain.receive(hop.setCookies)
            _ = try #require(try chain.follow(status: hop.status, to: hop.location))
            sent.append(try chain.cookieHeader())
        }
        #expect(sent == testCase.sent)
    }

    /// A request sent a second time unchanged (method, URL, cookies) is a loop; the same URL with other
    /// cookies is not (a sign-in that sets a cookie and comes back).
    @Test("loops")
    func loops() throws {
        let (jar, _) = makeTestJar()
        var chain = RedirectChain(url: "https://a.test/a", method: "GET", jar: jar)
        _ = try chain.cookieHeader()
        chain.receive(["step=1"])
        _ = try chain.follow(status: 302, to: "https://a.test/a")
        _ = try chain.cookieHeader()
        _ = try chain.follow(status: 302, to: "https://a.test/b")
        _ = try chain.cookieHeader()
        _ = try chain.follow(status: 302, to: "https://a.test/a")
        let error = #expect(throws: RedirectError.self) { try chain.cookieHeader() }
        #expect(error?.hops.map(\.description) == [
            "GET https://a.test/a → 302", "GET https://a.test/a → 302", "GET https://a.test/b → 302", "GET https://a.test/a",
        ])
        #expect(error?.description.hasPrefix("redirect loop: GET https://a.test/a → 302, ") == true)
    }

    /// A request that goes without the jar's cookies (a `URLRequest` whose `httpShouldHandleCookies` is
    /// false) carries its own alone, and is a loop when sent a second time unchanged, as any request.
    @Test("a request without the jar's cookies: its own alone, loops found")
    func withoutTheJarsCookies() throws {
        let (jar, _) = makeTestJar()
        jar.receive("sid=1", from: url("https://a.test/"))
        var chain = RedirectChain(url: "https://a.test/a", method: "GET", jar: jar, ownCookies: ["csrf=abc"])
        #expect(try chain.cookieHeader(includingJarCookies: false) == "csrf=abc")
        _ = try chain.follow(status: 302, to: "https://a.test/a")
        #expect(throws: RedirectError.self) { try chain.cookieHeader(includingJarCookies: false) }
    }

    struct LocationFieldsCase: Sendable, CustomTestStringConvertible {
        let status: Int
        let values: [String]
        /// The one Location, or nil when there is none or the response throws.
        let location: String?
        let throwsNaming: [String]?
        var testDescription: String { "\(status) with Location fields \(values)" }
    }

    /// A response's Location fields. Fetch's "location URL" extracts the `Location` header list values,
    /// which is failure (a network error) when a field whose grammar allows one value (RFC 9110 §10.2.2:
    /// `Location = URI-reference`) comes more than once; Chromium refuses such a response
    /// (ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION) only when the values differ, and this project's contract
    /// follows it: equal fields are one. Fetch reads Location only for a redirect status (step 1).
    static let locationFieldsCases: [LocationFieldsCase] = [
        LocationFieldsCase(status: 302, values: [], location: nil, throwsNaming: nil),
        LocationFieldsCase(status: 302, values: ["/next"], location: "/next", throwsNaming: nil),
        LocationFieldsCase(status: 302, values: ["/next", "/next"], location: "/next", throwsNaming: nil),
        LocationFieldsCase(
            status: 302, values: ["https://good.test/", "https://evil.test/"], location: nil,
            throwsNaming: ["https://good.test/", "https://evil.test/"]),
        LocationFieldsCase(
            status: 307, values: ["/a", "/a", "/b"], location: nil, throwsNaming: ["/a", "/b"]),
        LocationFieldsCase(status: 201, values: ["/a", "/b"], location: "/a", throwsNaming: nil),
    ]

    @Test(arguments: locationFieldsCases)
    func locationFields(_ testCase: LocationFieldsCase) throws {
        let (jar, _) = makeTestJar()
        var chain = RedirectChain(url: "https://a.test/x", method: "GET", jar: jar)
        guard let named = testCase.throwsNaming else {
            #expect(try chain.location(status: testCase.status, values: testCase.values) == testCase.location)
            return
        }
        let error = #expect(throws: RedirectError.self) {
            try chain.location(status: testCase.status, values: testCase.values)
        }
        #expect(error == .severalLocations(named, hops: chain.hops))
        #expect(chain.hops.map(\.description) == ["GET https://a.test/x → \(testCase.status)"])
        let quoted = named.map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(error?.description
            == "redirect with several different Location fields (\(quoted)): GET https://a.test/x → \(testCase.status)")
    }

    /// Fetch: at most 20 redirects; a Location that is no http(s) URL is a network error.
    @Test("limits and schemes")
    func limits() throws {
        let (jar, _) = makeTestJar()
        var chain = RedirectChain(url: "https://a.test/0", method: "GET", jar: jar, maximumRedirects: 2)
        _ = try chain.follow(status: 301, to: "https://a.test/1")
        _ = try chain.follow(status: 301, to: "https://a.test/2")
        let error = #expect(throws: RedirectError.self) { try chain.follow(status: 301, to: "https://a.test/3") }
        #expect(error?.description == "more than 2 redirects: GET https://a.test/0 → 301, GET https://a.test/1 → 301, GET https://a.test/2 → 301")
        #expect(RedirectChain.defaultMaximumRedirects == 20)

        var other = RedirectChain(url: "https://a.test/0", method: "GET", jar: jar)
        #expect(throws: RedirectError.self) { try other.follow(status: 302, to: "ftp://a.test/file") }
        #expect(try other.follow(status: 302, to: nil) == nil)
    }
}
