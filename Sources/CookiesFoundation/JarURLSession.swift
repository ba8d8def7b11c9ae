import Cookies
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession whose cookies live in a `CookieJar`: what `URLSessionConfiguration.httpCookieStorage`
/// does, with the jar's rules (rfc6265bis-22) instead of Foundation's.
///
/// Why not an `HTTPCookieStorage` subclass: on Linux swift-corelibs-foundation (Swift 6.3.1)
/// `HTTPCookieStorage` has no accessible initializer, so no subclass can be made
/// (swift-corelibs-foundation pull request 5148 proposes one); and URLSession would hand such a storage
/// cookies Foundation parsed itself, which drops SameSite, Partitioned and, on Linux, the Max-Age of
/// version-0 cookies.
///
/// The session's own cookie handling is off. Each request gets the jar's `Cookie` field; each response,
/// including every redirect on the way, has its `Set-Cookie` fields stored (split back as
/// `HTTPURLResponse.setCookieFields` says) before the next hop is sent, since this session follows
/// redirects itself.
public final class JarURLSession: Sendable {
    /// Where the cookies live.
    public let jar: CookieJar
    /// The underlying session (cookie handling off, redirects refused so that this type follows them).
    public let session: URLSession
    /// How many redirects one request may follow before `data(for:context:)` throws.
    public let maximumRedirects: Int

    /// A session on a copy of `configuration` with its own cookie handling turned off.
    public init(jar: CookieJar, configuration: URLSessionConfiguration = .ephemeral, maximumRedirects: Int = 20) {
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        self.jar = jar
        self.session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        self.maximumRedirects = maximumRedirects
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` with the jar's cookies, following redirects; returns the final response.
    /// `context` describes the first request; each hop keeps it with that hop's method.
    public func data(
        for request: URLRequest, context: CookieRequestContext = .firstParty
    ) async throws -> (Data, HTTPURLResponse) {
        var request = request
        var context = context
        for _ in 0...maximumRedirects {
            context.method = request.httpMethod ?? "GET"
            request.addCookies(from: jar, context: context)
            let (data, response) = try await session.data(for: request)
            guard let response = response as? HTTPURLResponse, let url = response.url ?? request.url else {
                throw URLError(.badServerResponse)
            }
            jar.receive(response, context: context)
            guard let redirect = Redirect(status: response.statusCode,
                location: response.value(forHTTPHeaderField: "Location"), from: url, method: context.method)
            else { return (data, response) }
            if redirect.dropsBody(of: context.method) {
                request.httpBody = nil
                request.setValue(nil, forHTTPHeaderField: "Content-Type")
                request.setValue(nil, forHTTPHeaderField: "Content-Length")
            }
            request.url = redirect.url
            request.httpMethod = redirect.method
        }
        throw URLError(.httpTooManyRedirects)
    }
}

/// Refuses URLSession's own redirect following, so that the response of each hop comes back.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
