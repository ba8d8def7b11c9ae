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
/// `Set-Cookie` fields joined with ", " into one (Foundation joins repeated fields), so a response's one
/// `Set-Cookie` field is split back as `CombinedSetCookie.split` does (exact for the fields conforming
/// servers send; see there for what it cannot tell apart); several fields came from a transport that
/// keeps them apart, and are stored as they are. Redirects are the transport's: the jar sees only the
/// final response (use `JarURLSession` or `JarHTTPClient` where cookies must follow redirect hops).
///
/// The jar must be the only cookie store: a URLSession transport's session is made with its own cookie
/// handling off (`URLSessionTransport()` uses `URLSession.shared`, which stores and sends cookies of its
/// own, still signed in after the jar was emptied).
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.httpShouldSetCookies = false
/// configuration.httpCookieAcceptPolicy = .never
/// let transport = URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
/// let client = Client(serverURL: url, transport: transport, middlewares: [CookieJarMiddleware(jar: jar)])
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
            let fields = response.headerFields[values: .setCookie]
            jar.receive(fields.count == 1 ? CombinedSetCookie.split(fields[0]) : fields, from: url, context: context)
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
