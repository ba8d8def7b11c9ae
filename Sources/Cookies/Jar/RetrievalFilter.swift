/// The checks of rfc6265bis-22 §5.8.3 step 3 for one request, computed once per request and applied to
/// each cookie of its site.
struct RetrievalFilter {
    let host: CanonicalHost
    let path: String
    let isSecureChannel: Bool
    let isCrossSite: Bool
    let context: CookieRequestContext
    /// The request's partition key (CHIPS), when the site holds partitioned cookies.
    let partition: String?

    init(url: CookieURL, context: CookieRequestContext, isCrossSite: Bool, partition: String?) {
        self.partition = partition
        self.host = url.host
        self.path = url.path
        self.isSecureChannel = url.isSecure
        self.isCrossSite = isCrossSite
        self.context = context
    }

    /// Why `cookie` is not sent, or nil when it is.
    @inline(__always)
    func exclusion(of cookie: borrowing Cookie) -> CookieExclusion? {
        // Host-only cookies need the identical host; others a domain-match (§5.1.3).
        if cookie.isHostOnly {
            guard cookie.domain == host.name else { return .hostOnly }
        } else {
            guard DomainMatch.matches(host: host.name, hostIsIPAddress: host.isIPAddress, domain: cookie.domain)
            else { return .domainMismatch }
        }
        // The request path path-matches the cookie's path (§5.1.4).
        guard CookiePath.matches(requestPath: path, cookiePath: cookie.path) else { return .pathMismatch }
        // Secure cookies only over a secure channel.
        if cookie.isSecure, !isSecureChannel { return .secureOnly }
        // HttpOnly cookies only for HTTP APIs.
        if cookie.isHTTPOnly, context.api == .nonHTTP { return .httpOnly }
        // Cookies other than SameSite=None are not sent cross-site, except Lax and Default ones on a
        // top-level navigation with a safe method, and never to a non-HTTP API.
        if isCrossSite, cookie.sameSite != .none {
            guard context.api == .http, cookie.sameSite == .lax || cookie.sameSite == .default,
                context.isSafeMethod, context.isTopLevelNavigation
            else { return .sameSite }
        }
        // CHIPS §2.2: a partitioned cookie only within its partition.
        if let partitionKey = cookie.partitionKey, partitionKey != partition { return .partition }
        return nil
    }
}
