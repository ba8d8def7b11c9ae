#if CookiesAsyncHTTPClient
import AsyncHTTPClient
import Cookies
import CookiesFoundation
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Runs AsyncHTTPClient requests with a `CookieJar`: each request gets the jar's `Cookie` field, the
/// `Set-Cookie` fields of every response are stored, each on its own, and redirects are followed here,
/// by `RedirectChain`, so that every hop carries the cookies that hop should carry (a `POST /login` →
/// 302 + Set-Cookie → `GET /home` chain arrives signed in; AsyncHTTPClient's own following drops the
/// cookies). The method and body rules of 301/302/303/307/308, the credentials and `Origin` dropped on a
/// hop to another origin (`RedirectStep.crossOriginFieldNames`), the hop limit, loops and each hop's
/// request context (a hop that leaves the site is cross-site for SameSite) are `RedirectChain`'s.
///
/// The client must not follow redirects itself: AsyncHTTPClient (1.37) has no per-request switch, and a
/// client's redirect configuration is fixed when it is made and cannot be read. `sharedClient` is
/// `HTTPClient.shared`'s configuration with following turned off; `makeClient(eventLoopGroup:configuration:)`
/// makes one of the caller's configuration that follows none. A client that follows anyway is caught only
/// after it did (the response's `history` has more than one hop, or AsyncHTTPClient throws
/// `redirectCycleDetected` or `redirectLimitReached`): its hops went without the cookies the redirects
/// set, and the first request had its effect (a POST is not to be retried blindly). The request then
/// throws `JarHTTPClientError.clientFollowsRedirects`, after storing the `Set-Cookie` fields of the hops
/// in the response's `history` (a sign-in's session is kept), up to the first that the client sent
/// elsewhere than `RedirectChain` would have, or followed where the chain stops (a 304 with a Location,
/// more than `maximumRedirects`); a loop or too many redirects for the client leave no history, and their
/// fields are lost.
///
/// Bodies are streamed, never buffered: the final response's body is returned unread; a redirect's body
/// is read to its end only when it is short and there at once, within the deadline, and otherwise dropped
/// with its connection (`RedirectBody`: at most 2 KiB, for at most a second). A hop that keeps the method
/// and body (a 307 or 308, and a 301 or 302 of any method but POST, such as a PUT: `RedirectStep`) sends
/// `request.body` again when it is known to be one that can be sent again (`canBeSentAgain(_:)`: a
/// `ByteBuffer`, a collection of bytes up to 4 MiB); otherwise the request throws
/// `JarHTTPClientError.bodyCannotBeResent`: a body made from an async sequence, which the first hop read,
/// and a collection over 4 MiB, which AsyncHTTPClient streams as an async sequence that nothing tells
/// apart from such a one.
public struct JarHTTPClient: Sendable {
    /// Where the cookies live.
    public let jar: CookieJar
    /// The client that sends each hop.
    public let client: HTTPClient
    /// Whether redirect responses are followed here (else returned as they came, their cookies stored).
    public let followsRedirects: Bool
    /// How many redirects one request may follow before `execute` throws `RedirectError`.
    public let maximumRedirects: Int

    /// A process-wide client made like `HTTPClient.shared` (`HTTPClient.Configuration.singletonConfiguration`,
    /// on `HTTPClient.defaultEventLoopGroup`) but following no redirect. Never shut down.
    public static let sharedClient = makeClient()

    /// A new client of `configuration` (default `HTTPClient.shared`'s) on `eventLoopGroup`, with redirect
    /// following turned off, for `init(jar:client:followsRedirects:maximumRedirects:)`; the caller shuts it down.
    public static func makeClient(
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration = .singletonConfiguration
    ) -> HTTPClient {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
    }

    /// A runner sending through `client` (default `sharedClient`), which must follow no redirect
    /// (`makeClient(eventLoopGroup:configuration:)`). `followsRedirects: false` returns a redirect response
    /// as it came, its cookies stored (AsyncHTTPClient's `.disallow`, with the jar): for a caller that reads
    /// the Location itself, as an OAuth client reads the code its callback URL carries.
    public init(
        jar: CookieJar, client: HTTPClient = JarHTTPClient.sharedClient, followsRedirects: Bool = true,
        maximumRedirects: Int = RedirectChain.defaultMaximumRedirects
    ) {
        self.jar = jar
        self.client = client
        self.followsRedirects = followsRedirects
        self.maximumRedirects = maximumRedirects
    }

