import Cookies
import Testing

@testable import CookiesFoundation

/// The Location of a redirect is a URI reference resolved against the URL that answered (RFC 9110
/// §10.2.2, RFC 3986 §5.2); the rules of each hop are `RedirectChain`'s (CookiesTests).
@Suite("RedirectChain with a Location field")
struct RedirectTests {
    @Test(arguments: [
        ("/me", "http://127.0.0.1:8080/me"), ("me", "http://127.0.0.1:8080/a/me"),
        ("https://other.test/x", "https://other.test/x"), ("//cdn.test/y", "http://cdn.test/y"),
        ("?q=1", "http://127.0.0.1:8080/a/b?q=1"),
    ])
    func location(_ location: String, _ expected: String) throws {
        var chain = RedirectChain(url: "http://127.0.0.1:8080/a/b", method: "GET", jar: makeTestJar())
        #expect(try chain.follow(status: 302, location: location)?.url == expected)
        #expect(chain.current.url == expected)
    }

    /// Every Location field of a response: equal ones are one, resolved as one; different ones throw
    /// before anything is followed (Fetch's "location URL" is failure; `RedirectChain.location(status:values:)`).
    @Test("several Location fields")
    func locationFields() throws {
        var chain = RedirectChain(url: "http://127.0.0.1:8080/a/b", method: "GET", jar: makeTestJar())
        #expect(try chain.follow(status: 302, locations: ["me", "me"])?.url == "http://127.0.0.1:8080/a/me")
        let error = #expect(throws: RedirectError.self) { try chain.follow(status: 301, locations: ["/x", "/y"]) }
        #expect(error?.description == "redirect with several different Location fields (\"/x\", \"/y\"): "
            + "GET http://127.0.0.1:8080/a/b → 302, GET http://127.0.0.1:8080/a/me → 301")
        #expect(chain.current.url == "http://127.0.0.1:8080/a/me")
    }

    @Test("no Location, no redirect")
    func missingLocation() throws {
        var chain = RedirectChain(url: "https://a.test/", method: "GET", jar: makeTestJar())
        #expect(try chain.follow(status: 302, location: nil) == nil)
        #expect(chain.hops.map(\.description) == ["GET https://a.test/ → 302"])
    }
}
