/// What the receive rules (rfc6265bis-22 §5.7 steps 1–22) ask of the store: the few facts they cannot
/// work out from the line and the request alone. The store answers from its caches and its sites; the
/// rules never see how it keeps cookies.
protocol CookieStoreQueries {
    /// The site key of a host (§5.2): its registrable domain, or the host itself when it has none.
    mutating func siteKey(of host: CanonicalHost) -> String

    /// The length in bytes of the site key of a host (the UTF-8 of a canonical host name, §5.2): its
    /// registrable domain's, or the host's own when it has none.
    mutating func siteKeyLength(ofHost host: UnsafeBufferPointer<UInt8>) -> Int

    /// §5.7 step 9: whether a Domain attribute (UTF-8 of a canonical, ASCII domain) names a public suffix.
    mutating func isPublicSuffix(domainAttribute domain: UnsafeBufferPointer<UInt8>) -> Bool

    /// §5.7 step 16: whether the store holds a Secure cookie, unexpired at `now`, named `name`, whose
    /// domain domain-matches `domain` (or the reverse) and whose path `path` path-matches (each UTF-8): a
    /// cookie that a new cookie of this name, domain and path from an insecure origin would overwrite or
    /// shadow.
    mutating func hasSecureCookie(
        shadowedBy name: UnsafeBufferPointer<UInt8>, domain: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>,
        now: CookieTime
    ) -> Bool
}

extension CookieStoreQueries {
    /// §5.2: a request is same-site when its site for cookies is not opaque and has the same scheme and
    /// the same registrable domain as the URL (hosts without one must be equal); ports never matter, and
    /// ws and wss count as http and https (`CookieURL.siteScheme`).
    mutating func isCrossSite(_ url: CookieURL, context: CookieRequestContext) -> Bool {
        context.isCrossSite(url) { siteKey(of: $0) }
    }

    /// The schemeful site of a URL (HTML "site"): `scheme://` + registrable domain or host, the scheme
    /// that of a site (`CookieURL.siteScheme`).
    mutating func site(of url: CookieURL) -> String {
        url.siteScheme + "://" + siteKey(of: url.host)
    }
}

extension CookieRequestContext {
    /// §5.2 for a request to `url` in this context (`CookieStoreQueries.isCrossSite`), with the site key
    /// of a host from `siteKey`.
    @inline(__always)
    func isCrossSite<Failure: Error>(_ url: CookieURL, siteKey: (CanonicalHost) throws(Failure) -> String) throws(Failure) -> Bool {
        switch siteForCookies {
        case .requestOrigin:
            return false
        case .opaque:
            return true
        case .origin(let origin):
            guard origin.siteScheme == url.siteScheme else { return true }
            return try siteKey(origin.host) != siteKey(url.host)
        }
    }
}