    /// Sends `request` with the jar's cookies (merged with the request's own `Cookie` fields into one,
    /// `CookieHeader.merging`, its own cookies winning, until a hop goes to another origin: from there on,
    /// back to the first origin included, only the jar's go, as `RedirectChain` keeps them; an http URL
    /// redirected to https is another origin), following redirects, and returns the final response,
    /// whose `history` lists every hop: the request as sent (with its
    /// `Cookie` field) and the response head. `context` describes the first request; `deadline` is for
    /// the whole chain, the redirects' bodies included (`HTTPClientError.deadlineExceeded` when it passes
    /// while one is read). Throws `RedirectError` for a loop, too many redirects, a redirect to a URL that
    /// is not http or https or one with several different Location fields (the error names the hops),
    /// `JarHTTPClientError.notACookieURL` (nothing sent) for a first URL the jar keeps no cookies for (a
    /// Unix socket's), and AsyncHTTPClient's errors.
    ///
    /// `logger` goes to AsyncHTTPClient with every hop (its request logging; none when nil, as
    /// AsyncHTTPClient's own default), and gets one `debug` entry a hop from the jar: the hop's method and
    /// URL (without user information, query or fragment), its status, how many cookies it carried and the
    /// names of those its response set (`cookiejar-sent`, `cookiejar-set`). The jar logs no cookie's value
    /// (AsyncHTTPClient's `trace` entries carry each response part, its `Set-Cookie` fields included).
    public func execute(
        _ request: HTTPClientRequest, deadline: NIODeadline, context: CookieRequestContext = .firstParty,
        logger: Logger? = nil
    ) async throws -> HTTPClientResponse {
        // The URL as AsyncHTTPClient reads it, through Foundation's URL: where the readings differ, the jar's
        // host is the one the request goes to. (Foundation percent-encodes a backslash in the authority into
        // the user information, where the WHATWG URL standard, which `CookieURL` follows, ends the host at it:
        // "https://good.test\@evil.test/" goes to evil.test, and would have carried good.test's cookies.)
        guard let sent = URL(string: request.url), CookieURL(sent)?.isHTTPFamily == true else {
            throw JarHTTPClientError.notACookieURL(request.url)
        }
        var request = request
        request.url = sent.absoluteString
        // The caller's own cookies go with the jar's, in one field, as the chain keeps them (`ownCookies`).
        var chain = RedirectChain(
            url: request.url, method: request.method.rawValue, context: context, jar: jar,
            maximumRedirects: maximumRedirects, ownCookies: request.headers["Cookie"])
        // Sent as the chain reads it (Fetch normalises a method before the first request too): `post` goes as
        // `POST` on every hop, the one the rules of SameSite and of redirects were applied to.
        request.method = HTTPMethod(rawValue: chain.current.method)
        var history: [HTTPClientRequestResponse] = []
        while true {
            request.headers.remove(name: "Cookie")
            if let header = try chain.cookieHeader() {
                request.headers.add(name: "Cookie", value: header)
            }
            var response: HTTPClientResponse
            do {
                response = try await client.execute(request, deadline: deadline, logger: logger)
            } catch let error as HTTPClientError where error == .redirectCycleDetected || error == .redirectLimitReached {
                throw JarHTTPClientError.clientFollowsRedirects
            }
            guard response.history.count <= 1 else {
                // The client followed the redirects itself. Every hop's response head is in the history: its
                // cookies are stored as the chain would have stored them, hop by hop, before the request throws,
                // as long as the client went where the chain goes. It resolves a Location as Foundation does,
                // the chain as a browser does, and where they differ (`\\evil.test/` from good.test) a hop's
                // cookies would be filed under a host the hop never reached.
                for (index, hop) in response.history.enumerated() {
                    guard hop.request.url == chain.current.url else { break }
                    chain.receive(hop.responseHead.headers["Set-Cookie"])
                    guard index < response.history.count - 1,
                        (try? chain.follow(status: Int(hop.responseHead.status.code), locations: hop.responseHead.headers["Location"])) != nil
                    else { break }
                }
                throw JarHTTPClientError.clientFollowsRedirects
            }
            history.append(HTTPClientRequestResponse(
                request: request,
                responseHead: HTTPResponseHead(version: response.version, status: response.status, headers: response.headers)))
            let set = chain.receive(response.headers["Set-Cookie"])
            logger?.debug("Cookie jar hop", metadata: Self.logMetadata(of: request, status: response.status, set: set))
            guard followsRedirects, let step = try chain.follow(
                status: Int(response.status.code), locations: response.headers["Location"])
            else {
                response.history = history
                return response
            }
            // AsyncHTTPClient's deadline covers a response until its head: the body is read here within
            // what is left of it.
            let remaining = Duration.nanoseconds((deadline - .now()).nanoseconds)
            await RedirectBody.discard(response.body, waitingAtMost: min(RedirectBody.maximumWait, remaining)) {
                $0.readableBytes
            }
            guard NIODeadline.now() < deadline else { throw HTTPClientError.deadlineExceeded }
            // A caller that gave up (its task cancelled) sends no further hop, whatever the client does with a
            // cancelled task (a 307 would repeat a POST).
            try Task.checkCancellation()
            if !step.dropsBody, let body = request.body, !Self.canBeSentAgain(body) {
                throw JarHTTPClientError.bodyCannotBeResent(status: Int(response.status.code), location: step.url)
            }
            for name in step.removedFieldNames { request.headers.remove(name: name) }
            if step.dropsBody { request.body = nil }
            request.url = step.url
            request.method = HTTPMethod(rawValue: step.method)
        }
    }

