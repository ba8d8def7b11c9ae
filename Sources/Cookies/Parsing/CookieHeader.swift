// The `Cookie` request header field of rfc6265bis-22 §4.2 ("Cookie"), as a server reads it.
//
//   cookie-string = cookie-pair *( ";" SP cookie-pair )     ; §4.2.1
//   cookie-pair   = cookie-name "=" cookie-value            ; §4.1.1
//
// User agents send exactly that grammar (§5.8.3 step 4), but servers meet older and odder
// senders, so `parse` is lenient: it splits on ";" alone, trims whitespace, and reads a pair
// without "=" the way §5.6 reads a name-value-pair without one: as a nameless cookie.

/// The `Cookie` request header read the way a server reads it (rfc6265bis-22 §4.2): `parse` splits a
/// header value into its name/value pairs.
public enum CookieHeader {
    /// Splits a `Cookie` header value into its pairs, in order (rfc6265bis-22 §4.2.1, §5.6 for nameless pairs).
    ///
    /// - Each piece between ";" bytes is trimmed of SP and HTAB; empty pieces are skipped.
    /// - The name is what precedes the first "=", the value everything after it; each is trimmed
    ///   of SP and HTAB (§5.6 does the same to the name and value strings). Nothing else is
    ///   changed: DQUOTEs and later "=" bytes stay in the value.
    /// - A piece without "=" is a nameless cookie whose value is the whole piece (§5.6).
    /// - A piece whose name and value are both empty (a lone "=") is skipped, as §5.6 ignores it.
    /// - Duplicate names are all kept, in order.
    public static func parse(_ value: String) -> [CookiePair] {
        if let pairs = value.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0) }) {
            return pairs
        }
        var native = value
        return native.withUTF8 { parse(bytes: $0) }
    }

    /// Serialises pairs as the `Cookie` header does (§5.8.3 step 4): "name=value" joined by "; ", a nameless pair as its value alone.
    public static func serialize(_ pairs: some Sequence<CookiePair>) -> String {
        var header = ""
        for pair in pairs {
            // Step 4.3: "; " between cookies.
            if !header.isEmpty { header += "; " }
            // Step 4.1: a non-empty name, then "=".
            if !pair.name.isEmpty {
                header += pair.name
                header += "="
            }
            // Step 4.2: the value.
            header += pair.value
        }
        return header
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> [CookiePair] {
        var pairs: [CookiePair] = []
        var pieceStart = 0
        while pieceStart <= bytes.count {
            var pieceEnd = pieceStart
            while pieceEnd < bytes.count, bytes[pieceEnd] != UInt8(ascii: ";") { pieceEnd += 1 }
            let piece = trimmed(bytes, pieceStart..<pieceEnd)
            if !piece.isEmpty {
                let equals = piece.firstIndex { bytes[$0] == UInt8(ascii: "=") }
                let name = equals.map { trimmed(bytes, piece.lowerBound..<$0) } ?? piece.lowerBound..<piece.lowerBound
                let value = equals.map { trimmed(bytes, ($0 + 1)..<piece.upperBound) } ?? piece
                if !name.isEmpty || !value.isEmpty {
                    pairs.append(CookiePair(name: string(bytes, name), value: string(bytes, value)))
                }
            }
            pieceStart = pieceEnd + 1
        }
        return pairs
    }

    /// `range` without its leading and trailing whitespace.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isWhitespace(bytes[lower]) { lower += 1 }
        while lower < upper, isWhitespace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The bytes in `range` as a String; ill-formed UTF-8 becomes U+FFFD.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// WSP = SP / HTAB                    ; RFC 5234 Appendix B.1
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09: true
        default: false
        }
    }
}
