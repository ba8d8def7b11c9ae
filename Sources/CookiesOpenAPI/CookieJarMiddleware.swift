#if CookiesOpenAPI
import Cookies
import CookiesFoundation
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A swift-openapi-runtime client middleware that keeps the client's cookies in a `CookieJar`: each
/// request gets one `Cookie` field, the operation's own cookies (a `Cookie` field it set, e.g. for an
/// `in: cookie` parameter) merged with the jar's (`CookieHeader.merging`); every `Set-Cookie` field of
/// each response is stored, each on its own, as the response to the URL that answered it. That URL is
/// the one the transport sends the request to, joined as both OpenAPI client transports join the server
/// URL and the request's path (`URLComponents`: a server URL's trailing "/" is kept, `https://h/api/` and
/// `/pets` making `https://h/api//pets`, and a path starting with "//" is read as an authority whose host
/// is dropped); a redirect's hop is given a server URL and path that join into the redirect's URL.
///
/// Redirects are followed here, by `RedirectChain`, so that every hop carries the cookies that hop
/// should carry and the cookies a redirect sets are stored under its own URL before the next hop (a
/// `POST` sign-in answered 302 + Set-Cookie arrives signed in): the method and body rules of
/// 301/302/303/307/308, the credentials and `Origin` dropped on a hop to another origin (the operation's
/// own cookies with them), the hop limit, loops and each hop's request context are `RedirectChain`'s. A
/// redirect that keeps the method and body (a 307 or 308, and a 301 or 302 of any method but POST, such as
/// a PUT) of a body that can be iterated only once throws `CookieJarMiddlewareError.bodyCannotBeResent`;
/// a redirect with several different Location fields throws `RedirectError.severalLocations` (a transport
/// that joins them into one, as URLSession's does with ", ", hands over one value, split back as
/// `CombinedLocation` says when `transportJoinsSetCookieFields`; one that keeps only the last, as
/// AsyncHTTPClient's does, hands over that one, which is followed); a redirect to a URL the transport
/// cannot be given as a server URL and a path throws `CookieJarMiddlewareError.locationNotSendable`. A
/// redirect's body is read to its end only when it is short and there at once, and otherwise dropped
/// (`RedirectBody`: at most 2 KiB, for at most a second), so that a body that is huge or trickles does not
/// hold the chain; a transport that buffers bodies (URLSession's on Linux) has read all of it before any
/// middleware sees it. `followsRedirects: false` hands a redirect response to the client as it came (its
/// cookies stored).
///
/// The transport must therefore not follow redirects itself, nor keep cookies of its own. A transport
/// that follows them hands over only the final response, which the jar would take for the first URL's
/// (its cookies stored for the wrong host), and the redirects' own cookies are lost. An AsyncHTTPClient
/// transport's client is made with `redirectConfiguration: .disallow` (`JarHTTPClient.makeClient` of
/// CookiesAsyncHTTPClient makes one); a URLSession's delegate refuses redirects
/// (`urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)` answering nil), and its
/// configuration turns cookie handling off (`URLSessionTransport()` uses `URLSession.shared`, which stores
/// and sends cookies of its own, still signed in after the jar was emptied, and follows redirects).
///
/// It must be the last of the client's middlewares, next to the transport. swift-openapi-runtime runs
/// them in the order given, each around the ones after it, so every hop of a redirect goes through the
/// middlewares after this one: what they add (an `Authorization` field, say) goes again on every hop,
/// those to another origin included, after this one removed the request's credentials for that hop.
/// Nothing here can tell: the middlewares after it are hidden behind `next`.
///
/// The URLSession transport (swift-openapi-urlsession) hands the response's `Set-Cookie` fields joined
/// with ", " into one (Foundation joins repeated fields), so a response's one `Set-Cookie` field is split
/// back as `CombinedSetCookie.split` does (exact for the fields conforming servers send; see there for what
/// it cannot tell apart, and for the fields Foundation on Linux loses before); several fields came from a transport that keeps them apart, and are stored as
/// they are. With a transport that never joins them (`transportJoinsSetCookieFields` false), a lone field
/// is stored as it is too: its value may hold ", name=" (rfc6265bis-22 §5.6 ends a value only at ";"). The
/// AsyncHTTPClient transport (swift-openapi-async-http-client 1.5) joins none, but hands on only the last
/// of a response's `Set-Cookie` fields (its `convertResponse` sets `headerFields[name] = value` for each
/// field, which replaces the ones before): the others are lost before any middleware sees them. Where a
/// response sets several cookies, use the URLSession transport, or `JarHTTPClient` of
/// CookiesAsyncHTTPClient.
///
/// ```swift
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.httpShouldSetCookies = false
/// configuration.httpCookieAcceptPolicy = .never
/// let session = URLSession(configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
/// let transport = URLSessionTransport(configuration: .init(session: session))
/// let client = Client(
///     serverURL: url, transport: transport,
///     middlewares: [authentication, logging, CookieJarMiddleware(jar: jar)])  // the jar's last
/// ```
public struct CookieJarMiddleware: ClientMiddleware {
    /// Where the cookies live.
    public let jar: CookieJar
    /// The context of every request (its method is each request's own).
    public let context: CookieRequestContext
    /// Whether redirect responses are followed here (else handed to the client as they came).
    public let followsRedirects: Bool
    /// How many redirects one request may follow before `intercept` throws `RedirectError`.
    public let maximumRedirects: Int
    /// Whether the client's transport may join a response's `Set-Cookie` fields into one with ", " (the
    /// URLSession transport does), so that a lone field is split back (`CombinedSetCookie.split`); such a
    /// transport joins its `Location` fields too, and a lone one is split back as well
    /// (`CombinedLocation.split`).
    public let transportJoinsSetCookieFields: Bool

