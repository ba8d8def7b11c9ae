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

    /// A Location with a special scheme, or starting with slashes, resolves as the WHATWG URL standard's
    /// basic URL parser (what browsers follow) resolves it, where RFC 3986 gives a URL without a host,
    /// which no redirect may go to: the base's scheme with fewer than two slashes is relative ("special
    /// relative or authority state", "relative state"); two or more slashes, or a special scheme other
    /// than the base's, start the authority, every slash skipped ("special authority ignore slashes
    /// state"); a backslash before the query is a slash ("url is special and c is U+005C (\)"); C0
    /// controls and spaces at the ends, and every tab and newline, are removed first; dot segments go
    /// ("shorten url's path"). Other schemes are as RFC 3986 reads them, and refused.
    @Test(arguments: [
        ("http:/y", "http://a.test/y"), ("http:y", "http://a.test/d/y"), ("HTTP:/y", "http://a.test/y"),
        ("http:?q", "http://a.test/d/x?q"), ("http:a:b", "http://a.test/d/a:b"), ("http:\\y", "http://a.test/y"),
        ("http:///y", "http://y"), ("///y", "http://y"), ("https:/y", "https://y"), ("https:y", "https://y"),
        ("\\\\b.test/z", "http://b.test/z"), ("/\\b.test/z", "http://b.test/z"),
        ("http://b.test/z", "http://b.test/z"), ("HTTPS://b.test/z", "https://b.test/z"),
        ("//b.test\\z", "http://b.test/z"), ("/a\\b", "http://a.test/a/b"), ("/a\\b?c\\d", "http://a.test/a/b?c%5Cd"),
        ("/a\tb\n", "http://a.test/ab"), (" \u{1}/y ", "http://a.test/y"),
        ("/a/../c", "http://a.test/c"), ("http://b.test/a/./../c", "http://b.test/c"), ("../../../y", "http://a.test/y"),
        // Percent-encoded dot segments are dot segments ("single-dot URL path segment", "double-dot URL path
        // segment"), in any case; a "%2e" within a segment, in the query, or as the host is none.
        ("/a/%2e%2e/c", "http://a.test/c"), ("/a/.%2E/c", "http://a.test/c"), ("/a/%2E./c", "http://a.test/c"),
        ("/a/%2e/c", "http://a.test/a/c"), ("http://b.test/a/%2e%2e/c", "http://b.test/c"), ("%2e%2e/y", "http://a.test/y"),
        ("/a/x%2e/c", "http://a.test/a/x%2e/c"), ("/a?%2e%2e/c", "http://a.test/a?%2e%2e/c"),
        // The port as the standard serialises it ("port state"): an empty one is none, leading zeros go, and
        // the scheme's default port is omitted.
        ("http://b.test:/x", "http://b.test/x"), ("http://b.test:0080/x", "http://b.test/x"),
        ("http://b.test:08080/x", "http://b.test:8080/x"), ("https://b.test:443?q", "https://b.test?q"),
        ("https://u:p@b.test:00443/", "https://u:p@b.test/"), ("http://[::1]:0/", "http://[::1]:0/"),
        ("http://b.test:8080/x", "http://b.test:8080/x"),
    ])
    func specialSchemeLocation(_ location: String, _ expected: String) throws {
        var chain = RedirectChain(url: "http://a.test/d/x", method: "GET", jar: makeTestJar())
        #expect(try chain.follow(status: 302, location: location)?.url == expected)
    }

    /// A Location of a scheme that is not special is read as RFC 3986 reads it, and is no http URL.
    @Test(arguments: ["mailto:a@b.test", "javascript:alert(1)", "data:,x"])
    func otherSchemeLocation(_ location: String) {
        var chain = RedirectChain(url: "http://a.test/d/x", method: "GET", jar: makeTestJar())
        let error = #expect(throws: RedirectError.self) { try chain.follow(status: 302, location: location) }
        #expect(error?.description == "redirect to \(location), which is no http or https URL: GET http://a.test/d/x → 302")
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
