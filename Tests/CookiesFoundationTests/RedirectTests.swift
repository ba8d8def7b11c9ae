import Foundation
import Testing

@testable import CookiesFoundation

@Suite("Redirect")
struct RedirectTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let status: Int
        let method: String
        let next: String?
        var testDescription: String { "\(status) after \(method) → \(next ?? "no redirect")" }
    }

    /// RFC 9110 §15.4: 303 makes a GET (but of HEAD); 301 and 302 make POST a GET, as user agents do;
    /// 307 and 308 keep the method; other statuses are no redirect.
    static let cases: [Case] = [
        Case(status: 301, method: "POST", next: "GET"), Case(status: 301, method: "DELETE", next: "DELETE"),
        Case(status: 302, method: "POST", next: "GET"), Case(status: 302, method: "GET", next: "GET"),
        Case(status: 303, method: "POST", next: "GET"), Case(status: 303, method: "DELETE", next: "GET"),
        Case(status: 303, method: "HEAD", next: "HEAD"),
        Case(status: 307, method: "POST", next: "POST"), Case(status: 308, method: "PUT", next: "PUT"),
        Case(status: 300, method: "GET", next: nil), Case(status: 304, method: "GET", next: nil),
        Case(status: 200, method: "GET", next: nil),
    ]

    @Test(arguments: cases)
    func method(_ testCase: Case) {
        let redirect = Redirect(status: testCase.status, location: "/next", from: foundationURL("https://a.test/x/y"),
            method: testCase.method)
        #expect(redirect?.method == testCase.next)
        if let redirect {
            #expect(redirect.dropsBody(of: testCase.method) == (redirect.method == "GET" && testCase.method != "GET"))
        }
    }

    /// The Location is a URI reference resolved against the URL that answered (RFC 9110 §10.2.2).
    @Test(arguments: [
        ("/me", "http://127.0.0.1:8080/me"), ("me", "http://127.0.0.1:8080/a/me"),
        ("https://other.test/x", "https://other.test/x"), ("//cdn.test/y", "http://cdn.test/y"),
    ])
    func location(_ location: String, _ expected: String) {
        let redirect = Redirect(status: 302, location: location, from: foundationURL("http://127.0.0.1:8080/a/b"), method: "GET")
        #expect(redirect?.url.absoluteString == expected)
    }

    @Test("no Location, no redirect")
    func missingLocation() {
        #expect(Redirect(status: 302, location: nil, from: foundationURL("https://a.test/"), method: "GET") == nil)
    }
}
