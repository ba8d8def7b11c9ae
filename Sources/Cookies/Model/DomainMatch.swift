/// rfc6265bis-22 §5.1.3 "domain-match": a string domain-matches a domain string if
/// - they are identical (both already canonical, so byte equality), or
/// - all of: the domain string is a suffix of the string; the last character of the string that is
///   not included in the domain string is "."; and the string is a host name (not an IP address).
enum DomainMatch {
    @inline(__always)
    static func matches(host: String, hostIsIPAddress: Bool, domain: String) -> Bool {
        let matched = host.utf8.withContiguousStorageIfAvailable { host in
            domain.utf8.withContiguousStorageIfAvailable { domain in
                matches(host: host, hostIsIPAddress: hostIsIPAddress, domain: domain)
            }
        }
        if let matched = matched ?? nil { return matched }
        return matches(host: Array(host.utf8), hostIsIPAddress: hostIsIPAddress, domain: Array(domain.utf8))
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
        let matched = domain.utf8.withContiguousStorageIfAvailable { domain in
            matches(host: host, hostIsIPAddress: hostIsIPAddress, domain: domain) ? (domain.count == host.count ? 3 : 2) : 0
        }
        if let matched { return UInt8(matched) }
        return Array(domain.utf8).withUnsafeBufferPointer { domain in
            matches(host: host, hostIsIPAddress: hostIsIPAddress, domain: domain) ? (domain.count == host.count ? 3 : 2) : 0
        }
    }

    private static func matches(host: [UInt8], hostIsIPAddress: Bool, domain: [UInt8]) -> Bool {
        host.withUnsafeBufferPointer { host in
            domain.withUnsafeBufferPointer { domain in matches(host: host, hostIsIPAddress: hostIsIPAddress, domain: domain) }
        }
    }
}
