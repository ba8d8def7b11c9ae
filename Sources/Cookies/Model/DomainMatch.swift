/// rfc6265bis-22 §5.1.3 "domain-match": a string domain-matches a domain string if
/// - they are identical (both already canonical, so byte equality), or
/// - all of: the domain string is a suffix of the string; the last character of the string that is
///   not included in the domain string is "."; and the string is a host name (not an IP address).
enum DomainMatch {
    @inline(__always)
    static func matches(host: String, hostIsIPAddress: Bool, domain: String) -> Bool {
        let h = host.utf8
        let d = domain.utf8
        if h.count == d.count { return h.elementsEqual(d) }
        guard !hostIsIPAddress, h.count > d.count, !d.isEmpty else { return false }
        let dot = h.index(h.endIndex, offsetBy: -(d.count + 1))
        guard h[dot] == UInt8(ascii: ".") else { return false }
        return h[h.index(after: dot)...].elementsEqual(d)
    }
}
