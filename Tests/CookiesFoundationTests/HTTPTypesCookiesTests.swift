import Cookies
import HTTPTypes
import Testing

@testable import CookiesFoundation

@Suite("swift-http-types HTTPRequest, HTTPResponse, HTTPFields")
struct HTTPTypesCookiesTests {
    @Test("HTTPRequest's URL: scheme, authority and path")
    func cookieURL() {
        let request = HTTPRequest(method: .get, scheme: "https", authority: "www.example.com:8443", path: "/api/me?x=1")
        #expect(request.cookieURL == url("https://www.example.com:8443/api/me?x=1"))
        let connect = HTTPRequest(method: .connect, scheme: nil, authority: "example.com:443", path: nil)
        #expect(connect.cookieURL == nil)
    }

    @Test("a request gets the jar's Cookie field; none when the jar sends nothing")
    func addCookies() {
        let jar = makeTestJar()
        jar.receive(["a=1; Path=/", "b=2; Path=/api"], from: url("https://example.com/"))
        var request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/api/me")
        request.headerFields[.cookie] = "stale=1"
        request.addCookies(from: jar)
        #expect(request.headerFields[.cookie] == "b=2; a=1")
        // One field, not one a cookie (rfc6265bis-22 §5.8.1: "MUST NOT attach more than one Cookie header
        // field"), which a transport copying the fields one by one would send as several lines.
        #expect(request.headerFields[values: .cookie] == ["b=2; a=1"])
        var other = HTTPRequest(method: .get, scheme: "https", authority: "other.test", path: "/")
        other.headerFields[.cookie] = "stale=1"
        other.addCookies(from: jar)
        #expect(other.headerFields[.cookie] == nil)
    }

    /// The request's own method decides, as for URLRequest (rfc6265bis-22 §5.8.3: a cross-site
    /// SameSite=Lax cookie needs a "safe" method, RFC 9110 §9.2.1).
    @Test("a cross-site navigation carries SameSite=Lax cookies for its own method only", arguments: [
        (HTTPRequest.Method.get, "lax=1; none=1"), (.head, "lax=1; none=1"), (.options, "lax=1; none=1"),
        (.post, "none=1"), (.put, "none=1"), (.patch, "none=1"),
    ])
    func requestMethod(_ method: HTTPRequest.Method, _ expected: String) {
        let jar = makeTestJar()
        jar.receive(["lax=1; SameSite=Lax", "none=1; SameSite=None; Secure"], from: url("https://example.com/"))
        var request = HTTPRequest(method: method, scheme: "https", authority: "example.com", path: "/")
        request.addCookies(from: jar, context: CookieRequestContext(siteForCookies: .origin(url("https://shop.test/")), isTopLevelNavigation: true))
        #expect(request.headerFields[.cookie] == expected)
    }

    /// HTTPFields keeps repeated fields apart (`fields[values: .setCookie]`), so even values that a
    /// comma join would make ambiguous arrive whole.
    @Test("every Set-Cookie field of an HTTPResponse is stored on its own")
    func receive() {
        let jar = makeTestJar()
        let request = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/api/v1/auth")
        var response = HTTPResponse(status: .ok)
        for line in [
            "session=s1; Path=/; HttpOnly", "remember_me=r1; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT",
            "odd=x, y=z; Path=/",
        ] {
            response.headerFields.append(HTTPField(name: .setCookie, value: line))
        }
        jar.receive(response, to: request)
        #expect(jar.cookies(forSite: "example.com").map(\.name) == ["session", "remember_me", "odd"])
        #expect(jar.cookies(forSite: "example.com").first { $0.name == "odd" }?.value == "x, y=z")
    }
}
