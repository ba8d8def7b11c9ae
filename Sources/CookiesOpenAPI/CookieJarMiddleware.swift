#if CookiesOpenAPI
import Cookies
import CookiesFoundation
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A swift-openapi-runtime client middleware that keeps the client's cookies in a `CookieJar`: each
/// request gets one `Cookie` field, the operation's own cookies (a `Cookie` field it set, e.g. for an
/// `in: cookie` parameter) merged with the jar's (`CookieHeader.merging`); every `Set-Cookie` field of
/// the response is stored, each on its own.
///
/// Works over any transport. The URLSession transport (swift-openapi-urlsession) hands the response's
/// `Set-Cookie` fields joined with ", " into one (Foundation joins repeated fields), so each value is
/// split back as `CombinedSetCookie.split` does (exact for the fields conforming servers send; see there
/// for what it cannot tell apart). The AsyncHTTPClient transport keeps them apart. Redirects are the
/// transport's: the jar sees only the final response (use `JarURLSession` or `JarHTTPClient` where
/// cookies must follow redirect hops).
///
/// ```swift
/// let client = Client(serverURL: url, transport: URLSessionTransport(),
///                     middlewares: [CookieJarMiddleware(jar: jar)])
/// ```
public struct CookieJarMiddleware: ClientMiddleware {
    /// Where the cookies live.
    public let jar: CookieJar
    /// The context of every request (its method is each request's own).
    public let context: CookieRequestContext

    /// A middleware on `jar`; `context` describes the client's requests (default: a native app's own).
    public init(jar: CookieJar, context: CookieRequestContext = .firstParty) {
        self.jar = jar
        self.context = context
    }

    /// Adds the `Cookie` field, sends the request through `next`, stores the response's cookies.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        var context = context
        context.method = request.method.rawValue
        let url = CookieURL(Self.requestURL(baseURL: baseURL, path: request.path))
        let jarValue = url.flatMap { jar.cookieHeader(for: $0, context: context) }
        let value = CookieHeader.merging(request.headerFields[values: .cookie], with: jarValue)
        request.headerFields[fields: .cookie] = value.map { [HTTPField(name: .cookie, value: $0)] } ?? []
        let (response, responseBody) = try await next(request, body, baseURL)
        if let url {
            jar.receive(response.headerFields[values: .setCookie].flatMap(CombinedSetCookie.split), from: url, context: context)
        }
        return (response, responseBody)
    }

    /// The URL a transport sends the request to: the server URL with the operation's path (and query)
    /// after its own path.
    static func requestURL(baseURL: URL, path: String?) -> String {
        var base = baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        return base + (path ?? "/")
    }
}
#endif
