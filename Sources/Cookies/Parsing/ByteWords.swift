/// Word-at-a-time byte tests: the one home of the bit tricks that read eight bytes of UTF-8 at once.
///
/// Why: headers, URLs and cookie files are mostly ASCII, and the bytes that matter to their grammars
/// (";", "=", CTLs, "?", "#", a quote) are rare; testing a word of eight bytes for them costs what testing
/// one byte does. Every test here is exact, without the false positives of the cheaper "has a zero byte"
/// test ("determine if a word has a zero byte" and "… a byte between m and n", Sean Eron Anderson, Bit
/// Twiddling Hacks): the low seven bits of each byte, plus at most 0x7F, never carry into the next byte,
/// so each byte's high bit answers for that byte alone, and a byte's own high bit (0x80-0xFF, never
/// ASCII) is masked in or out at the end. Words are read little-endian: the first byte is the lowest.

extension UInt64 {
    /// `byte` in each of the eight bytes.
    @inline(__always)
    package static func repeating(_ byte: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(byte) }

    /// The high bit of each byte.
    @inline(__always)
    package static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// The eight bytes at `offset` from `base`, the first the lowest.
    @inline(__always)
    package static func littleEndianWord(at base: UnsafePointer<UInt8>, offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }
}

/// One word of eight bytes and its low seven bits, with the exact per-byte comparisons the word tests
/// below are built from. Each comparison gives "lanes": the high bit of each byte is set exactly when the
/// byte's low seven bits pass (the other bits mean nothing); combine lanes with `&`, `|` and `~`, and end
/// with `ascii(where:)` or `notASCII(where:)`, which bring in each byte's own high bit.
package struct ByteWord {
    /// The eight bytes.
    package let bits: UInt64
    /// Their low seven bits.
    private let low: UInt64

    @inline(__always)
    package init(_ bits: UInt64) {
        self.bits = bits
        low = bits & ~UInt64.highBits
    }

    /// Lanes of the bytes whose low seven bits are at least `bound` (at most 0x80): adding `0x80 - bound`
    /// reaches the high bit exactly then.
    @inline(__always)
    package func atLeast(_ bound: UInt8) -> UInt64 { low &+ .repeating(0x80 &- bound) }

    /// Lanes of the bytes whose low seven bits are above `bound` (at most 0x7F).
    @inline(__always)
    package func above(_ bound: UInt8) -> UInt64 { low &+ .repeating(0x7F &- bound) }

    /// Lanes of the bytes whose low seven bits are not `byte` (below 0x80): their xor, plus 0x7F, reaches
    /// the high bit exactly when it is not zero.
    @inline(__always)
    package func differs(from byte: UInt8) -> UInt64 { (low ^ .repeating(byte)) &+ .repeating(0x7F) }

    /// The high bit of each ASCII byte in `lanes`, and no other bit.
    @inline(__always)
    package func ascii(where lanes: UInt64) -> UInt64 { lanes & ~bits & .highBits }

    /// The high bit of each byte that is not an ASCII byte in `lanes` (so also of every byte 0x80-0xFF),
    /// and no other bit.
    @inline(__always)
    package func notASCII(where lanes: UInt64) -> UInt64 { ~(lanes & ~bits) & .highBits }
}

// MARK: - The word tests of the grammars

extension UInt64 {
    /// The high bit of each byte equal to `byte` (any byte), and no other bit: the bytes where the word
    /// xor `byte`…`byte` is zero.
    @inline(__always)
    package func bytes(equalTo byte: UInt8) -> UInt64 {
        let difference = ByteWord(self ^ .repeating(byte))
        return difference.ascii(where: ~difference.above(0))
    }

    /// rfc6265bis-22 §5.6 step 1 and its split at ";" (step 2, attribute step 1) and "=" (step 3, attribute
    /// step 4): the high bit of each byte that is ";", "=", a CTL (%x00-1F / %x7F, HTAB included: the
    /// caller tells it apart) and of no other byte. The bytes 0x20-0x7E other than ";" and "=" pass.
    @inline(__always)
    var setCookieStops: UInt64 {
        let word = ByteWord(self)
        // 0x20-0x7E: at least 0x20 but not at least 0x7F (the second implies the first, so xor is and-not).
        let passes = (word.atLeast(0x20) ^ word.atLeast(0x7F))
            & word.differs(from: UInt8(ascii: ";")) & word.differs(from: UInt8(ascii: "="))
        // `word.ascii(where: ~passes)`, written as one negation: so the parser's scan loops compile to the
        // fewest instructions (four or five fewer per word than the two negations).
        return ~(passes | self) & .highBits
    }

