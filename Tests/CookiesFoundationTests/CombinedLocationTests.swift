import Testing

@testable import CookiesFoundation

@Suite("CombinedLocation.split")
struct CombinedLocationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let combined: String
        let locations: [String]
        let why: String
        var testDescription: String { why }
    }

    /// Location values as Foundation hands them over (repeated fields joined with ", ", swift-corelibs-
    /// foundation's HTTPMessage.headersAsDictionary), and the Locations the split gives back: several only
    /// when each piece is an absolute URL (RFC 3986 §3: a scheme, then "//" and an authority), for one
    /// Location may hold ", " (a space unencoded, which no URI reference has, RFC 3986 §2, but which
    /// browsers follow percent-encoded).
    static let cases: [Case] = [
        Case(combined: "/home", locations: ["/home"], why: "one relative Location"),
        Case(combined: "https://b.test/x", locations: ["https://b.test/x"], why: "one absolute Location"),
        Case(
            combined: "https://a.test/x, https://b.test/y", locations: ["https://a.test/x", "https://b.test/y"],
            why: "two absolute URLs joined: two fields"),
        Case(
            combined: "https://a.test/x, https://a.test/x", locations: ["https://a.test/x", "https://a.test/x"],
            why: "the same field twice: both (RedirectChain.location(status:values:) takes them for one)"),
        Case(
            combined: "http://a.test/, HTTPS://b.test/, ftp+x.1://c.test/",
            locations: ["http://a.test/", "HTTPS://b.test/", "ftp+x.1://c.test/"], why: "any scheme, in any case"),
        Case(
            combined: "/files/Report Q1, 2024.pdf", locations: ["/files/Report Q1, 2024.pdf"],
            why: "a path holding \", \": one Location"),
        Case(
            combined: "https://a.test/files/Report Q1, 2024.pdf", locations: ["https://a.test/files/Report Q1, 2024.pdf"],
            why: "an absolute URL holding \", \" not followed by a URL: one Location"),
        Case(combined: "/a, /b", locations: ["/a, /b"], why: "relative ones joined cannot be told from one Location"),
        Case(
            combined: "https://a.test/x, /y", locations: ["https://a.test/x, /y"],
            why: "a relative piece: one Location"),
        Case(
            combined: "https://a.test/x, 1http://b.test/", locations: ["https://a.test/x, 1http://b.test/"],
            why: "no scheme starts with a digit: one Location"),
        Case(
            combined: "https://a.test/x, mailto:b@c.test", locations: ["https://a.test/x, mailto:b@c.test"],
            why: "a scheme without \"//\": one Location"),
        Case(
            combined: "https://a.test/x,https://b.test/y", locations: ["https://a.test/x,https://b.test/y"],
            why: "a comma without the join's space: one Location"),
    ]

    @Test(arguments: cases)
    func split(_ testCase: Case) {
        #expect(CombinedLocation.split(testCase.combined) == testCase.locations)
    }
}
