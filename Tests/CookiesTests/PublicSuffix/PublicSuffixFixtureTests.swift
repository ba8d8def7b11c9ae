import Foundation
import Testing
@testable import Cookies

/// Both implementations loaded from the hand-written fixture `Fixtures/public_suffix_list.dat`.
enum PublicSuffixFixtureLists {
    static func all() throws -> [(name: String, list: any PublicSuffixList)] {
        let path = try #require(
            Bundle.module.path(forResource: "public_suffix_list", ofType: "dat", inDirectory: "Fixtures"),
            "Fixtures/public_suffix_list.dat is missing from the test bundle")
        var lists: [(name: String, list: any PublicSuffixList)] = [
            ("PublicSuffixRules", try PublicSuffixRules(contentsOfFile: path)),
        ]
        #if LibPSL && canImport(CLibPSL)
        lists.append(("LibPSLList", try LibPSLList(contentsOfFile: path)))
        #endif
        return lists
    }
}

/// checkPublicSuffix(input, expected) vectors in the style of the upstream test file
/// (github.com/publicsuffix/list tests/test_psl.txt): `expected` is the registrable domain or nil. Our own vectors,
/// written for the rules in the fixture. Facts: PSL rule semantics from the publicsuffix.org/list wiki "Format" and
/// "Algorithm"; where marked "wildcard parent", libpsl's behaviour (a name with a "*." rule below it is a public
/// suffix), which PublicSuffixRules adopts on purpose. Like the upstream runners, inputs and expectations are passed
/// through IDNA ToASCII first, so Unicode vectors exercise the A-label form of the Unicode rules.
private let checkPublicSuffixVectors: [(input: String, expected: String?)] = [
    // Leading dot: no registrable domain (caller-facing behaviour of both implementations).
    (".com", nil),
    (".example", nil),
    (".example.com", nil),
    (".example.example", nil),
    // Unlisted TLD: the implicit "*" rule.
    ("example", nil),
    ("example.example", "example.example"),
    ("b.example.example", "example.example"),
    ("a.b.example.example", "example.example"),
    // TLD with one rule.
    ("com", nil),
    ("example.com", "example.com"),
    ("b.example.com", "example.com"),
    ("a.b.example.com", "example.com"),
    // Second-level rule.
    ("uk", nil),
    ("co.uk", nil),
    ("example.co.uk", "example.co.uk"),
    ("www.example.co.uk", "example.co.uk"),
    ("example.uk", "example.uk"),
    // Wildcard rule without its parent listed.
    ("sch.uk", nil), // wildcard parent
    ("school.sch.uk", nil),
    ("www.school.sch.uk", "www.school.sch.uk"),
    ("a.www.school.sch.uk", "www.school.sch.uk"),
    // Normal rules two levels deep.
    ("jp", nil),
    ("test.jp", "test.jp"),
    ("www.test.jp", "test.jp"),
    ("ac.jp", nil),
    ("test.ac.jp", "test.ac.jp"),
    ("www.test.ac.jp", "test.ac.jp"),
    ("kyoto.jp", nil),
    ("test.kyoto.jp", "test.kyoto.jp"),
    ("ide.kyoto.jp", nil),
    ("b.ide.kyoto.jp", "b.ide.kyoto.jp"),
    ("a.b.ide.kyoto.jp", "b.ide.kyoto.jp"),
    // Wildcard with an exception.
    ("kawasaki.jp", nil), // wildcard parent
    ("c.kawasaki.jp", nil),
    ("b.c.kawasaki.jp", "b.c.kawasaki.jp"),
    ("a.b.c.kawasaki.jp", "b.c.kawasaki.jp"),
    ("city.kawasaki.jp", "city.kawasaki.jp"),
    ("www.city.kawasaki.jp", "city.kawasaki.jp"),
    // Wildcard TLD with an exception.
    ("ck", nil),
    ("test.ck", nil),
    ("b.test.ck", "b.test.ck"),
    ("a.b.test.ck", "b.test.ck"),
    ("www.ck", "www.ck"),
    ("www.www.ck", "www.ck"),
    // A deep chain of rules.
    ("us", nil),
    ("test.us", "test.us"),
    ("ma.us", nil),
    ("test.ma.us", "test.ma.us"),
    ("k12.ma.us", nil),
    ("test.k12.ma.us", "test.k12.ma.us"),
    ("pvt.k12.ma.us", nil),
    ("school.pvt.k12.ma.us", "school.pvt.k12.ma.us"),
    ("www.school.pvt.k12.ma.us", "school.pvt.k12.ma.us"),
    // Unicode rules, given in Unicode and in A-labels.
    ("食狮.com.cn", "食狮.com.cn"),
    ("食狮.公司.cn", "食狮.公司.cn"),
    ("www.食狮.公司.cn", "食狮.公司.cn"),
    ("shishi.公司.cn", "shishi.公司.cn"),
    ("公司.cn", nil),
    ("食狮.中国", "食狮.中国"),
    ("www.食狮.中国", "食狮.中国"),
    ("中国", nil),
    ("xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
    ("www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
    ("xn--55qx5d.cn", nil),
    ("xn--fiqs8s", nil),
    ("рф", nil),
    ("пример.рф", "пример.рф"),
    ("www.xn--e1afmkfd.xn--p1ai", "xn--e1afmkfd.xn--p1ai"),
    // A rule below an unlisted name: "forgot.his.name" and "name" are rules, "his.name" is not.
    ("his.name", "his.name"),
    ("www.his.name", "his.name"),
    ("forgot.his.name", nil),
    ("a.forgot.his.name", "a.forgot.his.name"),
    // Only the first token of a line is a rule; leading whitespace is skipped.
    ("other.net", "other.net"),
    ("www.other.net", "other.net"),
    ("ltd.uk", nil),
    ("example.ltd.uk", "example.ltd.uk"),
    // PRIVATE section: a rule under an unlisted TLD, and a wildcard rule.
    ("io", nil),
    ("example.io", "example.io"),
    ("github.io", nil),
    ("user.github.io", "user.github.io"),
    ("www.user.github.io", "user.github.io"),
    ("amazonaws.com", "amazonaws.com"),
    ("compute.amazonaws.com", nil), // wildcard parent
    ("region.compute.amazonaws.com", nil),
    ("host.region.compute.amazonaws.com", "host.region.compute.amazonaws.com"),
]

@Test(arguments: checkPublicSuffixVectors)
func checkPublicSuffix(input: String, expected: String?) throws {
    let domain = try #require(IDNA.toASCII(input))
    let expectedDomain = try expected.map { try #require(IDNA.toASCII($0)) }
    for (name, list) in try PublicSuffixFixtureLists.all() {
        #expect(list.registrableDomain(of: domain) == expectedDomain, "\(name): \(input)")
    }
}

/// The lists' own `registrableDomain(of:)` takes a name as a URL's host may be written, as `isPublicSuffix(_:)`
/// does, and canonicalises it first (`CanonicalHost`: WHATWG URL host parsing, IDNA ToASCII): a raw lookup of
/// the text as given would answer "CO.UK" for an upper-case name, "uk." for one with a trailing dot, the
/// Unicode suffix itself for a Unicode name, and "0.1" (the "*" rule) for an IPv4 address.
private let namesAsWritten: [(name: String, expected: String?, source: String)] = [
    ("WWW.EXAMPLE.CO.UK", "example.co.uk", "upper case: the rule co.uk plus one label"),
    ("www.example.co.uk.", "example.co.uk.", "a trailing dot, kept on the answer (an absolute name, RFC 1034 §3.1)"),
    ("www.食狮.公司.cn", "xn--85x722f.xn--55qx5d.cn", "Unicode: the rule 公司.cn (xn--55qx5d.cn) plus one label, as A-labels"),
    ("CO.UK", nil, "a public suffix in upper case"),
    ("192.168.0.1", nil, "an IPv4 address has no registrable domain"),
    ("[::1]", nil, "an IPv6 address neither"),
    ("a b", nil, "no host"),
]

@Test(arguments: namesAsWritten.indices)
func registrableDomainOfANameAsWritten(_ row: Int) throws {
    let (name, expected, source) = namesAsWritten[row]
    for (list, rules) in try PublicSuffixFixtureLists.all() {
        #expect(rules.registrableDomain(of: name) == expected, "\(list), \(source): \(name)")
    }
}

/// isPublicSuffix on the fixture. Facts: publicsuffix.org/list wiki "Algorithm" (the "*" rule makes every single
/// label a public suffix) and libpsl's wildcard-parent behaviour.
private let isPublicSuffixVectors: [(domain: String, isSuffix: Bool)] = [
    ("com", true),
    ("example", true),
    ("example.com", false),
    ("co.uk", true),
    ("example.co.uk", false),
    ("kawasaki.jp", true),
    ("c.kawasaki.jp", true),
    ("city.kawasaki.jp", false),
    ("www.ck", false),
    ("test.ck", true),
    ("pvt.k12.ma.us", true),
    ("xn--55qx5d.cn", true),
    ("github.io", true),
    ("user.github.io", false),
]

@Test(arguments: isPublicSuffixVectors)
func isPublicSuffixOnFixture(domain: String, isSuffix: Bool) throws {
    for (name, list) in try PublicSuffixFixtureLists.all() {
        #expect(list.isPublicSuffix(domain) == isSuffix, "\(name): \(domain)")
    }
}
