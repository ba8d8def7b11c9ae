import Testing

@testable import Cookies

/// A partition key handed to `insert(_:)` (an imported file's, JSON taking any string) is stored in the form
/// the jar computes a request's partition: CHIPS keys a partition by the top-level site, which HTML
/// serialises `scheme://` + registrable domain (the jar's `site(of:)`: the scheme as a URL has it, lower
/// case, ws and wss as http and https; the host canonical, §5.1.2; its registrable domain through the jar's
/// public suffix list, here the test list). Written otherwise, a key was stored and never matched any
/// request; one that names no top-level site is refused.
struct InsertedPartitionKeyTests {
    static let keys: [(key: String, stored: String?, source: String)] = [
        ("https://top.example", "https://top.example", "CHIPS: a top-level site as the jar computes it"),
        ("http://top.example", "http://top.example", "HTML: a site's scheme is http or https"),
        ("https://TOP.example", "https://top.example", "§5.1.2: a host is lower-cased"),
        ("HTTPS://top.example", "https://top.example", "RFC 3986 §3.1: a scheme is case-insensitive, lower case canonical"),
        ("https://www.top.example", "https://top.example", "HTML: a site is the registrable domain of the host"),
        ("https://b\u{FC}cher.example", "https://xn--bcher-kva.example", "§5.1.2: IDNA A-labels"),
        ("https://a.b.co.uk", "https://b.co.uk", "the registrable domain under a public suffix of two labels"),
        ("https://x.user.github.io", "https://user.github.io", "a private public suffix (github.io)"),
        ("https://[::1]", "https://[::1]", "an IPv6 address is its own site"),
        ("https://127.0.0.1", "https://127.0.0.1", "an IPv4 address is its own site"),
        ("top.example", nil, "no scheme: no site"),
        ("https://top.example:8443", nil, "a port: the jar keys no partition by one"),
        ("https://top.example/", nil, "a path: a URL, not a site"),
        ("https://user@top.example", nil, "user information: a URL, not a site"),
        ("wss://top.example", "https://top.example", "§5.2: ws and wss count as http and https in a site"),
        ("capacitor://localhost", "capacitor://localhost", "an app's own scheme, as the jar computes a page's of it"),
        ("https://", nil, "no host"),
        ("https://a b.example", nil, "a host no URL could have (WHATWG URL: a space is a forbidden host code point)"),
    ]

    @Test(arguments: keys)
    func aPartitionKeyIsStoredAsTheJarComputesIt(key: String, stored: String?, source: String) {
        let (jar, _) = makeTestJar()
        let cookie = Cookie(
            name: "p", value: "1", domain: "embed.example", expiry: testEpoch.adding(seconds: 3600), creation: testEpoch,
            isSecure: true, sameSite: .none, partitionKey: key, isSourceSecure: true)
        let outcome = jar.insert(cookie)
        guard let stored else {
            #expect(outcome == .rejected(.invalidPartitionKey), "\(source)")
            #expect(jar.allCookies().isEmpty, "\(source)")
            return
        }
        #expect(outcome.cookie?.partitionKey == stored, "\(source)")
        #expect(jar.allCookies().map(\.partitionKey) == [stored], "\(source)")
        // The cookie goes on a request embedded under a page of that site (the partition is the page's site).
        guard let site = CookieURL(stored + "/") else { return }
        let context = CookieRequestContext(siteForCookies: .origin(site), partition: site)
        #expect(jar.cookieHeader(for: url("https://embed.example/"), context: context) == "p=1", "\(source)")
    }

    /// Two keys naming one site are one partition: the later cookie replaces the earlier (§5.7 step 23).
    @Test func keysNamingOneSiteAreOnePartition() {
        let (jar, _) = makeTestJar()
        let cookies = ["https://top.example", "https://WWW.top.example"].enumerated().map { index, key in
            Cookie(
                name: "p", value: "\(index)", domain: "embed.example", creation: testEpoch, isSecure: true, partitionKey: key)
        }
        let report = jar.insert(contentsOf: cookies)
        #expect(report.stored == 2 && report.superseded == 1)
        #expect(jar.allCookies().map(\.value) == ["1"])
    }
}
