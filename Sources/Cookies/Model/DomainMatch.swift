/// rfc6265bis-22 §5.1.3 "domain-match": a string domain-matches a domain string if
/// - they are identical (both already canonical, so byte equality), or
/// - all of: the domain string is a suffix of the string; the last character of the string that is
///   not included in the domain string is "."; and the string is a host name (not an IP address).
enum DomainMatch {
    @inline(__always)
    static func matches(host: String, hostIsIPAddress: Bool, domain: String) -> Bool {
        host.withUTF8Bytes { host in
            domain.withUTF8Bytes { domain in matches(host: host, hostIsIPAddress: hostIsIPAddress, domain: domain) }
        }
    }

    /// The same on UTF-8 bytes.
    @inline(__always)
    static func matches(host: UnsafeBufferPointer<UInt8>, hostIsIPAddress: Bool, domain: UnsafeBufferPointer<UInt8>) -> Bool {
        let h = host.count
        let d = domain.count
        if h == d { return h == 0 || memoryEqual(host.baseAddress!, domain.baseAddress!, h) }
        guard !hostIsIPAddress, h > d, d > 0 else { return false }
        return host[h - d - 1] == UInt8(ascii: ".") && memoryEqual(host.baseAddress! + (h - d), domain.baseAddress!, d)
    }

    /// For retrieval, one byte about a cookie domain: bit 1 when `host` domain-matches it, bit 0 when it
    /// is `host` itself (what a host-only cookie needs).
    @inline(__always)
    static func decision(host: UnsafeBufferPointer<UInt8>, hostIsIPAddress: Bool, domain: String) -> UInt8 {
        domain.withUTF8Bytes { domain in
            matches(host: host, hostIsIPAddress: hostIsIPAddress, domain: domain) ? (domain.count == host.count ? 3 : 2) : 0
        }
    }
}
