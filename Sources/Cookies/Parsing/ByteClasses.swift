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

extension UnsafeBufferPointer<UInt8> {
    /// True when a CTL other than HTAB occurs (§5.6 step 1). Reads eight bytes at a time and looks at
    /// the bytes of a word only when one of them may be below 0x20 or equal to 0x7F: the word tests
    /// ("determine if a word has a byte less than n" and "has a zero byte", Sean Eron Anderson, Bit
    /// Twiddling Hacks) never miss such a byte, and the byte test decides.
    @inline(__always)
    var containsForbiddenControl: Bool {
        guard let base = baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let belowSpace = (word &- ones &* 0x20) & ~word & highBits
            let xorDelete = word ^ (ones &* 0x7F)
            let delete = (xorDelete &- ones) & ~xorDelete & highBits
            if belowSpace | delete != 0, self[index..<index + 8].contains(where: \.isForbiddenControl) { return true }
            index += 8
        }
        return self[index...].contains(where: \.isForbiddenControl)
    }

    /// True when `byte` occurs.
    @inline(__always)
    func containsByte(_ byte: UInt8) -> Bool {
        firstIndex(of: byte, from: 0) != nil
    }

    /// The index of the first `byte` at or after `start`, or nil. Reads eight bytes at a time, as
    /// `containsForbiddenControl` does: a word holds `byte` when `word ^ byte…byte` has a zero byte.
    @inline(__always)
    func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        guard let base = baseAddress else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ (ones &* UInt64(byte))
            if (word &- ones) & ~word & highBits != 0 { break }
            index += 8
        }
        while index < count {
            if self[index] == byte { return index }
            index += 1
        }
        return nil
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

    /// The `count` bytes from `start` (at most eight, all in the buffer) each or-ed with 0x20, in one word:
    /// the first in its lowest byte, zeros above the last. Or-ing 0x20 makes bytes that differ only in
    /// the case of an ASCII letter the same (i;ascii-casemap, RFC 4790), so the word of a name in any
    /// case is that of the name in lower case. Reads the eight bytes from `start` at once when the
    /// buffer holds them, else the eight that end it, else (a buffer of fewer) one byte at a time.
    @inline(__always)
    func asciiCaseFoldedWord(from start: Int, count: Int) -> UInt64 {
        guard count > 0 else { return 0 }
        let base = baseAddress.unsafelyUnwrapped
        let bytes: UInt64 = ~0 &>> ((8 - count) * 8)
        let word: UInt64
        if start + 8 <= self.count {
            word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
        } else if self.count >= 8 {
            // The last eight bytes, shifted so that byte `start` is the lowest.
            let last = UInt64(littleEndian: UnsafeRawPointer(base + self.count - 8).loadUnaligned(as: UInt64.self))
            word = last &>> ((start + 8 - self.count) * 8)
        } else {
            var assembled: UInt64 = 0
            for index in 0..<count { assembled |= UInt64(base[start + index]) &<< (index * 8) }
            word = assembled
        }
        return (word | 0x2020_2020_2020_2020) & bytes
    }
}

extension UnsafeBufferPointer<UInt8> {
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

extension String {
    /// True when both strings have the same UTF-8 bytes. Cookies compare names, domains and paths as
    /// octets (rfc6265bis-22 §5.7 step 23); `==` would also equate canonically equivalent Unicode ("é"
    /// and "e" + U+0301), which are different cookies.
    @inline(__always)
    func hasSameUTF8(as other: String) -> Bool {
        other.withUTF8Bytes(hasUTF8)
    }

    /// True when the UTF-8 of this string is `bytes`.
    @inline(__always)
    func hasUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        withUTF8Bytes { $0.hasSameBytes(as: bytes) }
    }

    /// Calls `body` with the UTF-8 bytes: in place when the string holds them contiguously (a native
    /// string), else from a copy (a bridged one).
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(utf8).withUnsafeBufferPointer(body)
    }

    /// Feeds the UTF-8 bytes (and their count) to `hasher`: a hash agreeing with `hasSameUTF8(as:)`.
    func hashUTF8(into hasher: inout Hasher) {
        hasher.combine(utf8.count)
        for byte in utf8 { hasher.combine(byte) }
    }
}
