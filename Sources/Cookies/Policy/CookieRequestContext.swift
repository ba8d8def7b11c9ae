/// Which API reads or writes cookies (rfc6265bis-22 §2.3, §5.8.2).
public enum CookieAPI: String, Sendable, Hashable {
    /// HTTP requests and responses: HttpOnly cookies are visible.
    case http
    /// A non-HTTP API such as `document.cookie`: HttpOnly cookies can be neither read nor written.
    case nonHTTP = "non-http"
}

/// The request whose response carries `Set-Cookie`, or the request that will carry `Cookie`
/// (rfc6265bis-22 §5.2, §5.7 step 18, §5.8.3).
///
/// `firstParty` is what a native app's or a server's own request is: same-site, a GET over HTTP, and its
/// own top level (a navigation, whose partition is its own site): once its redirects leave its site, the later hops are
/// cross-site top-level navigations, as a browser's address-bar navigation is (§5.7 step 18.3, §5.8.3
/// step 1).
public struct CookieRequestContext: Sendable, Hashable {
    /// The site for cookies of the request's client (§5.2.1).
    public enum SiteForCookies: Sendable, Hashable {
        /// The request URL's own origin: a same-site request.
        case requestOrigin
        /// An opaque origin (e.g. a sandboxed or cross-site document): always cross-site.
        case opaque
        /// The origin of the document that embeds or started the request.
        case origin(CookieURL)
    }

    /// The site for cookies: where the request comes from, which decides same-site or cross-site (§5.2.1).
    public var siteForCookies: SiteForCookies
    /// The request navigates a top-level traversable (§5.7 step 18.3, §5.8.3 step 1).
    public var isTopLevelNavigation: Bool
    /// The request's method; only the safe methods (GET, HEAD, OPTIONS, TRACE) get Lax cookies cross-site.
    public var method: String
    /// The top-level site the request is made under (CHIPS partition). Nil: the request URL's own site for a
    /// top-level navigation or a request that is its own site for cookies, else the site for cookies'
    /// origin (same-site with the top level, §5.2.1), and none under an opaque site for cookies, where
    /// partitioned cookies are then neither set nor sent.
    public var partition: CookieURL?
    /// The API making the request: HTTP, or a non-HTTP API that never sees HttpOnly cookies.
    public var api: CookieAPI

    /// A request context; the defaults are those of `firstParty`, but for `isTopLevelNavigation`: a context
    /// made for a document's request is no navigation unless it says so.
    public init(
        siteForCookies: SiteForCookies = .requestOrigin, isTopLevelNavigation: Bool = false, method: String = "GET",
        partition: CookieURL? = nil, api: CookieAPI = .http
    ) {
        self.siteForCookies = siteForCookies
        self.isTopLevelNavigation = isTopLevelNavigation
        self.method = method
        self.partition = partition
        self.api = api
    }

    /// A native app's or a server's own request: same-site, a GET over HTTP, a top-level
    /// navigation. Alone it is same-site whatever the flag; the flag matters to the hops of its redirects
    /// that leave its site (`RedirectChain`): cookies they set are stored whatever their SameSite, and
    /// those with a safe method (GET, HEAD, OPTIONS, TRACE) carry SameSite=Lax cookies, as an address-bar
    /// navigation in a browser; an http URL redirected to https is such a hop (sites are schemeful, §5.2).
    public static let firstParty = CookieRequestContext(isTopLevelNavigation: true)

    /// The top-level site a request to `url` is made under, whose site is the partition key of its
    /// partitioned cookies (CHIPS §2.1): `partition` when given; else `url` for a top-level navigation,
    /// whose document becomes the top level, or a request that is its own site for cookies; else the site
    /// for cookies' origin, which is same-site with the top level (rfc6265bis-22 §5.2.1: a document's site
    /// for cookies is its top level's origin while every document between them is same-site with it, and
    /// opaque otherwise). Nil under an opaque site for cookies: no top level is known, and a partition of
    /// the request's own would let a cookie set in a third-party frame be sent first-party.
    func topLevel(for url: CookieURL) -> CookieURL? {
        if let partition { return partition }
        if isTopLevelNavigation { return url }
        switch siteForCookies {
        case .requestOrigin: return url
        case .origin(let origin): return origin
        case .opaque: return nil
        }
    }

    /// This context for a request whose own method is `method`, normalised as Fetch normalises a method
    /// (`normalizedMethod(_:)`): a request that says its method says it for the context too.
    package func forRequest(method: String) -> CookieRequestContext {
        var context = self
        context.method = Self.normalizedMethod(method)
        return context
    }

    /// Fetch's "normalize a method": a byte-case-insensitive match for DELETE, GET, HEAD, OPTIONS, POST or
    /// PUT, upper-cased; any other method as it is (methods are case-sensitive, RFC 9110 §9.1).
    static func normalizedMethod(_ method: String) -> String {
        let upper = method.uppercased()
        return ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"].contains(upper) ? upper : method
    }

    /// RFC 9110 §9.2.1 safe methods (case-sensitive, as methods are).
    var isSafeMethod: Bool {
        method == "GET" || method == "HEAD" || method == "OPTIONS" || method == "TRACE"
    }
}
