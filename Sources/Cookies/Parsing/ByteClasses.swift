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

    /// The value of this byte as a HEXDIG (RFC 5234 Appendix B.1, either case, as RFC 3986 §2.1 reads a
    /// percent-encoding and RFC 4291 an IPv6 piece), nil for any other byte.
    var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// cookie-octet = %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E (rfc6265bis-22 §4.1.1): US-ASCII
    /// characters excluding CTLs, whitespace, DQUOTE, comma, semicolon and backslash, the octets a server
    /// should put in a cookie-value.
    var isCookieOctet: Bool {
        switch self {
        case 0x21, 0x23...0x2B, 0x2D...0x3A, 0x3C...0x5B, 0x5D...0x7E: true
        default: false
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
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
}
