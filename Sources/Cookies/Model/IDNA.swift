/// Host name conversion between Unicode and ASCII form, IDNA2008 (RFC 5890, RFC 5891) with the label separators
/// of UTS #46.
///
/// This is the subset a cookie store needs to canonicalise host names (RFC 6265bis §5.1.2): lower-casing, NFC
/// normalisation and U-label ⇄ A-label conversion with Punycode (RFC 3492). It does not carry the UTS #46 mapping
/// table: a host holding a code point that table maps to others is refused instead (deviation, 2026-11-27, see
/// `isMappedAway`), as is one holding a code point of a class it disallows (`isDisallowed`), or a joiner where RFC
/// 5892's CONTEXTJ rules do not allow it (`joinersAreInContext`), and the other IDNA2008 validity rules (RFC 5891
/// §5.4) are not checked. Like UTS #46 ToASCII with
/// VerifyDnsLength=false (what the WHATWG URL standard uses), it does not enforce the 63-octet label and
/// 253-octet name limits of RFC 1035, since hosts that URLs accept must still get a cookie key.
enum IDNA {
    /// The ACE prefix that marks an A-label (RFC 5890 §2.3.2.1).
    private static let acePrefix = "xn--"

    /// Converts `host` to ASCII: lower-cases it, splits it into labels on U+002E FULL STOP, U+3002 IDEOGRAPHIC FULL
    /// STOP, U+FF0E FULLWIDTH FULL STOP and U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP (UTS #46 §4), and turns every
    /// label that is not ASCII into an A-label: "xn--" + Punycode (RFC 5891 §4.4). ASCII labels pass through
    /// lower-cased and unchecked; empty labels are kept, so "example.com." stays "example.com." and "" stays "".
    /// Labels are joined with U+002E.
    ///
    /// Returns nil when the host holds a code point UTS #46 maps to others (`isMappedAway`) or disallows
    /// (`isDisallowed`), or a joiner out of context (`joinersAreInContext`), and when Punycode cannot
    /// encode a label, i.e. its deltas overflow (RFC 3492 §6.4), which takes a label of thousands of non-ASCII
    /// scalars. When `host` is already lower-case ASCII it is returned as it is, without allocating.
    static func toASCII(_ host: String) -> String? {
        if host.utf8.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
            return host
        }
        if host.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII with upper case: every label is kept as it is, lower-cased, which is what the scalar loop
            // below gives, byte by byte here.
            let count = host.utf8.count
            return String(unsafeUninitializedCapacity: count) { lowered in
                for (index, byte) in host.utf8.enumerated() {
                    lowered[index] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                }
                return count
            }
        }
        // UTS #46 §4 steps 1–2 without the mapping table: lower-cased, then in NFC (the standard library's
        // normaliser, `_nfcCodeUnits`), so that "e\u{301}" and "é" are one host, as in a browser.
        let scalars = String(decoding: host.lowercased()._nfcCodeUnits, as: UTF8.self).unicodeScalars
        if scalars.contains(where: { !isLabelSeparator($0) && (isMappedAway($0) || isDisallowed($0)) }) { return nil }
        var result = ""
        result.reserveCapacity(scalars.count)
        var labelStart = scalars.startIndex
        var index = labelStart
        while true {
            let atEnd = index == scalars.endIndex
            if atEnd || isLabelSeparator(scalars[index]) {
                let label = scalars[labelStart..<index]
                if label.allSatisfy(\.isASCII) {
                    result.unicodeScalars.append(contentsOf: label)
                } else {
                    guard joinersAreInContext(label), let encoded = Punycode.encode(label) else { return nil }
                    result += acePrefix
                    result += encoded
                }
                if atEnd { break }
                result += "."
                labelStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        return result
    }

    /// Whether UTS #46's mapping step turns `scalar`, lower-case and in NFC, into other code points or none: the
    /// compatibility forms (fullwidth "ｕｋ" is "uk", "ﬁ" is "fi", "①" is "1"), default-ignorable code points (U+00AD
    /// SOFT HYPHEN, U+200B ZERO WIDTH SPACE) and the like, which NFKC case folding changes (the Unicode property
    /// Changes_When_NFKC_Casefolded, which the mapping table follows for these). Such a host is refused
    /// (deviation, 2026-11-27): without the table it would be encoded as written, a name of its own outside the
    /// public suffix it stands for in a browser (`attacker.co.ｕｋ` is a host of `co.uk` there, and would be one of
    /// `co.xn--wi7cta` here, where `Domain=co.xn--wi7cta` is no public suffix and would set a cookie for every
    /// `*.co.ｕｋ` site). "ß" and "ς", which NFKC case folding changes too, are deviation characters that UTS #46
    /// nontransitional processing (the WHATWG URL standard's) keeps; so are the joiners U+200C and U+200D, which
    /// it keeps where RFC 5892's CONTEXTJ rules allow them (`joinersAreInContext`).
    private static func isMappedAway(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\u{00DF}", "\u{03C2}", "\u{200C}", "\u{200D}": false
        default: scalar.properties.changesWhenNFKCCaseFolded
        }
    }

    /// Whether UTS #46 disallows `scalar` (IDNA Mapping Table status "disallowed"), for the classes this
    /// library tells without the table: controls (Cc, C1 included), format characters (Cf) but the joiners
    /// U+200C and U+200D (deviation characters, which nontransitional processing keeps where RFC 5892's
    /// CONTEXTJ allows them, `joinersAreInContext`), space, line and paragraph separators (Zs, Zl, Zp), private-use (Co),
    /// surrogates (Cs) and code points unassigned in the standard library's Unicode version, noncharacters
    /// included (Cn). A browser refuses a host holding one (the WHATWG URL standard's "domain to ASCII" fails
    /// on it): encoded as written, `ex\u{9B}.com` would be a host, its C1 control a CSI to a terminal. (The
    /// format characters and separators that the mapping step changes are `isMappedAway` already.)
    private static func isDisallowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format: scalar != "\u{200C}" && scalar != "\u{200D}"
        case .control, .spaceSeparator, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: true
        default: false
        }
    }

    /// The label separators of UTS #46 §4 step 4 (after its mapping step they are all U+002E).
    private static func isLabelSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\u{002E}", "\u{3002}", "\u{FF0E}", "\u{FF61}": true
        default: false
        }
    }
}
