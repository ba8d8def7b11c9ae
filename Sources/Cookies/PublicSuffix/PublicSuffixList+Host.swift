extension PublicSuffixList {
    /// The registrable domain of a canonical host, or nil for an IP address, a public suffix, or a name
    /// the list cannot place (empty labels at either end). A trailing dot is kept on the answer, since
    /// `www.example.com.` and `www.example.com` are different hosts (`example.com.` and `example.com`).
    public func registrableDomain(of host: CanonicalHost) -> String? {
        guard host.kind == .domain else { return nil }
        return registrableDomain(ofCanonicalDomain: host.name)
    }

    /// As `registrableDomain(of:)`, for a canonical domain string such as a cookie's domain, which may
    /// also be an IP address (a host-only cookie of an IP host): that has none, as for the host.
    func registrableDomain(ofCanonicalDomain name: String) -> String? {
        // Bytes, not Characters: a canonical domain is ASCII, and "." is one byte.
        let dot = UInt8(ascii: ".")
        guard !isIPAddress(canonicalDomain: name) else { return nil }
        let trailingDot = name.utf8.last == dot
        let bare = trailingDot ? name.utf8.dropLast() : name.utf8[...]
        guard let first = bare.first, first != dot, bare.last != dot else { return nil }
        guard let domain = registrableDomain(of: trailingDot ? String(Substring(bare)) : name) else { return nil }
        return trailingDot ? domain + "." : domain
    }

    /// True when the list names `domain` (a trailing dot ignored) a public suffix; an IP address is none.
    func isPublicSuffix(canonicalDomain domain: String) -> Bool {
        guard !isIPAddress(canonicalDomain: domain) else { return false }
        let trailingDot = domain.utf8.last == UInt8(ascii: ".")
        let bare = trailingDot ? domain.utf8.dropLast() : domain.utf8[...]
        guard !bare.isEmpty else { return false }
        return isPublicSuffix(trailingDot ? String(Substring(bare)) : domain)
    }

    /// True for a canonical domain string that is an IP address, or reads as one (IPv6 in brackets; a name
    /// ending in a number, which IPv4 parsing takes as an address, valid or not): such names never reach
    /// the list.
    private func isIPAddress(canonicalDomain name: String) -> Bool {
        name.utf8.first == UInt8(ascii: "[") || !IPv4Address.parse(name).isNotAnAddress
    }
}