    /// CTL = %x00-1F / %x7F (RFC 5234 Appendix B.1) other than HTAB: the bytes that make §5.6 step 1
    /// ignore a whole line (and an imported cookie be refused). The high bit of each, no other bit.
    @inline(__always)
    var forbiddenControls: UInt64 {
        let word = ByteWord(self)
        return word.ascii(where: (~word.atLeast(0x20) & word.differs(from: 0x09)) | word.atLeast(0x7F))
    }

    /// `setCookieStops` but for "=": ";" and the CTLs (HTAB included: the caller tells it apart), the bytes
    /// a cookie's value or an attribute's may hold only as HTAB (§5.6 steps 1-2, cookie-av step 1). The
    /// high bit of each, no other bit.
    @inline(__always)
    var setCookieValueStops: UInt64 {
        let word = ByteWord(self)
        let passes = (word.atLeast(0x20) ^ word.atLeast(0x7F)) & word.differs(from: UInt8(ascii: ";"))
        return ~(passes | self) & .highBits
    }

    /// The bytes a canonical domain name (§5.1.2, as `CanonicalHost` keeps it) cannot hold: anything but
    /// a lower-case letter, a digit, "-", "." and "_". The high bit of each, no other bit.
    @inline(__always)
    var nonCanonicalHostBytes: UInt64 {
        let word = ByteWord(self)
        // "a"-"z"; "-" to "9" except "/" ("-", "." and the digits); "_".
        let letter = word.atLeast(UInt8(ascii: "a")) & ~word.above(UInt8(ascii: "z"))
        let dashToNine = word.atLeast(UInt8(ascii: "-")) & ~word.above(UInt8(ascii: "9"))
            & word.differs(from: UInt8(ascii: "/"))
        return word.notASCII(where: letter | dashToNine | ~word.differs(from: UInt8(ascii: "_")))
    }

    /// RFC 3986 §3.3-3.5: a URI's path ends at the first "?" (query) or "#" (fragment); a backslash in the
    /// path of an http-family URL is a "/", and the bytes of the WHATWG URL standard's path percent-encode
    /// set are percent-encoded (its path state): the C0 controls, every byte from 0x7F on, SP, `"`, "<",
    /// ">", "^", "`", "{" and "}" (TAB, LF and CR, removed from a URL, among the controls). The high bit of
    /// each, no other bit.
    @inline(__always)
    var pathStopBytes: UInt64 {
        let word = ByteWord(self)
        // 0x21-0x7E: at least 0x21 but not at least 0x7F (the second implies the first, so xor is and-not).
        var passes = word.atLeast(0x21) ^ word.atLeast(0x7F)
        passes &= word.differs(from: UInt8(ascii: "?")) & word.differs(from: UInt8(ascii: "#"))
            & word.differs(from: UInt8(ascii: "\\"))
        passes &= word.differs(from: UInt8(ascii: "\"")) & word.differs(from: UInt8(ascii: "<"))
            & word.differs(from: UInt8(ascii: ">")) & word.differs(from: UInt8(ascii: "^"))
        passes &= word.differs(from: UInt8(ascii: "`")) & word.differs(from: UInt8(ascii: "{"))
            & word.differs(from: UInt8(ascii: "}"))
        return word.notASCII(where: passes)
    }

    /// RFC 8259 §7: inside a JSON string, the bytes that need a second look are `"` (its end), `\` (an
    /// escape), the control characters (%x00-1F, which must be escaped) and every non-ASCII byte (to be
    /// checked as UTF-8). The high bit of each, no other bit.
    @inline(__always)
    var jsonStringSpecialBytes: UInt64 {
        let word = ByteWord(self)
        let plain = word.atLeast(0x20) & word.differs(from: UInt8(ascii: "\"")) & word.differs(from: UInt8(ascii: "\\"))
        return word.notASCII(where: plain)
    }

    /// The bytes that make a value more than one `Character` per byte: any non-ASCII byte and CR (which
    /// joins a following LF into one grapheme). The high bit of each, no other bit.
    @inline(__always)
    var notOneCharacterPerByte: UInt64 {
        let word = ByteWord(self)
        return word.notASCII(where: word.differs(from: 0x0D))
    }
}

// MARK: - Scanning a buffer a word at a time

