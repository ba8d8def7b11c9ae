/// The checks of rfc6265bis-22 §5.8.3 step 3 for one request, computed once per request and applied to
/// each cookie of its site.
struct RetrievalFilter {
    let isSecureChannel: Bool
    let isCrossSite: Bool
    let api: CookieAPI
    /// Lax and Default cookies may go cross-site: a top-level navigation with a safe method over HTTP.
    let allowsLaxCrossSite: Bool
    /// The request's partition key (CHIPS), when the site holds partitioned cookies: the scheme and
    /// site key of `scheme://site`, compared without being joined.
    let partition: (scheme: String, site: String)?

    init(url: CookieURL, context: CookieRequestContext, isCrossSite: Bool, partition: (scheme: String, site: String)?) {
        self.partition = partition
        self.isSecureChannel = url.isSecure
        self.isCrossSite = isCrossSite
        self.api = context.api
        self.allowsLaxCrossSite = context.api == .http && context.isSafeMethod && context.isTopLevelNavigation
    }

    /// True when `partitionKey` (a stored cookie's) is the request's.
    func isRequestPartition(_ partitionKey: String) -> Bool {
        guard let partition else { return false }
        return partitionKey.withUTF8Bytes { key in
            partition.scheme.withUTF8Bytes { scheme in
                partition.site.withUTF8Bytes { site in
                    key.count == scheme.count + 3 + site.count
                        && UnsafeBufferPointer(rebasing: key[..<scheme.count]).elementsEqual(scheme)
                        && UnsafeBufferPointer(rebasing: key[scheme.count..<scheme.count + 3]).elementsEqual("://".utf8)
                        && UnsafeBufferPointer(rebasing: key[(scheme.count + 3)...]).elementsEqual(site)
                }
            }
        }
    }

    /// Why `entry` is not sent, given the decisions for the site's domains (from 0), paths (from `paths`)
    /// and partition keys (from `partitions`); nil when it is.
    @inline(__always)
    func exclusion(
        of entry: StoredCookie, decisions: UnsafeMutableBufferPointer<UInt8>, paths: Int, partitions: Int
    ) -> CookieExclusion? {
        let domain = decisions[Int(entry.domain)]
        // Host-only cookies need the identical host; others a domain-match (§5.1.3).
        if entry.isHostOnly {
            guard domain & 1 != 0 else { return .hostOnly }
        } else {
            guard domain & 2 != 0 else { return .domainMismatch }
        }
        // The request path path-matches the cookie's path (§5.1.4).
        guard decisions[paths + Int(entry.path)] != 0 else { return .pathMismatch }
        // Secure cookies only over a secure channel.
        if entry.isSecure, !isSecureChannel { return .secureOnly }
        // HttpOnly cookies only for HTTP APIs.
        if entry.isHTTPOnly, api == .nonHTTP { return .httpOnly }
        // Cookies other than SameSite=None are not sent cross-site, except Lax and Default ones on a
        // top-level navigation with a safe method, and never to a non-HTTP API.
        if isCrossSite, entry.sameSite != .none {
            guard allowsLaxCrossSite, entry.sameSite == .lax || entry.sameSite == .default else { return .sameSite }
        }
        // CHIPS §2.2: a partitioned cookie only within its partition.
        if entry.isPartitioned, decisions[partitions + Int(entry.partition)] == 0 { return .partition }
        return nil
    }
}

extension SiteCookies {
    /// Calls `body` with the index of each cookie, in send order, and the reason `filter` keeps it off the
    /// request to `url` (nil: it is sent). Domain-, path- and partition-matching are decided once per distinct
    /// string of the site's tables, not once per cookie. Mutating only so that it runs on the site in
    /// place, without a copy.
    @inline(__always)
    mutating func forEachExclusion(of filter: RetrievalFilter, for url: CookieURL, _ body: (Int, CookieExclusion?) -> Void) {
        let pathStart = domains.count
        let partitionStart = pathStart + paths.count
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: partitionStart + partitions.count) { decisions in
            // Per domain: `DomainMatch.decision`.
            let hostIsIPAddress = url.hostIsIPAddress
            url.withHostAndPathBytes { host, path in
                // A domain longer than the host, or that does not start as the host's end does (its first eight
                // bytes), is neither the host nor domain-matched by it: known without reading its string.
                domains.slots.withUnsafeBufferPointer { domains in
                    for slot in domains.indices {
                        let domain = domains[slot]
                        let offset = host.count - Int(domain.byteCount)
                        decisions[slot] = offset >= 0 && domain.couldBe(host, at: offset)
                            ? DomainMatch.decision(host: host, hostIsIPAddress: hostIsIPAddress, domain: domain.string) : 0
                    }
                }
                // Per path: the request path path-matches it (§5.1.4). A cookie path is a prefix of the request
                // path when it matches: one longer, or that does not start as the request path does, does not.
                paths.slots.withUnsafeBufferPointer { paths in
                    for slot in paths.indices {
                        let cookiePath = paths[slot]
                        let isPrefix = Int(cookiePath.byteCount) <= path.count && cookiePath.couldBe(path, at: 0)
                        decisions[pathStart + slot] = isPrefix && CookiePath.matches(requestPath: path, cookiePath: cookiePath.string) ? 1 : 0
                    }
                }
            }
            // Per partition key: it is the request's.
            for (slot, partition) in partitions.slots.enumerated() {
                decisions[partitionStart + slot] = filter.isRequestPartition(partition.string) ? 1 : 0
            }
            entries.withUnsafeBufferPointer { entries in
                for index in 0..<entries.count {
                    body(index, filter.exclusion(of: entries[index], decisions: decisions, paths: pathStart, partitions: partitionStart))
                }
            }
        }
    }
}
