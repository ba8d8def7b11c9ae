/// Byte classes of rfc6265bis-22 (ABNF core rules of RFC 5234, Appendix B.1).
extension UInt8 {
    /// WSP = SP / HTAB
    @inline(__always)
    var isCookieWhitespace: Bool { self == 0x20 || self == 0x09 }

    /// %x00-08 / %x0A-1F / %x7F: the CTL characters other than HTAB, which make §5.6 step 1 ignore the
    /// whole set-cookie-string.
    @inline(__always)
    var isForbiddenControl: Bool { (self < 0x20 && self != 0x09) || self == 0x7F }

    /// ASCII upper case folded to lower case (i;ascii-casemap, RFC 4790).
    @inline(__always)
    var asciiLowercased: UInt8 { self >= 0x41 && self <= 0x5A ? self | 0x20 : self }

    /// True when this byte is `lowercase` in either case (i;ascii-casemap, RFC 4790), for `lowercase` not
    /// an upper-case letter. Or-ing 0x20 gives a lower-case letter exactly from that letter in either case.
    @inline(__always)
    func caseInsensitivelyEquals(lowercase: UInt8) -> Bool {
        lowercase &- UInt8(ascii: "a") < 26 ? self | 0x20 == lowercase : self == lowercase
    }
}

/// The same byte classes for eight bytes at once: a word read from memory (little-endian, so its lowest
/// byte is the first one) gives a word with the high bit (0x80) of each byte that is in the class, and no
/// other bit set. The tests are exact, without the false positives of the cheaper "has a zero byte"
/// test: adding 0x7F (or 0x80 − n) to the low seven bits of a byte never carries into the next byte
/// ("determine if a word has a zero byte", Sean Eron Anderson, Bit Twiddling Hacks).
extension UInt64 {
    @inline(__always)
    private static var lowSevenBits: UInt64 { 0x7F7F_7F7F_7F7F_7F7F }

    @inline(__always)
    private static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// The high bit of each byte equal to `byte`.
    @inline(__always)
    func bytes(equalTo byte: UInt8) -> UInt64 {
        let difference = self ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        // High bit set for a byte that is not zero: its own high bit, or a carry out of the low seven.
        let nonzero = ((difference & Self.lowSevenBits) &+ Self.lowSevenBits) | difference
        return ~nonzero & Self.highBits
    }

    /// The high bit of each byte below `bound`, for `bound` from 1 through 0x80.
    @inline(__always)
    func bytes(below bound: UInt8) -> UInt64 {
        // High bit set for a byte of at least `bound`: its own high bit, or a carry out of the low seven.
        let atLeast = ((self & Self.lowSevenBits) &+ 0x0101_0101_0101_0101 &* UInt64(0x80 - bound)) | self
        return ~atLeast & Self.highBits
    }

    /// The high bit of each CTL other than HTAB (§5.6 step 1).
    @inline(__always)
    var forbiddenControls: UInt64 {
        (bytes(below: 0x20) & ~bytes(equalTo: 0x09)) | bytes(equalTo: 0x7F)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// True when a CTL other than HTAB occurs (§5.6 step 1), eight bytes at a time.
    @inline(__always)
    var containsForbiddenControl: Bool {
        guard let base = baseAddress else { return false }
        var index = 0
        while index + 8 <= count {
            if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).forbiddenControls != 0 { return true }
            index += 8
        }
        return self[index...].contains(where: \.isForbiddenControl)
    }

    /// True when these bytes case-insensitively match `lowercaseASCII` (i;ascii-casemap).
    @inline(__always)
    func caseInsensitivelyEquals(_ lowercaseASCII: StaticString) -> Bool {
        guard count == lowercaseASCII.utf8CodeUnitCount else { return false }
        let other = lowercaseASCII.utf8Start
        for index in 0..<count where !self[index].caseInsensitivelyEquals(lowercase: other[index]) {
            return false
        }
        return true
    }

    /// True when these bytes start with `lowercaseASCII`, compared case-insensitively.
    @inline(__always)
    func caseInsensitivelyStarts(with lowercaseASCII: StaticString) -> Bool {
        let length = lowercaseASCII.utf8CodeUnitCount
        guard count >= length else { return false }
        let other = lowercaseASCII.utf8Start
        for index in 0..<length where !self[index].caseInsensitivelyEquals(lowercase: other[index]) {
            return false
        }
        return true
    }

    /// The slice with leading and trailing WSP removed (§5.6 step 4 and attribute step 5).
    @inline(__always)
    func trimmingCookieWhitespace() -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = count
        while start < end, self[start].isCookieWhitespace { start += 1 }
        while end > start, self[end - 1].isCookieWhitespace { end -= 1 }
        return UnsafeBufferPointer(rebasing: self[start..<end])
    }
}