extension UnsafeBufferPointer<UInt8> {
    /// The index of the first byte at or after `start` that `marks` marks, or nil. `marks` gives the high
    /// bit of each marked byte of a word and no other bit (one of the word tests above). Whole words are
    /// read from `start`; the last bytes, fewer than eight, as the last word of the buffer with the bytes
    /// already read shifted out, or (a buffer shorter than a word) one byte at a time in a word of their own.
    @inline(__always)
    package func firstIndex(from start: Int = 0, markedBy marks: (UInt64) -> UInt64) -> Int? {
        guard let base = baseAddress, start < count else { return nil }
        var index = start
        while count &- index >= 8 {
            let marked = marks(.littleEndianWord(at: base, offset: index))
            if marked != 0 { return index &+ marked.trailingZeroBitCount / 8 }
            index &+= 8
        }
        guard index < count else { return nil }
        let marked: UInt64
        if count >= 8 {
            marked = marks(.littleEndianWord(at: base, offset: count &- 8)) &>> ((8 &- (count &- index)) &* 8)
        } else {
            var word: UInt64 = 0
            for offset in index..<count { word |= UInt64(base[offset]) &<< ((offset &- index) &* 8) }
            marked = marks(word) & (~0 &>> ((8 &- (count &- index)) &* 8))
        }
        return marked == 0 ? nil : index &+ marked.trailingZeroBitCount / 8
    }

    /// True when a CTL other than HTAB occurs (§5.6 step 1).
    @inline(__always)
    var containsForbiddenControl: Bool { firstIndex(markedBy: \.forbiddenControls) != nil }

    /// True when `byte` occurs.
    @inline(__always)
    func containsByte(_ byte: UInt8) -> Bool { firstIndex(of: byte, from: 0) != nil }

    /// The index of the first `byte` at or after `start`, or nil.
    @inline(__always)
    func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        firstIndex(from: start) { $0.bytes(equalTo: byte) }
    }

    /// True when every byte is ASCII (below 0x80): the words or-ed together, the last word overlapping
    /// the one before it when the count is not a multiple of eight.
    package var isASCII: Bool {
        guard let base = baseAddress, count > 0 else { return true }
        guard count >= 8 else {
            var bits: UInt8 = 0
            for offset in 0..<count { bits |= base[offset] }
            return bits < 0x80
        }
        var bits = UInt64.littleEndianWord(at: base, offset: count - 8)
        var offset = 0
        while count - offset > 8 {
            bits |= .littleEndianWord(at: base, offset: offset)
            offset += 8
        }
        return bits & .highBits == 0
    }

    /// One pass for two questions: whether `marks` marks no byte, and whether every byte is ASCII (false,
    /// unasked, once a byte is marked: the pass ends there). `marks` as for `firstIndex(from:markedBy:)`.
    /// The last word is the last eight bytes, again testing bytes that passed already.
    @inline(__always)
    func isUnmarked(by marks: (UInt64) -> UInt64) -> (isUnmarked: Bool, isASCII: Bool) {
        guard let base = baseAddress, count > 0 else { return (true, true) }
        guard count >= 8 else {
            var word: UInt64 = 0
            for offset in 0..<count { word |= UInt64(base[offset]) &<< (offset &* 8) }
            // Only the bytes of the buffer: the zeros above them would be marked as controls.
            let isUnmarked = marks(word) & (~0 &>> ((8 &- count) &* 8)) == 0
            return (isUnmarked, isUnmarked && word & .highBits == 0)
        }
        var bits: UInt64 = 0
        var offset = 0
        while count &- offset > 8 {
            let word = UInt64.littleEndianWord(at: base, offset: offset)
            if marks(word) != 0 { return (false, false) }
            bits |= word
            offset &+= 8
        }
        let last = UInt64.littleEndianWord(at: base, offset: count &- 8)
        let isUnmarked = marks(last) == 0
        return (isUnmarked, isUnmarked && (bits | last) & .highBits == 0)
    }

    /// True when every byte is ASCII and none is a CR: one `Character` per byte.
    package var hasOneCharacterPerByte: Bool { firstIndex(markedBy: \.notOneCharacterPerByte) == nil }

    /// The `count` bytes from `start` (at most eight, all in the buffer) in one word: the first in its
    /// lowest byte, zeros above the last. Reads the eight bytes from `start` at once when the buffer holds
    /// them, else the eight that end it, else (a buffer of fewer) one byte at a time.
    @inline(__always)
    func word(from start: Int, count: Int) -> UInt64 {
        guard count > 0 else { return 0 }
        let base = baseAddress.unsafelyUnwrapped
        let word: UInt64
        if start + 8 <= self.count {
            word = .littleEndianWord(at: base, offset: start)
        } else if self.count >= 8 {
            // The last eight bytes, shifted so that byte `start` is the lowest.
            word = UInt64.littleEndianWord(at: base, offset: self.count - 8) &>> ((start + 8 - self.count) * 8)
        } else {
            var assembled: UInt64 = 0
            for index in 0..<count { assembled |= UInt64(base[start + index]) &<< (index * 8) }
            word = assembled
        }
        return word & (~0 &>> ((8 - count) * 8))
    }

    /// The same with each byte or-ed with 0x20, which makes bytes that differ only in the case of an ASCII
    /// letter the same (i;ascii-casemap, RFC 4790), so the word of a name in any case is that of the name
    /// in lower case (`AttributeWord`, `SchemeWord`).
    @inline(__always)
    func asciiCaseFoldedWord(from start: Int, count: Int) -> UInt64 {
        guard count > 0 else { return 0 }
        return (word(from: start, count: count) | .repeating(0x20)) & (~0 &>> ((8 - count) * 8))
    }

    /// True when `other` holds the same bytes (`memoryEqual`).
    @inline(__always)
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        count == other.count && (isEmpty || memoryEqual(baseAddress!, other.baseAddress!, count))
    }
}

