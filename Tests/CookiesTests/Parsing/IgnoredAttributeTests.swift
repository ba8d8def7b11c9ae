import Testing
import Cookies

/// `ParsedSetCookie.ignoredAttributes(of:)`: the cookie-avs rfc6265bis-22 §5.6 ignores or takes for
/// their default, one row per rule, in line order.
struct IgnoredAttributeTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var line: String
        var ignored: [IgnoredAttribute]
        var source: String
        var testDescription: String { "\(source): \(line.debugDescription)" }
    }

    static let rows: [Row] = [
        Row(line: "a=b; Path=/; Domain=example.com; Secure; HttpOnly; SameSite=Lax; Max-Age=5; Partitioned", ignored: [],
            source: "§5.6: every attribute applied"),
        Row(line: "a=b; Expires=Thu, 01 Jan 2099 00:00:00 GMT", ignored: [], source: "§5.6.1: a cookie-date"),
        Row(line: "a=b;; ;", ignored: [], source: "§5.6: empty cookie-avs name no attribute"),
        Row(line: "a=b; Foo=bar; Partition", ignored: [.init(name: "Foo", value: "bar", reason: .unknownName), .init(name: "Partition", value: "", reason: .unknownName)],
            source: "§5.6 attribute step 7: unknown attribute-names"),
        Row(line: "a=b; Path=/" + String(repeating: "p", count: 1024), ignored: [.init(name: "Path", value: "/" + String(repeating: "p", count: 1024), reason: .valueTooLong)],
            source: "§5.6 attribute step 6: 1025 octets"),
        Row(line: "a=b; Path=/" + String(repeating: "p", count: 1023), ignored: [], source: "§5.6 attribute step 6: 1024 octets is the limit"),
        Row(line: "a=b; expires=never", ignored: [.init(name: "expires", value: "never", reason: .expiresNotACookieDate)],
            source: "§5.6.1 step 2"),
        Row(line: "a=b; Max-Age=1.5; Max-Age=; Max-Age=-; Max-Age=+5", ignored: [
            .init(name: "Max-Age", value: "1.5", reason: .maxAgeNotAnInteger), .init(name: "Max-Age", value: "", reason: .maxAgeNotAnInteger),
            .init(name: "Max-Age", value: "-", reason: .maxAgeNotAnInteger), .init(name: "Max-Age", value: "+5", reason: .maxAgeNotAnInteger),
        ], source: "§5.6.2 steps 1-3"),
        Row(line: "a=b; Max-Age=x; Max-Age=1; Max-Age=y; Expires=never; Expires=Thu, 01 Jan 2099 00:00:00 GMT; Expires=later", ignored: [
            .init(name: "Max-Age", value: "x", reason: .maxAgeNotAnInteger, isReplacedByLaterValue: true),
            .init(name: "Max-Age", value: "y", reason: .maxAgeNotAnInteger),
            .init(name: "Expires", value: "never", reason: .expiresNotACookieDate, isReplacedByLaterValue: true),
            .init(name: "Expires", value: "later", reason: .expiresNotACookieDate),
        ], source: "§5.6.1, §5.6.2: the last Expires or Max-Age that parses applies; an ignored one before it would not apply either"),
        Row(line: "a=b; Domain=; Domain=.", ignored: [.init(name: "Domain", value: "", reason: .emptyDomain), .init(name: "Domain", value: ".", reason: .emptyDomain)],
            source: "§5.6.3: an empty Domain makes the cookie host-only"),
        Row(line: "a=b; Path=; Path=docs", ignored: [.init(name: "Path", value: "", reason: .pathWithoutLeadingSlash), .init(name: "Path", value: "docs", reason: .pathWithoutLeadingSlash)],
            source: "§5.6.4 step 1: the default-path"),
        Row(line: "a=b; SameSite=Weird; SameSite=NoneOfThem", ignored: [
            .init(name: "SameSite", value: "Weird", reason: .unknownSameSiteValue), .init(name: "SameSite", value: "NoneOfThem", reason: .unknownSameSiteValue),
        ], source: "§5.6.7 step 5: enforcement Default"),
        Row(line: "a=b; Foo=bar\u{7F}", ignored: [], source: "§5.6 step 1: the whole line is ignored, nothing is told of its attributes"),
    ]

    @Test(arguments: rows)
    func ignoredAttributes(_ row: Row) {
        #expect(ParsedSetCookie.ignoredAttributes(of: row.line) == row.ignored)
    }

    /// Telling what was ignored changes nothing the parser keeps: the lines parse as they do without it.
    @Test(arguments: rows)
    func parsingIsTheSame(_ row: Row) throws {
        let parsed = Result { () throws(CookieRejection) in try ParsedSetCookie(parsing: row.line) }
        _ = ParsedSetCookie.ignoredAttributes(of: row.line)
        #expect(parsed == Result { () throws(CookieRejection) in try ParsedSetCookie(parsing: row.line) })
    }

    struct OctetRow: Sendable, CustomTestStringConvertible {
        var value: String
        var first: Unicode.Scalar?
        var testDescription: String { value.debugDescription }
    }

    /// §4.1.1: cookie-value = *cookie-octet / ( DQUOTE *cookie-octet DQUOTE ), cookie-octet = %x21 /
    /// %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E.
    static let octetRows: [OctetRow] = [
        OctetRow(value: "abc-._~!#$%&'()*+/:<>?@[]^`{|}", first: nil),
        OctetRow(value: "\"quoted\"", first: nil),
        OctetRow(value: "\"", first: "\""),
        OctetRow(value: "a b", first: " "),
        OctetRow(value: "a,b", first: ","),
        OctetRow(value: "a\\b", first: "\\"),
        OctetRow(value: "a\"b", first: "\""),
        OctetRow(value: "a\tb", first: "\t"),
        OctetRow(value: "café", first: "é"),
        OctetRow(value: "", first: nil),
    ]

    @Test(arguments: octetRows)
    func firstNonCookieOctet(_ row: OctetRow) throws {
        #expect(try ParsedSetCookie(name: "n", value: row.value).firstNonCookieOctet == row.first)
    }
}
