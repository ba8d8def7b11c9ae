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
        ("a.b.example.co.uk", "example.co.uk", "PSL algorithm: the rule \"co.uk\""),
    ]

    @Test(arguments: registrableRows.indices)
    func registrableDomain(_ row: Int) {
        let (domain, expected, source) = Self.registrableRows[row]
        #expect(testPublicSuffixList.registrableDomain(ofCanonicalDomain: domain) == expected, "\(source): \(domain)")
    }

    static let suffixRows: [(domain: String, expected: Bool, source: String)] = [
        ("com", true, "a rule of the list"),
        ("com.", true, "a trailing dot is ignored"),
        ("co.uk", true, "a rule of the list"),
        ("example.com", false, "a registrable domain"),
        ("example.com.", false, "a registrable domain with a trailing dot"),
        (".", false, "the root alone is not a suffix"),
        ("", false, "empty"),
    ]

    @Test(arguments: suffixRows.indices)
    func isPublicSuffix(_ row: Int) {
        let (domain, expected, source) = Self.suffixRows[row]
        #expect(testPublicSuffixList.isPublicSuffix(canonicalDomain: domain) == expected, "\(source): \(domain)")
    }
}
