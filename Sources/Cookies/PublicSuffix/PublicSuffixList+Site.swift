extension PublicSuffixList {
    /// The site a cookie belongs to: the registrable domain of its domain, or the domain itself when it
    /// has none (an IP address, a public suffix, a single label). This is the key the jar groups cookies
    /// by: its per-site limit, `CookieJar.cookies(forSite:)`, the sites of `CookieEviction`.
    public func site(of cookie: Cookie) -> String {
        site(ofCanonicalDomain: cookie.domain)
    }

    /// The site of a host, by the same rule as `site(of:)` for a cookie: a request to `host` and a
    /// host-only cookie of `host` belong to the same site.
    public func site(of host: CanonicalHost) -> String {
        site(ofCanonicalDomain: host.name)
    }

    /// The site of a canonical domain string (a cookie's domain or a canonical host name): its registrable
    /// domain, or itself.
    func site(ofCanonicalDomain name: String) -> String {
        registrableDomain(ofCanonicalDomain: name) ?? name
    }
}
