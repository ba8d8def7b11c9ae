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
    // The joiners U+200C and U+200D, deviation characters that UTS #46 nontransitional processing with
    // CheckJoiners (the WHATWG URL standard's, a browser's) keeps where RFC 5892 Appendix A (CONTEXTJ) allows
    // them: after a virama (A.1, A.2); U+200C between a dual- or left-joining letter and a right- or dual-joining
    // one, transparent marks (Joining_Type T) between (A.1). A-labels from Python's "idna" package (IDNA2008,
    // CONTEXTJ checked), which gives the same as its "punycode" codec on these.
    ("\u{0646}\u{06CC}\u{0645}\u{200C}\u{0641}\u{0627}\u{0635}\u{0644}\u{0647}.ir", "xn--mgb2a8aobfm27hh82m.ir"),  // Persian "نیم‌فاصله": meem (D), feh (D)
    ("\u{0645}\u{0646}\u{200C}\u{0648}.example", "xn--hhbcg794x.example"),  // noon (D), waw (R)
    ("\u{0628}\u{200C}\u{0627}.example", "xn--mgbb899q.example"),  // beh (D), alef (R)
    ("\u{0644}\u{064B}\u{200C}\u{064B}\u{0628}.example", "xn--ngb9cvaa8704a.example"),  // fathatan (Mn, T) on both sides
    ("\u{0915}\u{094D}\u{200D}\u{0937}.in", "xn--11b2ezcw70k.in"),  // Devanagari "क्‍ष": virama, then U+200D (A.2)
    ("\u{0915}\u{094D}\u{200C}\u{0937}.in", "xn--11b2ezcs70k.in"),  // virama, then U+200C (A.1)
    ("\u{0D92}\u{0DCA}\u{200D}\u{0D9A}.lk", "xn--vzcq7lz16e.lk"),  // Sinhala al-lakuna (a virama), then U+200D
    ("\u{1E922}\u{1E94B}\u{200C}\u{1E922}.example", "xn--0ug1411pba6n.example"),  // Adlam sha (D), nasalization mark (Lm, T)
    // Joiners out of context: refused, as the "idna" package and a browser refuse them.
    ("a\u{200C}b.example", nil),  // Latin letters do not join (Joining_Type U)
    ("a\u{200D}b.example", nil),  // U+200D after no virama
    ("\u{0627}\u{200C}\u{0628}.example", nil),  // alef (R) joins on its right only: nothing joins on the left
    ("\u{200C}\u{0641}\u{0627}.example", nil),  // at the start of the label
    ("\u{0641}\u{200C}.example", nil),  // at its end
    ("\u{0628}\u{200C}\u{200C}\u{0627}.example", nil),  // a joiner is no transparent mark
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


/// Joining_Type as RFC 5892's CONTEXTJ rule reads it. Facts: Unicode's ArabicShaping.txt and
/// DerivedJoiningType.txt (the first and last code points of the tables' ranges, and the marks and format
/// characters it lists as non-joining).
private let joiningTypes: [(scalar: Unicode.Scalar, type: JoiningType, source: String)] = [
    ("\u{0620}", .dual, "ARABIC LETTER KASHMIRI YEH, the first D"),
    ("\u{0645}", .dual, "ARABIC LETTER MEEM"),
    ("\u{1E943}", .dual, "ADLAM SMALL LETTER SHA, the last D"),
    ("\u{0627}", .right, "ARABIC LETTER ALEF"),
    ("\u{0648}", .right, "ARABIC LETTER WAW"),
    ("\u{A872}", .left, "PHAGS-PA SUPERFIXED LETTER RA"),
    ("\u{10ACD}", .left, "MANICHAEAN LETTER HETH"),
    ("\u{064B}", .transparent, "ARABIC FATHATAN: Mn, not listed"),
    ("\u{094D}", .transparent, "DEVANAGARI SIGN VIRAMA: Mn"),
    ("\u{20DD}", .transparent, "COMBINING ENCLOSING CIRCLE: Me"),
    ("\u{00AD}", .transparent, "SOFT HYPHEN: Cf"),
    ("\u{1E94B}", .transparent, "ADLAM NASALIZATION MARK: Lm, listed T"),
    ("\u{0600}", .other, "ARABIC NUMBER SIGN: Cf, listed U"),
    ("\u{2066}", .other, "LEFT-TO-RIGHT ISOLATE: Cf, listed U"),
    ("\u{110BD}", .other, "KAITHI NUMBER SIGN: Cf, listed U"),
    ("\u{200C}", .other, "ZERO WIDTH NON-JOINER: U"),
    ("\u{200D}", .other, "ZERO WIDTH JOINER: C"),
    ("\u{0640}", .other, "ARABIC TATWEEL: C"),
    ("a", .other, "Latin letters: U"),
]

@Test(arguments: joiningTypes)
func joiningType(scalar: Unicode.Scalar, type: JoiningType, source: String) {
    #expect(JoiningType(of: scalar) == type, "\(source)")
}
