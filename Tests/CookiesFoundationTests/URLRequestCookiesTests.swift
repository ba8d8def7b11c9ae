import Cookies
import Foundation
import Testing

@testable import CookiesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLRequest and HTTPURLResponse")
struct URLRequestCookiesTests {
    @Test("a request gets the jar's Cookie field, replacing one it had")
    func addCookies() {
        let jar = makeTestJar()
        jar.receive(["a=1; Path=/", "b=2; Path=/api"], from: url("https://example.com/"))
        var request = URLRequest(url: foundationURL("https://example.com/api/me"))
        request.setValue("stale=1", forHTTPHeaderField: "Cookie")
        request.addCookies(from: jar)
        #expect(request.value(forHTTPHeaderField: "Cookie") == "b=2; a=1")
    }

    @Test("a request the jar sends nothing to loses its Cookie field")
    func noCookies() {
        var request = URLRequest(url: foundationURL("https://other.test/"))
        request.setValue("stale=1", forHTTPHeaderField: "Cookie")
        request.addCookies(from: makeTestJar())
        #expect(request.value(forHTTPHeaderField: "Cookie") == nil)
    }

    @Test("the context reaches retrieval: a cross-site POST gets no Lax cookie (rfc6265bis-22 §5.8.3 step 1)")
    func context() {
        let jar = makeTestJar()
        jar.receive(["lax=1; SameSite=Lax", "none=1; SameSite=None; Secure"], from: url("https://example.com/"))
        var request = URLRequest(url: foundationURL("https://example.com/"))
        request.addCookies(from: jar, context: CookieRequestContext(siteForCookies: .opaque, method: "POST"))
        #expect(request.value(forHTTPHeaderField: "Cookie") == "none=1")
    }

    /// An HTTPURLResponse holds one value per field name: what URLSession on Linux hands out is the
    /// join (checked over real HTTP in Tests/EndToEnd). The jar gets every field back from it.
    @Test("every Set-Cookie of a joined HTTPURLResponse value is stored")
    func receiveJoined() throws {
        let jar = makeTestJar()
        let response = try #require(
            HTTPURLResponse(
                url: foundationURL("https://example.com/api/v1/auth"), statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Set-Cookie": "session=s1; Path=/; HttpOnly, remember_me=r1; Path=/; Expires=Tue, 21 Oct 2025 07:28:00 GMT"]))
        #expect(response.setCookieFields.count == 2)
        jar.receive(response)
        #expect(jar.cookies(forSite: "example.com").map(\.name) == ["session", "remember_me"])
        #expect(jar.cookies(forSite: "example.com").first { $0.name == "remember_me" }?.expiry
            == CookieTime(secondsSinceEpoch: Int64(1_761_031_680)))
    }

    /// The request's own method decides, not the context's default GET: rfc6265bis-22 §5.8.3 sends a
    /// SameSite=Lax cookie cross-site only when "the HTTP request associated with the retrieval uses a
    /// 'safe' method" (RFC 9110 §9.2.1) on a top-level navigation; a method is normalised as Fetch's
    /// "normalize a method" does ("get" is GET), and no httpMethod means GET (URLRequest's default).
    @Test("a cross-site navigation carries SameSite=Lax cookies for its own method only", arguments: [
        (nil, "lax=1; none=1"), ("GET", "lax=1; none=1"), ("get", "lax=1; none=1"), ("HEAD", "lax=1; none=1"),
        ("POST", "none=1"), ("PUT", "none=1"), ("DELETE", "none=1"),
    ] as [(String?, String)])
    func requestMethod(_ method: String?, _ expected: String) {
        let jar = makeTestJar()
        jar.receive(["lax=1; SameSite=Lax", "none=1; SameSite=None; Secure"], from: url("https://example.com/"))
        var request = URLRequest(url: foundationURL("https://example.com/"))
        request.httpMethod = method
        request.addCookies(from: jar, context: CookieRequestContext(siteForCookies: .origin(url("https://shop.test/")), isTopLevelNavigation: true))
        #expect(request.value(forHTTPHeaderField: "Cookie") == expected)
    }
}
