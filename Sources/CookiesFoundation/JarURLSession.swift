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
/// The session's own cookie handling is off. Each request gets the jar's cookies in its `Cookie` field,
/// with those of the request's own `Cookie` field (`RedirectChain.ownCookies`); each response,
/// including every redirect on the way, has its `Set-Cookie` fields stored (split back as
/// `HTTPURLResponse.setCookieFields` says) before the next hop is sent, since this session follows
/// redirects itself (`RedirectChain`: the method and body rules, credentials dropped on a cross-origin
/// hop, the hop limit, loops, each hop's request context).
public final class JarURLSession: Sendable {
    /// Where the cookies live.
    public let jar: CookieJar
    /// The underlying session (cookie handling off, redirects refused so that this type follows them).
    public let session: URLSession
    /// Whether redirect responses are followed here (else returned as they came, their cookies stored).
    public let followsRedirects: Bool
    /// How many redirects one request may follow before `data(for:context:)` throws.
    public let maximumRedirects: Int
    /// The fields of the configuration's `httpAdditionalHeaders` that a hop to another origin goes without
    /// (`Authorization`, `Proxy-Authorization`, `Origin`), set on each request that has none of its own
    /// instead of by the session, which would add them to every hop, those to another origin included.
    private let crossOriginFields: [String: String]

    /// A session on a copy of `configuration` with its own cookie handling turned off. Credentials and
    /// `Origin` in its `httpAdditionalHeaders` go on each request as its own fields, so that a hop to
    /// another origin drops them as it drops the request's (`RedirectStep.crossOriginFieldNames`); a
    /// `Cookie` field there is dropped: a request's cookies are the jar's and its own. `followsRedirects:
    /// false` returns a redirect response as it came, its cookies stored (as URLSession returns one its
    /// delegate declines to follow): for a caller that reads the Location itself.
    public init(
        jar: CookieJar, configuration: URLSessionConfiguration = .ephemeral, followsRedirects: Bool = true,
        maximumRedirects: Int = RedirectChain.defaultMaximumRedirects
    ) {
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        var crossOrigin: [String: String] = [:]
        if let additional = configuration.httpAdditionalHeaders {
            var kept: [AnyHashable: Any] = [:]
            for (key, value) in additional {
                guard let name = key as? String, RedirectStep.crossOriginFieldNames.contains(name.lowercased()) else {
                    kept[key] = value
                    continue
                }
                if !name.lowercased().hasPrefix("cookie"), let value = value as? String { crossOrigin[name] = value }
            }
            configuration.httpAdditionalHeaders = kept
        }
        crossOriginFields = crossOrigin
        self.jar = jar
        self.session = URLSession(configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
        self.followsRedirects = followsRedirects
        self.maximumRedirects = maximumRedirects
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` with the jar's cookies, following redirects by the rules of `RedirectChain`;
    /// returns the final response. The request's own `Cookie` field goes with the jar's cookies, merged
    /// into one field (`CookieHeader.merging(_:with:)`: its cookies first, and winning for a name both
    /// have), on the hops to the request's origin: a cookie a response on the way set or deleted goes
    /// from then on as the jar holds it, and none of its own goes on once a hop left that origin
    /// (`RedirectChain.ownCookies`). `context` describes the first request. Throws `RedirectError` for a
    /// redirect loop, too many redirects, a redirect to a URL that is not http or https or one with several
    /// different Location fields (which Foundation joins into one value, split back as `CombinedLocation`
    /// says), and `JarURLSessionError.bodyStreamCannotBeResent` for a redirect that keeps the method and
    /// body (a 307 or 308, and a 301 or 302 of any method but POST) of a request whose body is a stream
    /// (read to its end by the first hop).
    ///
    /// A request whose `httpShouldHandleCookies` is false (Foundation: no cookies are sent with it nor set
    /// for it) goes without the jar's cookies, with its own `Cookie` field only (on the hops to its origin),
    /// and the `Set-Cookie` fields of its responses are not stored.
    public func data(
        for request: URLRequest, context: CookieRequestContext = .firstParty
    ) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else { throw URLError(.badURL) }
        var request = request
        for (name, value) in crossOriginFields where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        var chain = RedirectChain(
            url: url.absoluteString, method: request.httpMethod ?? "GET", context: context, jar: jar,
            maximumRedirects: maximumRedirects, ownCookies: request.value(forHTTPHeaderField: "Cookie").map { [$0] } ?? [])
        // Sent as the chain reads it (Fetch normalises a method before the first request too), as
        // `JarHTTPClient` and `CookieJarMiddleware` send it: `post` goes as `POST` on every hop, the one the
        // rules of SameSite and of redirects were applied to.
        request.httpMethod = chain.current.method
        let handlesCookies = request.httpShouldHandleCookies
        while true {
            request.setValue(try chain.cookieHeader(includingJarCookies: handlesCookies), forHTTPHeaderField: "Cookie")
            let (data, response) = try await session.data(for: request)
            guard let response = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            if handlesCookies { chain.receive(response.setCookieFields) }
            // Foundation joins repeated fields with ", ": several Location fields are split back, for
            // `RedirectError.severalLocations`, where the value cannot be one Location (`CombinedLocation`).
            let locations = response.value(forHTTPHeaderField: "Location").map(CombinedLocation.split) ?? []
            guard followsRedirects, let step = try chain.follow(status: response.statusCode, locations: locations)
            else { return (data, response) }
            for name in step.removedFieldNames { request.setValue(nil, forHTTPHeaderField: name) }
            if step.dropsBody {
                request.httpBody = nil
                request.httpBodyStream = nil
            } else if request.httpBodyStream != nil {
                throw JarURLSessionError.bodyStreamCannotBeResent(status: response.statusCode, location: step.url)
            }
            request.url = URL(string: step.url)
            request.httpMethod = step.method
        }
    }
}