/// True when the `count` bytes at `first` and at `second` are equal: eight at a time, the last word
/// overlapping the one before it; fewer than eight as two overlapping loads of four, or of two, or one.
@inline(__always)
func memoryEqual(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    let a = UnsafeRawPointer(first)
    let b = UnsafeRawPointer(second)
    if count >= 8 {
        var offset = 0
        while offset &+ 8 < count {
            if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset &+= 8
        }
        return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
    if count >= 4 {
        return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
            && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    }
    if count >= 2 {
        return a.loadUnaligned(as: UInt16.self) == b.loadUnaligned(as: UInt16.self)
            && a.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self) == b.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
    }
    return count == 0 || first[0] == second[0]
}

/// Copies the `count` bytes at `source` to `destination` (the two do not overlap). Up to 32 bytes (the
/// length of two in five cookies' pairs in `../shared/bench`) they are copied in place, as two
/// overlapping loads and stores of eight or sixteen bytes, or one at a time below eight; longer ones by
/// `memcpy`, whose call costs more than such a copy.
@inline(__always)
func copyBytes(from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count: Int) {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(destination)
    if count > 32 {
        to.copyMemory(from: from, byteCount: count)
    } else if count >= 16 {
        to.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        to.storeBytes(
            of: from.loadUnaligned(fromByteOffset: count &- 16, as: SIMD16<UInt8>.self), toByteOffset: count &- 16,
            as: SIMD16<UInt8>.self)
    } else if count >= 8 {
        to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self), toByteOffset: count &- 8, as: UInt64.self)
    } else {
        for offset in 0..<count { destination[offset] = source[offset] }
    }
}

// MARK: - Names as words

/// The attribute-names of rfc6265bis-22 §5.6 step 7 of up to eight octets, each as the word
/// `asciiCaseFoldedWord` makes of its octets in any case: the name's bytes or-ed with 0x20, the first the
/// lowest. An attribute-name in any case is that name exactly when its word is this one: the names are
/// letters and "-", and a name holds no CTL such as 0x0D, the one other octet that or-ing makes "-".
/// (Partitioned, of eleven octets, is compared byte by byte.)
enum AttributeWord {
    /// "path" (§5.6.4)
    static let path: UInt64 = 0x68_74_61_70
    /// "domain" (§5.6.3)
    static let domain: UInt64 = 0x6E_69_61_6D_6F_64
    /// "secure" (§5.6.5)
    static let secure: UInt64 = 0x65_72_75_63_65_73
    /// "expires" (§5.6.1)
    static let expires: UInt64 = 0x73_65_72_69_70_78_65
    /// "max-age" (§5.6.2)
    static let maxAge: UInt64 = 0x65_67_61_2D_78_61_6D
    /// "httponly" (§5.6.6)
    static let httpOnly: UInt64 = 0x79_6C_6E_6F_70_74_74_68
    /// "samesite" (§5.6.7)
    static let sameSite: UInt64 = 0x65_74_69_73_65_6D_61_73
}

/// The SameSite attribute-values of §5.6.7, as `AttributeWord` has the names.
enum SameSiteWord {
    /// "none"
    static let none: UInt64 = 0x65_6E_6F_6E
    /// "strict"
    static let strict: UInt64 = 0x74_63_69_72_74_73
    /// "lax"
    static let lax: UInt64 = 0x78_61_6C
}

/// The schemes a jar tells apart (RFC 3986 §3.1: case-insensitive), as `AttributeWord` has the names (a
/// scheme's other bytes, digits, "+", "-" and ".", stay as they are), and the two openings that nearly
/// every URL has, as written (lower case), read as one word.
enum SchemeWord {
    /// "ws"
    static let ws: UInt64 = 0x73_77
    /// "wss"
    static let wss: UInt64 = 0x73_73_77
    /// "http"
    static let http: UInt64 = 0x70_74_74_68
    /// "https"
    static let https: UInt64 = 0x73_70_74_74_68
    /// "https://", eight bytes.
    static let httpsOpening: UInt64 = 0x2F2F_3A73_7074_7468
    /// "http://", the low seven bytes of a word.
    static let httpOpening: UInt64 = 0x2F_2F3A_7074_7468
}
