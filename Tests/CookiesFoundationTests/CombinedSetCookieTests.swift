import Testing

@testable import CookiesFoundation

@Suite("CombinedSetCookie.split")
struct CombinedSetCookieTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let combined: String
        let fields: [String]
        let why: String
        var testDescription: String { why }
    }

    /// Joined values as swift-corelibs-foundation makes them (fields joined with ", ", its
    /// HTTPMessage.headersAsDictionary), and the fields the split gives back.
    static let cases: [Case] = [
        Case(combined: "a=1", fields: ["a=1"], why: "one field stays whole"),
        Case(combined: "a=1; Path=/, b=2; Path=/", fields: ["a=1; Path=/", "b=2; Path=/"], why: "two fields"),
        Case(
            combined: "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=2; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            fields: ["a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT", "b=2; Expires=Thu, 01 Jan 1970 00:00:00 GMT"],
            why: "the comma of an IMF-fixdate (RFC 9110 §5.6.7) is not a separator"),
        Case(
            combined: "a=1; Expires=Wednesday, 21-Oct-26 07:28:00 GMT, b=2",
            fields: ["a=1; Expires=Wednesday, 21-Oct-26 07:28:00 GMT", "b=2"],
            why: "nor is the comma of an RFC 850 date"),
        Case(combined: "a=1,b=2", fields: ["a=1", "b=2"], why: "a join without the space"),
        Case(combined: "__Host-id=1; Secure, remember_me=x", fields: ["__Host-id=1; Secure", "remember_me=x"],
            why: "token characters of RFC 9110 §5.6.2 in names"),
        Case(combined: "a=1, b = 2", fields: ["a=1", "b = 2"], why: "whitespace around '=' (rfc6265bis-22 §5.6 trims it)"),
        Case(combined: "a=x, y=z", fields: ["a=x", "y=z"],
            why: "documented limit: a value containing ', name=' is split (servers keep commas out, §4.1.1)"),
        Case(combined: "a=1, nameless", fields: ["a=1, nameless"],
            why: "documented limit: a nameless cookie after another field stays in it"),
        Case(combined: "", fields: [], why: "no field"),
        Case(combined: "a=1; Path=/api, b[x]=5", fields: ["a=1; Path=/api", "b[x]=5"],
            why: "a name that is no token (PHP's setcookie(\"b[x]\")): rfc6265bis-22 §5.6 takes any bytes before '='"),
        Case(combined: "a=1, n\u{E9}=2", fields: ["a=1", "n\u{E9}=2"], why: "a UTF-8 name"),
        Case(combined: "a=1; Path=/, , b=2, ", fields: ["a=1; Path=/", "b=2"],
            why: "empty fields, joined as the others (swift-corelibs-foundation): gone, the fields beside them whole"),
    ]

    @Test(arguments: cases)
    func split(_ testCase: Case) {
        #expect(CombinedSetCookie.split(testCase.combined) == testCase.fields)
    }
}
