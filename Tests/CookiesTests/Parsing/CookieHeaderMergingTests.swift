import Testing

@testable import Cookies

@Suite("CookieHeader.merging")
struct CookieHeaderMergingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let fields: [String]
        let jar: String?
        let merged: String?
        let source: String
        var testDescription: String { source }
    }

    /// One field (rfc6265bis-22 §5.8.1: no more than one Cookie header field); the request's own pairs
    /// first, the jar's after them unless the request names that cookie itself.
    static let cases: [Case] = [
        Case(fields: [], jar: nil, merged: nil, source: "nothing to send: no field"),
        Case(fields: [], jar: "a=1; b=2", merged: "a=1; b=2", source: "the jar's alone"),
        Case(fields: ["own=x"], jar: nil, merged: "own=x", source: "the request's alone"),
        Case(fields: ["own=x"], jar: "a=1", merged: "own=x; a=1", source: "both: the request's first"),
        Case(fields: ["a=mine"], jar: "a=1; b=2", merged: "a=mine; b=2", source: "the request's value wins for its name"),
        Case(fields: ["x=1", "y=2"], jar: "z=3", merged: "x=1; y=2; z=3",
            source: "swift-http-types splits a Cookie value into several fields: joined back into one"),
    ]

    @Test(arguments: cases)
    func merging(_ testCase: Case) {
        #expect(CookieHeader.merging(testCase.fields, with: testCase.jar) == testCase.merged)
    }

    /// A request's own cookies without those a response changed (`RedirectChain.receive(_:)`), as one field;
    /// none when no pair is left, the fields as they were when no name is dropped.
    @Test(arguments: [
        (["session=old; keep=1"], ["session"], ["keep=1"]),
        (["session=old", "keep=1"], ["session"], ["keep=1"]),
        (["session=old"], ["session"], []),
        (["a=1", "b=2"], [], ["a=1", "b=2"]),
        (["a=1"], ["z"], ["a=1"]),
    ] as [([String], Set<String>, [String])])
    func removing(_ fields: [String], _ names: Set<String>, _ kept: [String]) {
        #expect(CookieHeader.removing(names, from: fields) == kept)
    }
}