    /// True when `body` is known to be one that can be sent a second time, on a hop that keeps the method
    /// and body (a 307 or 308, and a 301 or 302 of any method but POST): a `ByteBuffer` of any size, and a collection of bytes up to 4 MiB, which
    /// AsyncHTTPClient makes again for each send; not an async sequence or an upload writer, which the first
    /// send used up (RFC 9110 §15.4.8: a client resends the body only when it has it). Nor a collection over
    /// 4 MiB: AsyncHTTPClient (1.37, `HTTPClientRequest.Body.bytes(_:length:)`) streams it as an async
    /// sequence that reads the stored collection afresh on each send, which could be sent again, but that
    /// is the mode a `stream(_:length:)` body has too, an iterator maker behind a closure that nothing can
    /// look into, so the two cannot be told apart and both count as used up (give a body that large as one
    /// `ByteBuffer`). AsyncHTTPClient (1.x) keeps this to itself (its internal `canBeConsumedMultipleTimes`,
    /// by which its own following decides the same, false for both): it is read here from the body's mode
    /// by reflection, and a mode not recognised (another version) counts as one that cannot, so that a body
    /// is never sent again empty or cut short.
    public static func canBeSentAgain(_ body: HTTPClientRequest.Body) -> Bool {
        guard let mode = Mirror(reflecting: body).descendant("mode"),
            let (kind, payload) = Mirror(reflecting: mode).children.first.map({ ($0.label, $0.value) })
        else { return false }
        switch kind {
        case "byteBuffer": return true
        case "sequence": return Mirror(reflecting: payload).descendant("canBeConsumedMultipleTimes") as? Bool ?? false
        default: return false
        }
    }

    /// As `execute(_:deadline:context:logger:)`, with `timeout` from now for the whole chain.
    public func execute(
        _ request: HTTPClientRequest, timeout: TimeAmount, context: CookieRequestContext = .firstParty,
        logger: Logger? = nil
    ) async throws -> HTTPClientResponse {
        try await execute(request, deadline: .now() + timeout, context: context, logger: logger)
    }

    /// The metadata of a hop's log entry: `request` as sent (its URL without user information, query or
    /// fragment, where tokens travel), its response's `status`, how many cookies its `Cookie` field carried,
    /// and the names of the cookies the jar took from the response (`RedirectChain.receive(_:)`, "" for a
    /// nameless one), sorted. A count, not names, for the field: a nameless cookie goes as its value alone,
    /// and the name the field seems to give it is part of that value.
    static func logMetadata(of request: HTTPClientRequest, status: HTTPResponseStatus, set: Set<String>) -> Logger.Metadata {
        var url = URLComponents(string: request.url)
        url?.user = nil
        url?.password = nil
        url?.query = nil
        url?.fragment = nil
        return [
            "cookiejar-request": "\(request.method.rawValue) \(url?.string ?? "")",
            "cookiejar-status": "\(status.code)",
            "cookiejar-sent": "\(request.headers["Cookie"].reduce(0) { $0 + CookieHeader.parse($1).count })",
            "cookiejar-set": .array(set.sorted().map { .string($0) }),
        ]
    }
}
#endif
