extension CookieStoreQueries {
    /// The partition key of the top-level site `key` names, in the form the jar computes a request's
    /// (`site(of:)`, CHIPS: the schemeful site of the top-level document): the scheme as a site has it
    /// (lower case, ws and wss as http and https), the host canonical (§5.1.2: lower case, IDNA A-labels)
    /// and cut to its site key (its registrable domain), so that "https://TOP.example" and
    /// "https://www.top.example" are "https://top.example". Nil when `key` names no site: not a scheme,
    /// "://" and a host alone (a port, a path, user information, no scheme at all), or a host no URL could
    /// have.
    mutating func partitionKey(canonicalising key: String) -> String? {
        let bytes = Array(key.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) else { return nil }
        // The host alone: a ":" only inside an IPv6 literal's brackets (no port), and no "/", "\", "?", "#"
        // or "@" (no path, query, fragment or user information).
        let host = bytes[(colon + 3)...]
        let isIPv6Literal = host.first == UInt8(ascii: "[") && host.last == UInt8(ascii: "]")
        guard !host.contains(where: { "/\\?#@".utf8.contains($0) || (!isIPv6Literal && $0 == UInt8(ascii: ":")) }),
            let url = CookieURL(key)
        else { return nil }
        return site(of: url)
    }
}
