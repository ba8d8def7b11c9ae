/// A request method as RFC 9110 §9.1 spells it: a token (§5.6.2), one or more tchar:
/// "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA.
/// A method with a space or a control character is no method: no request could carry it.
enum HTTPMethod {
    /// Whether `text` is a token, and so a method a request could carry (case-sensitive: "get" is another
    /// method than "GET", RFC 9110 §9.1).
    static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
