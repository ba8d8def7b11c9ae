/// A name, value or attribute-value of a parsed `Set-Cookie` line: the range of its UTF-8 bytes in the
/// line, read into a `String` only when asked for.
///
/// Parsing a line thus allocates nothing for its parts (§5.6 only splits and trims the line), and a part
/// holds no reference: a parsed value has one to release, its line's. A cookie that is stored makes each
/// `String` once, from the line's bytes.
struct LinePart: Sendable {
    /// Bytes `start..<end` of the line's UTF-8; both offsets fall on ASCII delimiters, the line's ends or
    /// the ends of a text appended to the line, so on scalar boundaries.
    var start: Int
    var end: Int

    /// How many bytes the part has.
    var count: Int { end - start }
    var isEmpty: Bool { start == end }

    /// The UTF-8 of this part, in `line`'s UTF-8.
    @inline(__always)
    func bytes(in line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[start..<end])
    }

    /// The text of this part of `line`.
    @inline(__always)
    func string(in line: String) -> String {
        // Parts end at ";", "=" or whitespace (ASCII) of a String's UTF-8: well-formed themselves.
        line.withUTF8Bytes { line in
            let bytes = UnsafeBufferPointer(rebasing: line[start..<end])
            return String(wellFormedUTF8: bytes, isASCII: bytes.isASCII)
        }
    }

    /// Appends the text of this part of `line` to `output`, without a `String` of its own.
    @inline(__always)
    func append(in line: String, to output: inout String) {
        let utf8 = line.utf8
        let first = utf8.index(utf8.startIndex, offsetBy: start)
        output.append(contentsOf: line[first..<utf8.index(first, offsetBy: end - start)])
    }

    /// The first UTF-8 byte of this part of `line`, nil when it is empty.
    @inline(__always)
    func firstByte(in line: String) -> UInt8? {
        start < end ? line.utf8[line.utf8.index(line.utf8.startIndex, offsetBy: start)] : nil
    }
}

extension LinePart {
    /// This attribute-value of `line` without one leading "." (§5.6.3 step 2): the cookie-domain of a
    /// Domain attribute.
    @inline(__always)
    func droppingLeadingDot(in line: UnsafeBufferPointer<UInt8>) -> LinePart {
        start < end && line[start] == UInt8(ascii: ".") ? LinePart(start: start + 1, end: end) : self
    }

    /// Bytes `start..<end` of `line` without their leading and trailing WSP (§5.6 step 4 and attribute
    /// step 5); `start` is at most `end`.
    @inline(__always)
    init(trimmingCookieWhitespaceFrom start: Int, to end: Int, of line: UnsafeBufferPointer<UInt8>) {
        var start = start
        var end = end
        while start < end, line[start].isCookieWhitespace { start += 1 }
        while end > start, line[end - 1].isCookieWhitespace { end -= 1 }
        self.init(start: start, end: end)
    }
}