    /// A middleware on `jar`; `context` describes the client's requests (default: a native app's own).
    /// `transportJoinsSetCookieFields`: true (the default) for a transport that may join a response's
    /// `Set-Cookie` fields (and its `Location` fields) into one, as the URLSession transport does; false
    /// for one that never does: one that hands each field on apart (one of the caller's own), or the
    /// AsyncHTTPClient transport, which hands on only the last of them (the others are lost in the
    /// transport).
    public init(
        jar: CookieJar, context: CookieRequestContext = .firstParty, followsRedirects: Bool = true,
        maximumRedirects: Int = RedirectChain.defaultMaximumRedirects, transportJoinsSetCookieFields: Bool = true
    ) {
        self.jar = jar
        self.context = context
        self.followsRedirects = followsRedirects
        self.maximumRedirects = maximumRedirects
        self.transportJoinsSetCookieFields = transportJoinsSetCookieFields
    }

    /// Sends the request through `next` with the jar's cookies, storing each response's cookies and
    /// following redirects; returns the final response. A request whose URL (the server URL joined with
    /// the operation's path) is none the jar keeps cookies for (not http or https, such as a Unix socket's
    /// `http+unix`) goes through `next` as it is: no cookie is sent, none stored. Throws `RedirectError`
    /// for a loop, too many redirects, a redirect to a URL that is not http or https or one with several
    /// different Location fields, `CookieJarMiddlewareError`, and what `next` throws.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let url = TransportURL.joining(baseURL, request.path), CookieURL(url)?.isHTTPFamily == true else {
            return try await next(request, body, baseURL)
        }
        // The operation's own cookies go with the jar's, in one field, as the chain keeps them (`ownCookies`).
        var chain = RedirectChain(
            url: url, method: request.method.rawValue, context: context, jar: jar, maximumRedirects: maximumRedirects,
            ownCookies: request.headerFields[values: .cookie])
        var (request, body, baseURL) = (request, body, baseURL)
        // Sent as the chain reads it (Fetch normalises a method before the first request too): `post` goes as
        // `POST` on every hop, the one the rules of SameSite and of redirects were applied to.
        request.method = HTTPRequest.Method(chain.current.method) ?? request.method
        while true {
            let value = try chain.cookieHeader()
            request.headerFields[fields: .cookie] = value.map { [HTTPField(name: .cookie, value: $0)] } ?? []
            let (response, responseBody) = try await next(request, body, baseURL)
            let fields = response.headerFields[values: .setCookie]
            chain.receive(fields.count == 1 && transportJoinsSetCookieFields ? CombinedSetCookie.split(fields[0]) : fields)
            let locations = response.headerFields[values: .location]
            guard followsRedirects,
                let step = try chain.follow(
                    status: response.status.code,
                    locations: locations.count == 1 && transportJoinsSetCookieFields
                        ? CombinedLocation.split(locations[0]) : locations)
            else { return (response, responseBody) }
            guard let target = TransportURL.split(step.url) else {
                throw CookieJarMiddlewareError.locationNotSendable(status: response.status.code, location: step.url)
            }
            if !step.dropsBody, let body, body.iterationBehavior == .single {
                throw CookieJarMiddlewareError.bodyCannotBeResent(status: response.status.code, location: step.url)
            }
            if let responseBody {
                await RedirectBody.discard(responseBody, waitingAtMost: RedirectBody.maximumWait) { $0.count }
            }
            // A caller that gave up (its task cancelled) sends no further hop, whatever the transport does
            // with a cancelled task.
            try Task.checkCancellation()
            for name in step.removedFieldNames {
                if let name = HTTPField.Name(name) { request.headerFields[name] = nil }
            }
            if step.dropsBody { body = nil }
            request.method = HTTPRequest.Method(step.method) ?? request.method
            (baseURL, request.path) = target
        }
    }
}
#endif
