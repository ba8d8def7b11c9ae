import Testing
@testable import Cookies

/// IDNA.toASCII. Facts: RFC 5891 §4.4 (a U-label becomes "xn--" + Punycode, RFC 3492), UTS #46 §4 (label separators
/// U+002E, U+3002, U+FF0E, U+FF61), RFC 6265bis §5.1.2 (hosts are compared lower-cased). A-labels checked with
/// an independent RFC 3492 implementation (Python's "punycode" codec).
private let toASCIIVectors: [(input: String, expected: String?)] = [
    // Already canonical: returned unchanged.
    ("example.com", "example.com"),
    ("", ""),
    ("xn--bcher-kva.example", "xn--bcher-kva.example"),
    // Upper-case ASCII is lower-cased.
    ("WwW.Example.COM", "www.example.com"),
    ("SUPPORT.KELSHOP-LONGER-THAN-A-SMALL-STRING.IO", "support.kelshop-longer-than-a-small-string.io"),
    ("XN--BCHER-KVA.Example.", "xn--bcher-kva.example."),
    ("A-Z@[`{~.09", "a-z@[`{~.09"),
    // U-labels become A-labels.
    ("bücher.example", "xn--bcher-kva.example"),
    ("食狮.公司.cn", "xn--85x722f.xn--55qx5d.cn"),
    ("пример.рф", "xn--e1afmkfd.xn--p1ai"),
    // Mixed case: lower-cased before encoding.
    ("BÜCHER.Example", "xn--bcher-kva.example"),
    ("ПРИМЕР.РФ", "xn--e1afmkfd.xn--p1ai"),
    // The other label separators become U+002E.
    ("bücher\u{3002}example", "xn--bcher-kva.example"),
    ("bücher\u{FF0E}example", "xn--bcher-kva.example"),
    ("bücher\u{FF61}example", "xn--bcher-kva.example"),
    ("食狮\u{3002}中国", "xn--85x722f.xn--fiqs8s"),
    // Empty labels are kept: a trailing dot stays, as do leading and doubled dots.
    ("example.com.", "example.com."),
    ("bücher.example.", "xn--bcher-kva.example."),
    ("bücher\u{3002}", "xn--bcher-kva."),
    (".bücher", ".xn--bcher-kva"),
    ("a..bücher", "a..xn--bcher-kva"),
    // Labels longer than 63 octets are not rejected (UTS #46 VerifyDnsLength=false).
    (String(repeating: "ü", count: 70), "xn--td" + String(repeating: "a", count: 70)),
    // UTS #46 §4 step 2: NFC first, so a decomposed "é" is the precomposed one (A-label from Python's "idna"
    // codec on "éxample.com").
    ("e\u{301}xample.com", "xn--xample-9ua.com"),
    // Nontransitional processing (UTS #46 §4, the WHATWG URL standard's) keeps the deviation characters ß and ς.
    ("straße.de", "xn--strae-oqa.de"),
    ("ς.gr", "xn--3xa.gr"),
    // Code points UTS #46 maps to others (Changes_When_NFKC_Casefolded) are refused rather than encoded as
    // written (this library's deviation, IDNA.isMappedAway): fullwidth "ｕｋ" is "uk" in a browser, so
    // "attacker.co.ｕｋ" is a host of the public suffix co.uk there; fullwidth digits and solidus, U+00AD SOFT
    // HYPHEN (ignored by the table), a ligature.
    ("attacker.co.\u{FF55}\u{FF4B}", nil),
    ("\u{FF11}\u{FF12}\u{FF17}.0.0.1", nil),
    ("evil.com\u{FF0F}.good.com", nil),
    ("ex\u{AD}ample.com", nil),
    ("\u{FB01}le.com", nil),
    // Code points of the classes UTS #46 disallows (IDNA Mapping Table status "disallowed"): a C1 control
    // (U+009B, a CSI to a terminal), U+1680 OGHAM SPACE MARK (Zs), U+2028 LINE SEPARATOR, a private-use code
    // point, an unassigned one and a noncharacter (Cn).
    ("ex\u{9B}.com", nil),
    ("ex\u{1680}ample.com", nil),
    ("ex\u{2028}ample.com", nil),
    ("\u{E000}.example", nil),
    ("\u{0378}.example", nil),
    ("\u{FFFF}.example", nil),
    // A symbol UTS #46 keeps (status "valid", NV8), as a browser does.
    ("\u{2603}.example", "xn--n3h.example"),
    // A label whose Punycode deltas overflow (RFC 3492 §6.4) cannot be converted: a CJK Extension B
    // ideograph after 40,000 "é", 40,001 × 0x1FF17 past 2^32.
    (String(repeating: "é", count: 40_000) + "\u{20000}.com", nil),
]

@Test(arguments: toASCIIVectors)
func idnaToASCII(input: String, expected: String?) {
    #expect(IDNA.toASCII(input) == expected)
}

/// The fast path returns the very same string storage for lower-case ASCII input (no copy).
@Test func idnaToASCIIFastPathKeepsStorage() throws {
    let host = String(repeating: "long-label.", count: 8) + "example.com"
    let result = try #require(IDNA.toASCII(host))
    let inputStorage = host.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
    let outputStorage = result.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
    #expect(inputStorage != nil && inputStorage == outputStorage)
}

