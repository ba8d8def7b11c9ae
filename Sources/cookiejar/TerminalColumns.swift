/// How many terminal columns a Unicode scalar takes, as terminals lay text out (the wcwidth convention,
/// from Unicode's East Asian Width property, UAX #11, and the emoji presentation of UTS #51): 0 for a
/// combining or format character (drawn on the character before it, or not at all), 2 for a wide or
/// fullwidth one (CJK ideographs, kana, Hangul syllables, fullwidth forms) and an emoji shown as one, 1
/// for the others. The tables align their columns by it.
extension Unicode.Scalar {
    var terminalColumns: Int {
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul Jamo medial vowels and final consonants join the syllable before them.
        if (0x1160...0x11FF).contains(value) { return 0 }
        if Unicode.Scalar.wideRanges.contains(where: { $0.contains(value) }) || properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// The blocks whose characters are East Asian Wide (W) or Fullwidth (F) (UAX #11, EastAsianWidth.txt),
    /// as ranges: Hangul Jamo initial consonants, CJK radicals to Yi (but U+303F, half-width), Hangul
    /// syllables, CJK compatibility ideographs, vertical and compatibility forms, fullwidth forms, and the
    /// supplementary ideographic planes.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x2_0000...0x2_FFFD, 0x3_0000...0x3_FFFD,
    ]
}
