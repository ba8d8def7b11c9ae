/// The characters of a cookie's texts that a terminal would obey rather than show: the C0 controls, DEL
/// and the C1 controls (U+0080–U+009F), which it acts on (an ESC, or the C1 CSI U+009B, starts a sequence
/// that moves the cursor, recolours or retitles the window), and the bidirectional formatting characters
/// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: Unicode Standard Annex #9), which reorder what
/// follows them on the line, so that one cookie's name could show as another's. A server can put every one
/// but the C0 controls and DEL in a cookie (§5.6 step 1 refuses only those), and a file any of them.
/// Writers of text meant to be read escape them: `CookieJSON` as `\uXXXX`, the `cookiejar` tool as `\u{XX}`.
package enum TerminalControlCharacter {
    /// Whether `byte` may start such a character in UTF-8: a control (below 0x20, 0x7F), or the lead byte
    /// of U+0080–U+00BF (0xC2), U+0600–U+063F (0xD8) or U+2000–U+2FFF (0xE2). A text with none of these
    /// bytes holds none of the characters.
    @inline(__always)
    package static func mayStart(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }

    /// The character that starts at `index` of the UTF-8 `bytes`, its scalar value and its length in bytes;
    /// nil when none of these does.
    @inline(__always)
    package static func at(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (scalar: UInt32, length: Int)? {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F { return (UInt32(byte), 1) }
        guard index + 1 < bytes.count else { return nil }
        let second = bytes[index + 1]
        // U+0080–U+009F: 0xC2 and a continuation byte 0x80–0x9F.
        if byte == 0xC2, second & 0xE0 == 0x80 { return (UInt32(second), 2) }
        // U+061C ARABIC LETTER MARK: 0xD8 0x9C.
        if byte == 0xD8, second == 0x9C { return (0x061C, 2) }
        // U+2000–U+207F: 0xE2, then 0x80 or 0x81, then a continuation byte.
        guard byte == 0xE2, second & 0xFE == 0x80, index + 2 < bytes.count, bytes[index + 2] & 0xC0 == 0x80 else { return nil }
        let scalar = 0x2000 | UInt32(second & 0x01) << 6 | UInt32(bytes[index + 2] & 0x3F)
        return isBidiFormatting(scalar) ? (scalar, 3) : nil
    }

    /// The bidirectional formatting characters of U+2000–U+207F: LRM, RLM, the embeddings and overrides
    /// (U+202A–U+202E) and the isolates (U+2066–U+2069).
    private static func isBidiFormatting(_ scalar: UInt32) -> Bool {
        scalar == 0x200E || scalar == 0x200F || (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar)
    }
}
