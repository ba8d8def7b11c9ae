/// The requests of one fetch that follows redirects itself, with a jar: each hop's `Cookie` field, the
/// storing of each response's `Set-Cookie` fields, and the rules for the next hop (RFC 9110 §15.4; the
/// Fetch standard's "HTTP-redirect fetch"), so that every hop carries the cookies that hop should carry.
///
/// A request may come with cookies of its own (a `Cookie` field the caller set: a CSRF token, an
/// OpenAPI `in: cookie` parameter), given as `ownCookies`. They go with the jar's, in one field
/// (`CookieHeader.merging(_:with:)`, the caller's value winning for a name both have), on the hops to the
/// first request's origin: a cookie a response on the way set or deleted goes from then on as the jar
/// holds it, and none goes once a hop left that origin (as the `Cookie` field is dropped there,
/// `RedirectStep.credentialFieldNames`).
///
/// A client calls, for each hop: `cookieHeader()` before sending it (which also stops a loop),
/// `receive(_:)` with the response's `Set-Cookie` fields, then `follow(status:to:)` with the resolved
/// Location; a nil answer ends the chain. The client takes the one Location of the response's fields
/// with `location(status:values:)` and resolves it (a URI reference, RFC 9110 §10.2.2) against
/// `current.url`: `Cookies` has no URL resolver (CookiesFoundation's `follow(status:location:)` resolves
/// it as browsers do).
///
/// Each hop's request context is the first one's with that hop's method, except its site for cookies:
/// once any URL of the chain is cross-site to the site that started the request, every later hop is
/// cross-site (rfc6265bis-22 §5.2 defers to Fetch, whose "same-site" check fails for a request whose
/// redirect chain left the site). What a cross-site hop may do depends on the first context: an app's
/// or a server's own request (`CookieRequestContext.firstParty`) is a top-level navigation, whose
/// cross-site hops store every cookie they receive and carry SameSite=Lax cookies on safe methods, only
/// Strict ones (and Lax ones on unsafe methods) staying off them, as in a browser's navigation; a
/// context that is no navigation (a document's fetch) stores and sends only SameSite=None cookies on
/// them. An http URL redirected to https leaves its site (sites are schemeful). The partition of a
/// chain that is no navigation (CHIPS: its top-level site) stays the first request's: a Partitioned
/// cookie a hop to another site sets or sends is in that partition, not in the hop's own site's.
public struct RedirectChain: Sendable {
    /// Fetch's redirect limit: "If request's redirect count is 20, then return a network error".
    public static let defaultMaximumRedirects = 20

    /// How many redirects the chain follows before `follow(status:to:)` throws.
    public let maximumRedirects: Int
    /// The jar whose cookies the hops carry and receive.
    public let jar: CookieJar
    /// Every request of the chain so far, the current one last.
    public private(set) var hops: [RedirectHop]
    /// The request context of the current hop.
    public private(set) var context: CookieRequestContext
    /// The `Cookie` field values of the request's own that the current hop carries with the jar's: those
    /// the chain was made with, without the cookies a response on the way set or deleted (`receive(_:)`);
    /// none once a hop left the first request's origin (`follow(status:to:)`).
    public private(set) var ownCookies: [String]
    /// The site the request was started from; nil when the first context was already opaque.
    private let initiator: CookieURL?
    /// True once a URL of the chain was cross-site to `initiator`.
    private var leftSite: Bool
    /// The requests already sent: the same request sent again is a loop.
    private var sent: Set<SentRequest> = []

    private struct SentRequest: Hashable {
        let method: String
        let url: String
        let cookieHeader: String?
    }

    /// A chain starting with a `method` request for `url` (an absolute URL) in `context`, which carries
    /// the `Cookie` field values `ownCookies` of its own (in order; none by default). The method is
    /// normalised as Fetch does (DELETE, GET, HEAD, OPTIONS, POST and PUT in any case are upper-cased), so
    /// that `post` is a POST to the redirect rules and the SameSite checks.
    public init(
        url: String, method: String, context: CookieRequestContext = .firstParty, jar: CookieJar,
        maximumRedirects: Int = RedirectChain.defaultMaximumRedirects, ownCookies: [String] = []
    ) {
        var context = context.forRequest(method: method)
        self.jar = jar
        self.maximumRedirects = maximumRedirects
        self.ownCookies = ownCookies
        self.hops = [RedirectHop(method: context.method, url: url)]
        let first = CookieURL(url)
        // The partition (CHIPS: the top-level site) of a request that is no navigation is its top level's
        // on every hop (`CookieRequestContext.topLevel(for:)` of the first request), not each hop's own.
        if !context.isTopLevelNavigation, context.partition == nil, let first {
            context.partition = context.topLevel(for: first)
        }
        switch context.siteForCookies {
        case .requestOrigin: initiator = first
        case .origin(let origin): initiator = origin
        case .opaque: initiator = nil
        }
        leftSite = false
        self.context = context
        noteSite(of: first)
    }

    /// The current hop: the request to send next.
    public var current: RedirectHop { hops[hops.count - 1] }

