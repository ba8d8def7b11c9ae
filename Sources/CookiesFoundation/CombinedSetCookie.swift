/// Splits a `Set-Cookie` value that a client library joined from several fields with ", " back into the
/// fields.
///
/// RFC 9110 §5.3 forbids combining `Set-Cookie` fields: an Expires date contains ", " itself. Foundation
/// on Linux combines them anyway (swift-corelibs-foundation builds `HTTPURLResponse.allHeaderFields` by
/// joining repeated fields with ", ", and `value(forHTTPHeaderField:)` reads that joined value; checked
/// with Swift 6.3.1), so the original fields cannot be had from an `HTTPURLResponse` there.
///
/// This undoes the join by one rule: a comma starts a new field only when what follows it is a cookie name and "=" (the name: bytes other than CTLs, whitespace, ";", "=",
/// "," and DQUOTE, so that PHP's `b[x]` or a UTF-8 name counts, rfc6265bis-22 §5.6 taking any of them)
/// or nothing but whitespace up to the next comma or the end (an empty field); any other comma, as in
/// `Expires=Wed, 21 Oct 2026 07:28:00 GMT`, stays. It gets back the fields a conforming server sends
/// (rfc6265bis-22 §4.1.1 keeps commas out of names and values). It cannot tell apart, and so joins or
/// splits wrongly:
/// - a field whose value or attribute contains ", name=" (the text after the comma starts a new field);
/// - a nameless cookie (`Set-Cookie: token`) after another field (it stays in the field before it).
/// An empty field disappears, as it would if it came alone.
/// On Linux, a response's fields whose name is spelled in another case than the others' (`Set-Cookie` and
/// `set-cookie` in one HTTP/1.1 response) are lost before any split: Foundation keeps the join of one
/// spelling, which one varying from run to run (swift-corelibs-foundation, Swift 6.3.1).
/// When the fields are available separately (swift-http-types' `HTTPFields`, AsyncHTTPClient, SwiftNIO),
/// pass them to `CookieJar.receive(_:from:context:)` instead.
public enum CombinedSetCookie {
    /// The fields joined into `combined`, in order, without the separating ", ".
    public static func split(_ combined: String) -> [String] {
        let bytes = Array(combined.utf8)
        var fields: [String] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ","), startsField(bytes, at: index + 1) || endsEmptyField(bytes, at: index + 1) {
                fields.append(field(bytes[start..<index]))
                start = index + 1
            }
            index += 1
        }
        fields.append(field(bytes[start...]))
        return fields.filter { !$0.isEmpty }
    }

    /// True when `bytes[index...]` is whitespace alone up to a comma or the end: the empty field a join
    /// put between two commas, or after the last.
    private static func endsEmptyField(_ bytes: [UInt8], at index: Int) -> Bool {
        var index = index
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        return index == bytes.count || bytes[index] == UInt8(ascii: ",")
    }

    /// True when `bytes[index...]` is optional whitespace, a cookie name and "=" (optional whitespace
    /// before it).
    private static func startsField(_ bytes: [UInt8], at index: Int) -> Bool {
        var index = index
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        let nameStart = index
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        guard index > nameStart else { return false }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        return index < bytes.count && bytes[index] == UInt8(ascii: "=")
    }

    /// A byte of a cookie name as a split reads one: not a CTL, whitespace, ";", "=", "," (the join's) or
    /// DQUOTE. Non-ASCII bytes are (a UTF-8 name).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F, UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ","), UInt8(ascii: "\""): false
        default: true
        }
    }

    /// One field, without the whitespace the join put before it.
    private static func field(_ bytes: ArraySlice<UInt8>) -> String {
        let trimmed = bytes.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return String(decoding: trimmed, as: UTF8.self)
    }
}
