import Testing

@testable import Cookies

/// The canonical-domain entry points of `PublicSuffixList` (PublicSuffixList+Host.swift): a trailing dot
/// (an absolute name, RFC 1034 §3.1) is set aside for the list and put back on the answer; empty labels
/// at either end have no registrable domain. The list is the pinned test list.
struct PublicSuffixHostTests {
    static let registrableRows: [(domain: String, expected: String?, source: String)] = [
        ("www.example.com", "example.com", "PSL algorithm: the rule \"com\" plus one label"),
        ("www.example.com.", "example.com.", "a trailing dot is kept on the answer"),
        ("example.com", "example.com", "the registrable domain of itself"),
        ("com", nil, "a public suffix has none"),
        ("com.", nil, "a public suffix with a trailing dot has none"),
        (".", nil, "the root: an empty label"),
        ("", nil, "empty"),
        (".example.com", nil, "an empty first label"),
        ("example.com..", nil, "an empty last label before the trailing dot"),
        ("a..com", nil, "an empty label inside: the list places no such name (it was \".com\", one site for every x..com)"),
        ("www.a..example.com", nil, "an empty label left of the registrable domain: no name the DNS has"),
        ("a.b.example.co.uk", "example.co.uk", "PSL algorithm: the rule \"co.uk\""),
        ("1.2.3.4", nil, "an IPv4 address (the domain of an IP host's cookie) has none, as for the host"),
        ("[2001:db8::1]", nil, "an IPv6 address has none"),
        ("a.1", nil, "WHATWG URL IPv4 parser: a name ending in a number reads as an address (an invalid one)"),
        ("example.0x7f", nil, "WHATWG URL IPv4 parser: a hexadecimal last part is a number too"),
        ("example.1com", "example.1com", "a last label starting with a digit but no number: a name (the \"*\" rule)"),
        ("a.www.ck", "www.ck", "PSL algorithm: the exception rule \"!www.ck\""),
        ("a.b.ck", "a.b.ck", "PSL algorithm: the wildcard rule \"*.ck\""),
    ]

    @Test(arguments: registrableRows.indices)
    func registrableDomain(_ row: Int) {
        let (domain, expected, source) = Self.registrableRows[row]
        #expect(testPublicSuffixList.registrableDomain(ofCanonicalDomain: domain) == expected, "\(source): \(domain)")
    }

    /// A list that answers only with Strings: the protocol's default `registrableDomainStart(inUTF8:)`.
    struct StringsOnlyList: PublicSuffixList {
        let rules: PublicSuffixRules
        func registrableDomain(of domain: String) -> String? { rules.registrableDomain(of: domain) }
    }

    /// The offset a list gives for the bytes (the store's question) is where the String it gives starts,
    /// for the list that reads bytes and for a list that answers with Strings alone.
    @Test(arguments: registrableRows.indices)
    func registrableDomainStartAgreesWithTheString(_ row: Int) {
        let (domain, expected, source) = Self.registrableRows[row]
        let expectedStart = expected.map { domain.utf8.count - $0.utf8.count }
        for list: any PublicSuffixList in [testPublicSuffixList, StringsOnlyList(rules: testPublicSuffixList)] {
            let start = domain.withUTF8Bytes { list.registrableDomainStart(ofCanonicalDomain: $0) }
            #expect(start == expectedStart, "\(source): \(domain)")
        }
    }

    /// A list that answers something other than a suffix of the domain breaks the protocol's contract:
    /// its answer counts as none, and the jar files the host under itself rather than read out of bounds.
    @Test func anAnswerThatIsNoSuffixCountsAsNone() {
        struct BrokenList: PublicSuffixList {
            func registrableDomain(of domain: String) -> String? { "a-much-longer-answer.example" }
        }
        #expect("www.example.com".withUTF8Bytes { BrokenList().registrableDomainStart(inUTF8: $0) } == nil)
        #expect("b.example".withUTF8Bytes { BrokenList().registrableDomainStart(inUTF8: $0) } == nil)
        #expect("www.a-much-longer-answer.example.org".withUTF8Bytes { BrokenList().registrableDomainStart(inUTF8: $0) } == nil)
        let jar = CookieJar(publicSuffixList: BrokenList())
        jar.receive("a=1", from: CookieURL("https://www.example.com/")!)
        #expect(jar.cookieHeader(for: CookieURL("https://www.example.com/")!) == "a=1")
    }

    static let suffixRows: [(domain: String, expected: Bool, source: String)] = [
        ("com", true, "a rule of the list"),
        ("com.", true, "a trailing dot is ignored"),
        ("co.uk", true, "a rule of the list"),
        ("example.com", false, "a registrable domain"),
        ("example.com.", false, "a registrable domain with a trailing dot"),
        (".", false, "the root alone is not a suffix"),
        ("com..", true, "an empty label before the trailing dot: no name the list places, so no Domain attribute may name it"),
        ("a..com", true, "an empty label inside: likewise"),
        (".com", true, "an empty first label: likewise"),
        ("", false, "empty"),
    ]

    @Test(arguments: suffixRows.indices)
    func isPublicSuffix(_ row: Int) {
        let (domain, expected, source) = Self.suffixRows[row]
        #expect(domain.withUTF8Bytes { testPublicSuffixList.isPublicSuffix(canonicalDomain: $0) } == expected, "\(source): \(domain)")
    }

    /// The public `isPublicSuffix(_:)` takes a name as a URL's host may be written, canonicalised first
    /// (`CanonicalHost`, WHATWG URL host parsing): its answers are those of the canonical name; an IP
    /// address is none, and a name that is no host counts as one (no cookie may name it).
    @Test(arguments: [
        ("CO.UK", true, "upper case: co.uk"),
        ("co.uk.", true, "a trailing dot: co.uk"),
        ("Example.CO.uk", false, "upper case: example.co.uk, a registrable domain"),
        ("b.CK", true, "the wildcard rule *.ck, whatever the case"),
        ("WWW.ck", false, "the exception rule !www.ck, whatever the case"),
        ("192.168.0.1", false, "an IP address is no public suffix (the \"*\" rule would read \"1\")"),
        ("[::1]", false, "an IPv6 address neither"),
        ("a b", true, "no host: no cookie may name it"),
        ("", true, "no host either"),
    ] as [(String, Bool, String)])
    func isPublicSuffixOfANameAsWritten(_ name: String, _ expected: Bool, _ source: String) {
        #expect(testPublicSuffixList.isPublicSuffix(name) == expected, "\(source): \(name)")
    }

    /// A cookie's domain and a request's host name the same site, whichever was looked up first: the
    /// store caches both lookups in one table (an IP host's cookie would otherwise be filed under "3.4",
    /// by the list's "*" rule, when its domain was looked up first).
    @Test(arguments: ["1.2.3.4", "www.example.com", "example.com.", "[2001:db8::1]"])
    func cookieDomainAndHostShareTheirSite(_ name: String) throws {
        let host = try #require(CanonicalHost(name))
        var domainFirst = CookieStore(publicSuffixList: testPublicSuffixList, limits: .default)
        let fromDomain = domainFirst.siteKey(ofCookieDomain: host.name)
        var hostFirst = CookieStore(publicSuffixList: testPublicSuffixList, limits: .default)
        #expect(fromDomain == hostFirst.siteKey(of: host))
        #expect(fromDomain == domainFirst.siteKey(of: host))
        #expect(hostFirst.siteKey(ofCookieDomain: host.name) == fromDomain)
    }
}
