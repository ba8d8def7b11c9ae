import Cookies

/// The order of `inspect`'s table: cookies grouped by site (sites in order), within a site by domain,
/// path and name (String order), ties in the given order.
///
/// Each distinct domain has its site looked up and is ranked once; the cookies are placed by their
/// domain's rank (a counting sort), then each domain's cookies sorted by path and name, compared first by
/// their first eight bytes, which decide between two ASCII strings that differ in them (ASCII's String
/// order is its byte order). Other strings are compared as Strings.
struct CookieTableOrder {
    /// The cookies' indices in table order.
    private(set) var indices: [Int] = []
    /// Each site in order, with the positions in `indices` of its cookies.
    private(set) var sites: [(site: String, positions: Range<Int>)] = []

    init(_ cookies: UnsafeBufferPointer<Cookie>, site siteOf: (Cookie) -> String) {
        guard let first = cookies.baseAddress, !cookies.isEmpty else { return }
        var domainNumbers: [String: Int] = [:]
        var domains: [(site: String, domain: String, count: Int)] = []
        var domainOf: [Int] = []
        domainOf.reserveCapacity(cookies.count)
        for index in cookies.indices {
            let cookie = first + index
            if let number = domainNumbers[cookie.pointee.domain] {
                domainOf.append(number)
                domains[number].count += 1
            } else {
                domainNumbers[cookie.pointee.domain] = domains.count
                domainOf.append(domains.count)
                domains.append((siteOf(cookie.pointee), cookie.pointee.domain, 1))
            }
        }
        let domainOrder = domains.indices.sorted { a, b in
            domains[a].site < domains[b].site || (domains[a].site == domains[b].site && domains[a].domain < domains[b].domain)
        }

        // Each domain's cookies go to the positions after those of the domains before it.
        var next = [Int](repeating: 0, count: domains.count)
        var position = 0
        var siteStart = 0
        for (rank, domain) in domainOrder.enumerated() {
            if rank > 0, domains[domain].site != domains[domainOrder[rank - 1]].site {
                sites.append((domains[domainOrder[rank - 1]].site, siteStart..<position))
                siteStart = position
            }
            next[domain] = position
            position += domains[domain].count
        }
        sites.append((domains[domainOrder[domainOrder.count - 1]].site, siteStart..<position))
        indices = [Int](repeating: 0, count: cookies.count)
        for index in cookies.indices {
            indices[next[domainOf[index]]] = index
            next[domainOf[index]] += 1
        }

        let paths = cookies.indices.map { Prefix((first + $0).pointee.path) }
        let names = cookies.indices.map { Prefix((first + $0).pointee.name) }
        var start = 0
        for domain in domainOrder {
            let range = start..<start + domains[domain].count
            start = range.upperBound
            guard range.count > 1 else { continue }
            indices[range].sort { a, b in
                if let order = Prefix.order(paths[a], (first + a).pointee.path, paths[b], (first + b).pointee.path) { return order }
                if let order = Prefix.order(names[a], (first + a).pointee.name, names[b], (first + b).pointee.name) { return order }
                return a < b
            }
        }
    }

    /// The first eight bytes of an ASCII string, the first one most significant and zeros after its end,
    /// and its length; a length of -1 for a string that is not ASCII.
    private struct Prefix {
        var bytes: UInt64 = 0
        var length = 0

        init(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                for (offset, byte) in utf8.enumerated() {
                    guard byte < 0x80 else {
                        length = -1
                        return
                    }
                    if offset < 8 { bytes |= UInt64(byte) << (56 - 8 * offset) }
                }
                length = utf8.count
            }
        }

        /// True when `a` comes before `b`, false when after, nil when they are equal; their prefixes decide
        /// when both are ASCII and the prefixes differ, or both are at most eight bytes long.
        static func order(_ aPrefix: Prefix, _ a: String, _ bPrefix: Prefix, _ b: String) -> Bool? {
            if aPrefix.length >= 0, bPrefix.length >= 0 {
                if aPrefix.bytes != bPrefix.bytes { return aPrefix.bytes < bPrefix.bytes }
                // Equal prefixes of strings this short: one is the other followed by NUL bytes.
                if aPrefix.length <= 8, bPrefix.length <= 8 {
                    return aPrefix.length == bPrefix.length ? nil : aPrefix.length < bPrefix.length
                }
            }
            return a == b ? nil : a < b
        }
    }
}
