import Testing
@testable import Cookies

/// The word tests of `ByteWords.swift` against byte-at-a-time oracles written from the grammar each
/// implements, and the names-as-words constants against their spelling.
struct ByteWordsTests {
    struct WordTest: Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        var word: @Sendable (UInt64) -> UInt64
        var marks: @Sendable (UInt8) -> Bool
        var testDescription: String { "\(name) (\(source))" }
    }

    static let wordTests: [WordTest] = [
        WordTest(name: "setCookieStops", source: "rfc6265bis-22 §5.6 steps 1-3: CTLs, \";\", \"=\"", word: { $0.setCookieStops },
                 marks: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "=") }),
        WordTest(name: "setCookieValueStops", source: "rfc6265bis-22 §5.6 steps 1-2: CTLs, \";\"", word: { $0.setCookieValueStops },
                 marks: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") }),
        WordTest(name: "forbiddenControls", source: "§5.6 step 1: CTL (RFC 5234 B.1) but HTAB", word: { $0.forbiddenControls },
                 marks: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }),
        WordTest(name: "nonCanonicalHostBytes", source: "§5.1.2: a-z, 0-9, \"-\", \".\", \"_\" pass", word: { $0.nonCanonicalHostBytes },
                 marks: { !(($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F) }),
        WordTest(name: "pathStopBytes", source: "RFC 3986 §3.3-3.5; WHATWG URL path state and path percent-encode set",
                 word: { $0.pathStopBytes },
                 marks: { $0 <= 0x20 || $0 >= 0x7F || Array("?#\\\"<>^`{}".utf8).contains($0) }),
        WordTest(name: "jsonStringSpecialBytes", source: "RFC 8259 §7", word: { $0.jsonStringSpecialBytes },
                 marks: { $0 < 0x20 || $0 >= 0x80 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }),
        WordTest(name: "notOneCharacterPerByte", source: "non-ASCII and CR", word: { $0.notOneCharacterPerByte },
                 marks: { $0 >= 0x80 || $0 == 0x0D }),
        WordTest(name: "bytes(equalTo: 0x00)", source: "\"has a zero byte\", exact", word: { $0.bytes(equalTo: 0) }, marks: { $0 == 0 }),
        WordTest(name: "bytes(equalTo: \";\")", source: "an ASCII byte", word: { $0.bytes(equalTo: UInt8(ascii: ";")) },
                 marks: { $0 == UInt8(ascii: ";") }),
        WordTest(name: "bytes(equalTo: 0xBB)", source: "a byte with its high bit set", word: { $0.bytes(equalTo: 0xBB) },
                 marks: { $0 == 0xBB }),
    ]

    /// Every byte in every lane, beside neighbours of every value (a borrow or carry out of a lane would
    /// mark a neighbour): the word's high bits are exactly the oracle's bytes, and no other bit is set.
    @Test(arguments: wordTests)
    func wordTestIsExact(_ test: WordTest) {
        var disagreements: [String] = []
        for value in 0...255 {
            for neighbour in 0...255 {
                for lane in 0..<8 {
                    var word = UInt64.repeating(UInt8(neighbour))
                    word = word & ~(0xFF << (lane * 8)) | UInt64(value) << (lane * 8)
                    var expected: UInt64 = 0
                    for index in 0..<8 where test.marks(UInt8(truncatingIfNeeded: word >> (index * 8))) {
                        expected |= 0x80 << (index * 8)
                    }
                    if test.word(word) != expected { disagreements.append("byte \(value) in lane \(lane) among \(neighbour)") }
                }
            }
            if disagreements.count > 10 { break }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    /// `firstIndex(from:markedBy:)` for buffers of 0 to 19 bytes (shorter than a word, whole words, a
    /// last word overlapping the one before it), every start, a marked byte at every position or none,
    /// against a linear search.
    @Test(arguments: 0...19)
    func firstIndexFindsTheFirstMarkedByte(count: Int) {
        for position in -1..<count {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count)
            if position >= 0 { bytes[position] = 0x7F }
            // A second marked byte after the first must not be the one found.
            if position >= 0, position + 2 < count { bytes[position + 2] = 0x01 }
            for start in 0...count {
                let found = bytes.withUnsafeBufferPointer { $0.firstIndex(from: start, markedBy: { $0.forbiddenControls }) }
                let expected = bytes.indices.first { $0 >= start && bytes[$0].isForbiddenControl }
                #expect(found == expected, "count \(count), marked at \(position), from \(start)")
            }
        }
    }

    /// `word(from:count:)` for buffers of 0 to 19 bytes (read as a whole word, as the last word shifted,
    /// or byte by byte), every start and every count up to eight that stays in the buffer, against the
    /// bytes assembled one at a time, the first lowest; and `InternedStrings.Slot.couldBe(_:at:)`, which
    /// compares such a word with a string's first bytes, true wherever the string is there.
    @Test(arguments: 0...19)
    func wordHoldsTheBytesFromItsStart(count: Int) {
        // ASCII bytes, none of them "~".
        let bytes = (0..<count).map { UInt8(0x21 + ($0 * 7) % 90) }
        bytes.withUnsafeBufferPointer { buffer in
            for start in 0...count {
                for length in 0...min(8, count - start) {
                    let expected = (0..<length).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << ($1 * 8) }
                    #expect(buffer.word(from: start, count: length) == expected, "count \(count), from \(start), \(length) bytes")
                }
                for length in 0...(count - start) {
                    let slot = InternedStrings.Slot(string: String(decoding: bytes[start..<start + length], as: UTF8.self), uses: 1)
                    #expect(slot.couldBe(buffer, at: start), "count \(count), the \(length) bytes from \(start)")
                    if length > 0 {
                        let other = InternedStrings.Slot(string: String(repeating: "~", count: length), uses: 1)
                        #expect(!other.couldBe(buffer, at: start), "count \(count), other bytes from \(start)")
                    }
                }
            }
        }
    }

    /// `isASCII` and `hasOneCharacterPerByte` for one non-ASCII byte (or a CR) at every position of
    /// buffers of 0 to 19 bytes.
    @Test(arguments: 0...19)
    func asciiAtEveryPosition(count: Int) {
        for position in -1..<count {
            for odd: UInt8 in [0x80, 0xFF, 0x0D] {
                var bytes = [UInt8](repeating: UInt8(ascii: "z"), count: count)
                if position >= 0 { bytes[position] = odd }
                bytes.withUnsafeBufferPointer { buffer in
                    #expect(buffer.isASCII == (position < 0 || odd < 0x80), "count \(count), \(odd) at \(position)")
                    #expect(buffer.hasOneCharacterPerByte == (position < 0), "count \(count), \(odd) at \(position)")
                }
            }
        }
    }

    /// `isUnmarked(by:)` for buffers of 0 to 19 bytes with a marked byte, a non-ASCII one, both or neither
    /// at every position: unmarked exactly when no byte is marked, ASCII exactly when, besides, no byte is
    /// non-ASCII (the last word overlaps the one before it; a short buffer's missing bytes are not marked).
    @Test(arguments: 0...19)
    func isUnmarkedAnswersBothQuestions(count: Int) {
        for marked in -1..<count {
            for nonASCII in -1..<count where nonASCII < 0 || nonASCII != marked {
                var bytes = [UInt8](repeating: UInt8(ascii: "v"), count: count)
                if marked >= 0 { bytes[marked] = UInt8(ascii: ";") }
                if nonASCII >= 0 { bytes[nonASCII] = 0xC3 }
                let scan = bytes.withUnsafeBufferPointer { $0.isUnmarked(by: { $0.setCookieValueStops }) }
                #expect(scan.isUnmarked == (marked < 0), "count \(count), \";\" at \(marked), 0xC3 at \(nonASCII)")
                #expect(scan.isASCII == (marked < 0 && nonASCII < 0), "count \(count), \";\" at \(marked), 0xC3 at \(nonASCII)")
            }
        }
    }

    /// `copyBytes` copies exactly `count` bytes, for every count across its three ways (byte by byte,
    /// two words, two 16-byte vectors) and `memcpy`, into the middle of a buffer whose bytes around the
    /// copy stay as they were.
    @Test(arguments: 0...40)
    func copyBytesCopiesExactlyCount(count: Int) {
        let source = (0..<count).map { UInt8(truncatingIfNeeded: 1 + $0) }
        var destination = [UInt8](repeating: 0xEE, count: count + 16)
        source.withUnsafeBufferPointer { source in
            destination.withUnsafeMutableBufferPointer { destination in
                copyBytes(from: source.baseAddress ?? UnsafePointer(destination.baseAddress!), to: destination.baseAddress! + 8, count: count)
            }
        }
        #expect(Array(destination[8..<8 + count]) == source)
        #expect(destination[..<8].allSatisfy { $0 == 0xEE } && destination[(8 + count)...].allSatisfy { $0 == 0xEE })
    }

    struct Spelling: Sendable, CustomTestStringConvertible {
        var word: UInt64
        var spelling: String
        var source: String
        var testDescription: String { "\(spelling.debugDescription) (\(source))" }
    }

    /// Each name's word is the word its spelling folds to, in lower case and in upper case alike.
    static let spellings: [Spelling] = [
        Spelling(word: AttributeWord.path, spelling: "path", source: "§5.6.4"),
        Spelling(word: AttributeWord.domain, spelling: "domain", source: "§5.6.3"),
        Spelling(word: AttributeWord.secure, spelling: "secure", source: "§5.6.5"),
        Spelling(word: AttributeWord.expires, spelling: "expires", source: "§5.6.1"),
        Spelling(word: AttributeWord.maxAge, spelling: "max-age", source: "§5.6.2"),
        Spelling(word: AttributeWord.httpOnly, spelling: "httponly", source: "§5.6.6"),
        Spelling(word: AttributeWord.sameSite, spelling: "samesite", source: "§5.6.7"),
        Spelling(word: SameSiteWord.none, spelling: "none", source: "§5.6.7"),
        Spelling(word: SameSiteWord.strict, spelling: "strict", source: "§5.6.7"),
        Spelling(word: SameSiteWord.lax, spelling: "lax", source: "§5.6.7"),
        Spelling(word: SchemeWord.ws, spelling: "ws", source: "RFC 6455 §3"),
        Spelling(word: SchemeWord.wss, spelling: "wss", source: "RFC 6455 §3"),
        Spelling(word: SchemeWord.http, spelling: "http", source: "RFC 9110 §4.2.1"),
        Spelling(word: SchemeWord.https, spelling: "https", source: "RFC 9110 §4.2.2"),
    ]

    @Test(arguments: spellings)
    func wordMatchesSpelling(_ row: Spelling) {
        for spelling in [row.spelling, row.spelling.uppercased()] {
            let word = Array(spelling.utf8).withUnsafeBufferPointer { $0.asciiCaseFoldedWord(from: 0, count: $0.count) }
            #expect(word == row.word, "\(spelling)")
        }
    }

    /// The openings of nearly every URL, as written, read as one word (the first byte lowest).
    @Test func schemeOpeningsMatchTheirSpelling() {
        func word(_ text: String) -> UInt64 {
            text.utf8.enumerated().reduce(0) { $0 | UInt64($1.element) << ($1.offset * 8) }
        }
        #expect(SchemeWord.httpsOpening == word("https://"))
        #expect(SchemeWord.httpOpening == word("http://"))
    }
}
