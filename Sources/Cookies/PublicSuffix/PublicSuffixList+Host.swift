extension PublicSuffixList {
    /// The registrable domain of a canonical host, or nil for an IP address, a public suffix, or a name
    /// the list cannot place (an empty label other than a final one: `CanonicalHost.hasEmptyLabel`). A
    /// trailing dot is kept on the answer, since `www.example.com.` and `www.example.com` are different
    /// hosts (`example.com.` and `example.com`).
    public func registrableDomain(of host: CanonicalHost) -> String? {
        guard host.kind == .domain else { return nil }
        return registrableDomain(ofCanonicalDomain: host.name)
    }

    /// As `registrableDomain(of:)`, for a canonical domain string such as a cookie's domain, which may
    /// also be an IP address (a host-only cookie of an IP host): that has none, as for the host.
    package func registrableDomain(ofCanonicalDomain name: String) -> String? {
        name.withUTF8Bytes { bytes in
            registrableDomainStart(ofCanonicalDomain: bytes).map {
                // The answer starts after a "." (a scalar boundary): its bytes are well-formed.
                $0 == 0 ? name : String(wellFormedUTF8: UnsafeBufferPointer(rebasing: bytes[$0...]), isASCII: false)
            }
        }
    }

    /// Where the registrable domain of a canonical domain (UTF-8) starts in it, nil when it has none: the
    /// bytes behind `registrableDomain(ofCanonicalDomain:)`, which the store reads without making a String.
    /// A trailing dot is set aside for the list and stays on the answer.
    func registrableDomainStart(ofCanonicalDomain name: UnsafeBufferPointer<UInt8>) -> Int? {
        let dot = UInt8(ascii: ".")
        guard !Self.isIPAddress(canonicalDomain: name) else { return nil }
        let bare = name.last == dot ? UnsafeBufferPointer(rebasing: name.dropLast()) : name
        // "a..com" would otherwise be answered ".com", and every "x..com" one site.
        guard !bare.isEmpty, !CanonicalHost.hasEmptyLabel(name) else { return nil }
        return registrableDomainStart(inUTF8: bare)
    }

    /// True when the list names `domain` (UTF-8, a trailing dot ignored) a public suffix; an IP address is
    /// none. A name with an empty label other than a final one (`CanonicalHost.hasEmptyLabel`), which
    /// the list cannot place, counts as one: a Domain attribute `com..` from the host `evil.com..` would
    /// otherwise set a cookie for every `*.com..` host.
    func isPublicSuffix(canonicalDomain domain: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !Self.isIPAddress(canonicalDomain: domain) else { return false }
        let bare = domain.last == UInt8(ascii: ".") ? UnsafeBufferPointer(rebasing: domain.dropLast()) : domain
        // A domain is a public suffix exactly when no label is left of its public suffix.
        return !bare.isEmpty && (CanonicalHost.hasEmptyLabel(domain) || registrableDomainStart(inUTF8: bare) == nil)
    }

    /// True for a canonical domain (UTF-8) that is an IP address, or reads as one (IPv6 in brackets; a name
    /// ending in a number, which IPv4 parsing takes as an address, valid or not): such names never reach
    /// the list. Only a name whose last label starts with a digit is parsed.
    private static func isIPAddress(canonicalDomain name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = name.first else { return false }
        return first == UInt8(ascii: "[")
            || (CanonicalHost.lastLabelStartsWithDigit(name)
                && !IPv4Address.parse(String(decoding: name, as: UTF8.self)).isNotAnAddress)
    }
}
