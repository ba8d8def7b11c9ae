/// Host name conversion between Unicode and ASCII form, IDNA2008 (RFC 5890, RFC 5891) with the label separators
/// of UTS #46.
///
/// This is the subset a cookie store needs to canonicalise host names (RFC 6265bis §5.1.2): lower-casing and
/// U-label ⇄ A-label conversion with Punycode (RFC 3492). It does not apply the UTS #46 mapping table, NFC
/// normalisation or the IDNA2008 validity rules (RFC 5891 §5.4), so callers should pass NFC text; and, like UTS #46
/// ToASCII with VerifyDnsLength=false (what the WHATWG URL standard uses), it does not enforce the 63-octet label
/// and 253-octet name limits of RFC 1035, since hosts that URLs accept must still get a cookie key.
enum IDNA {
    /// The ACE prefix that marks an A-label (RFC 5890 §2.3.2.1).
    private static let acePrefix = "xn--"

    /// Converts `host` to ASCII: lower-cases it, splits it into labels on U+002E FULL STOP, U+3002 IDEOGRAPHIC FULL
    /// STOP, U+FF0E FULLWIDTH FULL STOP and U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP (UTS #46 §4), and turns every
    /// label that is not ASCII into an A-label: "xn--" + Punycode (RFC 5891 §4.4). ASCII labels pass through
    /// lower-cased and unchecked; empty labels are kept, so "example.com." stays "example.com." and "" stays "".
    /// Labels are joined with U+002E.
    ///
    /// Returns nil only when Punycode cannot encode a label, i.e. its deltas overflow (RFC 3492 §6.4), which takes a
    /// label of thousands of non-ASCII scalars. When `host` is already lower-case ASCII it is returned as it is,
    /// without allocating.
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
        let scalars = host.lowercased().unicodeScalars
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
                    guard let encoded = Punycode.encode(label) else { return nil }
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

    /// Converts the A-labels of `host` back to U-labels (RFC 5891 §5.2 "Conversion to Unicode"). Labels are split on
    /// U+002E only, as `host` is expected to be the output of `toASCII`. A label with the ACE prefix (any case) whose
    /// remainder is not valid Punycode is kept as it is, as are all other labels.
    static func toUnicode(_ host: String) -> String {
        var result = ""
        var isFirst = true
        for label in host.split(separator: ".", omittingEmptySubsequences: false) {
            if !isFirst { result += "." }
            isFirst = false
            if label.utf8.count > acePrefix.utf8.count,
               label.prefix(acePrefix.count).lowercased() == acePrefix,
               let decoded = Punycode.decode(label.dropFirst(acePrefix.count)) {
                result += decoded
            } else {
                result += label
            }
        }
        return result
    }

    /// The label separators of UTS #46 §4 step 4 (after its mapping step they are all U+002E).
    private static func isLabelSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\u{002E}", "\u{3002}", "\u{FF0E}", "\u{FF61}": true
        default: false
        }
    }
}
