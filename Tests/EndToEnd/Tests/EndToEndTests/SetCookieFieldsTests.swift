import AsyncHTTPClient
import CookiesFoundation
import Foundation
import TestBackend
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What each HTTP client hands out when a response carries several `Set-Cookie` fields, over real
/// HTTP. The sign-out response carries the two fields of `Backend.signOutCookies`, whose values are
/// fixed.
@Suite("Several Set-Cookie fields over real HTTP")
struct SetCookieFieldsTests {
    /// URLSession joins them with ", " into one value, in `allHeaderFields` and in
    /// `value(forHTTPHeaderField:)` alike (swift-corelibs-foundation's HTTPMessage.headersAsDictionary);
    /// `setCookieFields` splits them back.
    @Test("URLSession joins them; setCookieFields splits them back")
    func urlSession() async throws {
        try await Backend.withRunningServer { baseURL in
            var request = URLRequest(url: URL(string: baseURL + "/api/v1/auth")!)
            request.httpMethod = "DELETE"
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpShouldSetCookies = false
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            let (_, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            let joined = Backend.signOutCookies.joined(separator: ", ")
            #expect(http.allHeaderFields["Set-Cookie"] as? String == joined)
            #expect(http.value(forHTTPHeaderField: "Set-Cookie") == joined)
            #expect(http.setCookieFields == Backend.signOutCookies)
        }
    }

    @Test("AsyncHTTPClient keeps them apart")
    func asyncHTTPClient() async throws {
        try await Backend.withRunningServer { baseURL in
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            var request = HTTPClientRequest(url: baseURL + "/api/v1/auth")
            request.method = .DELETE
            let response = try await client.execute(request, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            #expect(response.headers["Set-Cookie"] == Backend.signOutCookies)
        }
    }
}
