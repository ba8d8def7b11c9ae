extension PublicSuffixList {
    /// The registrable domain of a canonical host, or nil for an IP address, a public suffix, or a name
    /// the list cannot place (empty labels at either end). A trailing dot is kept on the answer, since
    /// `www.example.com.` and `www.example.com` are different hosts (`example.com.` and `example.com`).
    public func registrableDomain(of host: CanonicalHost) -> String? {
        guard host.kind == .domain else { return nil }
        return registrableDomain(ofCanonicalDomain: host.name)
    }

    /// As `registrableDomain(of:)`, for a canonical domain string such as a cookie's domain.
    func registrableDomain(ofCanonicalDomain name: String) -> String? {
        var bare = Substring(name)
        let trailingDot = bare.hasSuffix(".")
        if trailingDot { bare = bare.dropLast() }
        guard !bare.isEmpty, !bare.hasPrefix("."), !bare.hasSuffix(".") else { return nil }
        guard let domain = registrableDomain(of: String(bare)) else { return nil }
        return trailingDot ? domain + "." : domain
    }

    /// True when the list names `domain` (a trailing dot ignored) a public suffix.
    func isPublicSuffix(canonicalDomain domain: String) -> Bool {
        var bare = Substring(domain)
        if bare.hasSuffix(".") { bare = bare.dropLast() }
        guard !bare.isEmpty else { return false }
        return isPublicSuffix(String(bare))
    }
}
