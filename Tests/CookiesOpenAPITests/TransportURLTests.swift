import Foundation
import Testing

@testable import CookiesOpenAPI

/// The URL a request goes to is the one the jar picks cookies for and stores them under. Both OpenAPI
/// client transports make it alike (swift-openapi-urlsession 1.4 `URLRequest.init(_:baseURL:)`,
/// swift-openapi-async-http-client 1.5 `AsyncHTTPClientTransport.convertRequest`):
/// `URLComponents(string: baseURL.absoluteString)`, its `percentEncodedPath += ` the path's
/// `URLComponents(string: request.path ?? "").percentEncodedPath`, its `percentEncodedQuery =` the path's.
@Suite("TransportURL")
struct TransportURLTests {
    /// What each transport sends for a server URL and a path: the server URL's own path kept, a trailing
    /// "/" included; a path starting with "//" read as an authority by `URLComponents`, whose host is
    /// dropped and whose path alone is added; the server URL's query replaced by the path's.
    @Test(arguments: [
        ("https://a.test", "/login", "https://a.test/login"),
        ("https://h/api/", "/pets", "https://h/api//pets"),
        ("https://h/api", "/pets?x=1", "https://h/api/pets?x=1"),
        ("https://a.test/", "/login", "https://a.test//login"),
        ("https://a.test", "//login", "https://a.test"),
        ("https://a.test", "//b.test/account?x=1", "https://a.test/account?x=1"),
        ("https://a.test?k=v", "/p", "https://a.test/p"),
        ("https://a.test/api", nil, "https://a.test/api"),
    ] as [(String, String?, String)])
    func joining(_ baseURL: String, _ path: String?, _ sent: String) throws {
        #expect(TransportURL.joining(try #require(URL(string: baseURL)), path) == sent)
    }

    /// A redirect's URL cut into a server URL and a path that the transports join into that very URL
    /// (without its fragment, which is never sent; "/" for an empty path, which HTTP sends as "/", RFC
    /// 9112 §3.2.1): the slashes that start the path but one stay with the server URL, so that the path is
    /// no authority to `URLComponents`.
    @Test(arguments: [
        ("https://a.test/x", "https://a.test", "/x"),
        ("https://a.test//login", "https://a.test/", "/login"),
        ("https://a.test//b.test/account?x=1", "https://a.test/", "/b.test/account?x=1"),
        ("https://a.test///x", "https://a.test//", "/x"),
        ("https://a.test/x?q=1#top", "https://a.test", "/x?q=1"),
        ("https://a.test", "https://a.test", "/"),
        ("https://a.test?q=1", "https://a.test", "/?q=1"),
        ("http://[::1]:8080/a/b", "http://[::1]:8080", "/a/b"),
        ("https://u:p@a.test/p", "https://u:p@a.test", "/p"),
    ])
    func split(_ url: String, _ baseURL: String, _ path: String) throws {
        let split = try #require(TransportURL.split(url))
        #expect(split.baseURL.absoluteString == baseURL)
        #expect(split.path == path)
        // Joined as the transports join them, step by step (the type's comment), they are the URL sent.
        var components = try #require(URLComponents(string: split.baseURL.absoluteString))
        let pathComponents = try #require(URLComponents(string: split.path))
        components.percentEncodedPath += pathComponents.percentEncodedPath
        components.percentEncodedQuery = pathComponents.percentEncodedQuery
        #expect(components.string == baseURL + path)
    }
}