    /// The `Cookie` field value of the current hop: the jar's cookies for it with `ownCookies`, merged
    /// into one (`CookieHeader.merging(_:with:)`: the own ones first, and winning for a name both have),
    /// or `ownCookies` alone for a request that goes without the jar's (`includingJarCookies` false: a
    /// `URLRequest` whose `httpShouldHandleCookies` is false); nil when there is none. Or `RedirectError.loop` when this very request (method, URL and cookies)
    /// was sent before in the chain. A deliberate choice, stricter than Fetch and browsers, which stop only at 20 redirects, and
    /// looser than AsyncHTTPClient's own following, which stops at a URL repeated (`allowCycles: false`):
    /// a server that answers the same request with the same redirect again loops in most cases, and a
    /// server's state alone (a job still running, polled by redirecting to itself) is left to a client that
    /// follows no redirect (`followsRedirects: false`) and asks again itself. A repeated URL whose cookies
    /// changed on the way (a sign-in that sets a cookie and redirects back) is no loop.
    public mutating func cookieHeader(includingJarCookies: Bool = true) throws(RedirectError) -> String? {
        let jarHeader = includingJarCookies ? CookieURL(current.url).flatMap { jar.cookieHeader(for: $0, context: context) } : nil
        let header = ownCookies.isEmpty ? jarHeader : CookieHeader.merging(ownCookies, with: jarHeader)
        let request = SentRequest(method: current.method, url: current.url, cookieHeader: header)
        guard sent.insert(request).inserted else { throw .loop(hops) }
        return header
    }

    /// Stores the `Set-Cookie` field values of the current hop's response, each on its own; returns the
    /// names of the cookies the jar took them for (stored, replaced, deleted, or already expired). Those
    /// names leave `ownCookies` for the hops after (`CookieHeader.removing(_:from:)`): the server just
    /// changed them, and the jar holds its word, as Go's client drops the cookies a response changed from
    /// the `Cookie` field it forwards.
    @discardableResult
    public mutating func receive(_ setCookies: some Sequence<String>) -> Set<String> {
        guard let url = CookieURL(current.url) else { return [] }
        var changed: Set<String> = []
        for line in setCookies {
            guard let parsed = try? ParsedSetCookie(parsing: line) else { continue }
            if jar.setCookie(parsed, from: url, context: context).rejection == nil { changed.insert(parsed.name) }
        }
        ownCookies = CookieHeader.removing(changed, from: ownCookies)
        return changed
    }

    /// The next hop that a response with `status` and a Location resolved to `location` asks for, which
    /// becomes the current hop; nil when the response is no redirect (not 301, 302, 303, 307 or 308, or
    /// no Location), which ends the chain. A hop to another origin than the current one
    /// (`RedirectStep.leavesOrigin`) empties `ownCookies` for the rest of the chain.
    ///
    /// Throws `.tooManyRedirects` past `maximumRedirects`, and `.notHTTP` for a Location that is not an
    /// http or https URL (Fetch: "If locationURL's scheme is not an HTTP(S) scheme, then return a network
    /// error").
    public mutating func follow(status: Int, to location: String?) throws(RedirectError) -> RedirectStep? {
        hops[hops.count - 1].status = status
        guard RedirectStep.redirectStatuses.contains(status), let location else { return nil }
        guard hops.count <= maximumRedirects else { throw .tooManyRedirects(hops) }
        guard let target = CookieURL(location), target.scheme == "http" || target.scheme == "https" else {
            throw .notHTTP(location: location, hops: hops)
        }
        let step = RedirectStep(
            status: status, method: current.method, to: location,
            leavesOrigin: CookieURL(current.url).map { !$0.isSameOrigin(as: target) } ?? true)
        hops.append(RedirectHop(method: step.method, url: location))
        if step.leavesOrigin { ownCookies = [] }
        context.method = step.method
        noteSite(of: target)
        return step
    }

    /// The Location of a response with `status` whose Location fields have `values` (as received, one
    /// value per field), for `follow(status:to:)` once resolved: nil when there is none, the one value when
    /// every field has the same (a field repeated is one). Several different values in a
    /// redirect throw `.severalLocations` naming them: Fetch's "location URL" extracts the `Location`
    /// values, and a field whose grammar allows a single value but that comes more than once is failure, a
    /// network error; Chromium refuses such a response likewise (`ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION`,
    /// unless the values are equal). Following the first one (AsyncHTTPClient, Go's net/http) or all of
    /// them joined with ", " into one made-up URL would guess where the server meant to send the request.
    public mutating func location(status: Int, values: [String]) throws(RedirectError) -> String? {
        var distinct: [String] = []
        for value in values where !distinct.contains(value) { distinct.append(value) }
        if distinct.count > 1, RedirectStep.redirectStatuses.contains(status) {
            hops[hops.count - 1].status = status
            throw .severalLocations(distinct, hops: hops)
        }
        return distinct.first
    }

    /// Makes the context cross-site from now on when `url` is not same-site with the initiator.
    private mutating func noteSite(of url: CookieURL?) {
        guard let initiator else { return }
        if !leftSite, let url, jar.isSameSite(initiator, url) {
            context.siteForCookies = .origin(initiator)
        } else {
            leftSite = true
            context.siteForCookies = .opaque
        }
    }
}
