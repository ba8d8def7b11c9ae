import Testing

@_spi(Fuzzing) @testable import Cookies

/// `PublicSuffixList.site(of:)` (PublicSuffixList+Site.swift): a cookie's site is its domain's registrable
/// domain (PSL algorithm, publicsuffix.org/list), or the domain itself when it has none; and it is the key
/// the jar files the cookie under. The list is the pinned test list.
struct PublicSuffixListSiteTests {
    static let rows: [(domain: String, isHostOnly: Bool, site: String, source: String)] = [
        ("www.example.com", true, "example.com", "PSL algorithm: the rule \"com\" plus one label"),
        ("example.com", false, "example.com", "a domain cookie of a registrable domain"),
        ("a.b.example.co.uk", false, "example.co.uk", "PSL algorithm: the rule \"co.uk\""),
        ("www.example.com.", true, "example.com.", "a trailing dot is kept (an absolute name, RFC 1034 §3.1)"),
        ("github.io", true, "github.io", "a host-only cookie of a public suffix (§5.7 step 9) is its own site"),
        ("user.github.io", false, "user.github.io", "the private section: \"github.io\" plus one label"),
        ("localhost", true, "localhost", "a single label, a suffix by the \"*\" rule: itself"),
        ("192.0.2.1", true, "192.0.2.1", "an IPv4 host's cookie: an address has no registrable domain"),
        ("[2001:db8::1]", true, "[2001:db8::1]", "an IPv6 host's cookie, likewise"),
    ]

    @Test(arguments: rows.indices)
    func siteOfACookieIsWhereTheJarFilesIt(_ row: Int) {
        let (domain, isHostOnly, site, source) = Self.rows[row]
        let cookie = Cookie(
            name: "c", value: "1", domain: domain, isHostOnly: isHostOnly, expiry: testEpoch.adding(seconds: 3600),
            creation: testEpoch)
        #expect(testPublicSuffixList.site(of: cookie) == site, "\(source): \(domain)")
        let (jar, _) = makeTestJar()
        jar.insert(cookie)
        #expect(Array(jar.storedCookiesBySite().keys) == [site], "the jar's site key, \(source)")
        #expect(jar.cookies(forSite: site) == [cookie], "CookieJar.cookies(forSite:) with the site")
    }

    /// A request's host and a host-only cookie of that host have the same site.
    @Test(arguments: ["www.example.com", "192.0.2.1", "[2001:db8::1]", "github.io"])
    func siteOfAHostIsThatOfItsHostOnlyCookie(_ name: String) throws {
        let host = try #require(CanonicalHost(name))
        let cookie = Cookie(name: "c", value: "1", domain: host.name, creation: testEpoch)
        #expect(testPublicSuffixList.site(of: host) == testPublicSuffixList.site(of: cookie))
    }
}
