/// The checks of rfc6265bis-22 §5.8.3 step 1 for one request, computed once per request and applied to
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
                        && UnsafeBufferPointer(rebasing: key[..<scheme.count]).hasSameBytes(as: scheme)
                        && key[scheme.count] == UInt8(ascii: ":") && key[scheme.count + 1] == UInt8(ascii: "/")
                        && key[scheme.count + 2] == UInt8(ascii: "/")
                        && UnsafeBufferPointer(rebasing: key[(scheme.count + 3)...]).hasSameBytes(as: site)
                }
            }
        }
    }

    /// 1 when `partitionKey` (a stored cookie's) is the request's, else 0: the decision retrieval keeps
    /// per partition key of a site.
    @inline(__always)
    func partitionDecision(_ partitionKey: String) -> UInt8 { isRequestPartition(partitionKey) ? 1 : 0 }

    /// Why `entry` is not sent, given the decisions for the site's domains (from 0), paths (from `paths`)
    /// and partition keys (from `partitions`); nil when it is.
    @inline(__always)
    func exclusion(
        of entry: StoredCookie, decisions: UnsafeMutableBufferPointer<UInt8>, paths: Int, partitions: Int
    ) -> CookieExclusion? {
        if let exclusion = RetrievalFilter.domainExclusion(of: entry, decision: decisions[Int(entry.domain)]) { return exclusion }
        return exclusion(
            ofDomainMatched: entry, pathMatches: decisions[paths + Int(entry.path)] != 0,
            isInRequestPartition: entry.isPartitioned && decisions[partitions + Int(entry.partition)] != 0)
    }

    /// Why the request's host does not match `entry`'s domain, given the decision for that domain
    /// (`DomainMatch.decision`); nil when it does.
    @inline(__always)
    static func domainExclusion(of entry: StoredCookie, decision: UInt8) -> CookieExclusion? {
        // Host-only cookies need the identical host; others a domain-match (§5.1.3).
        if entry.isHostOnly {
            guard decision & 1 != 0 else { return .hostOnly }
        } else {
            guard decision & 2 != 0 else { return .domainMismatch }
        }
        return nil
    }

    /// Why `entry`, whose domain the request's host matches, is not sent (nil when it is), given whether
    /// the request path path-matches its path and whether it is partitioned in the request's partition.
    @inline(__always)
    func exclusion(ofDomainMatched entry: StoredCookie, pathMatches: Bool, isInRequestPartition: Bool) -> CookieExclusion? {
        // The request path path-matches the cookie's path (§5.1.4).
        guard pathMatches else { return .pathMismatch }
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
        if entry.isPartitioned, !isInRequestPartition { return .partition }
        return nil
    }
}

extension SiteCookies {
    /// Calls `body` with the index of each cookie, in send order, and the reason `filter` keeps it off the
    /// request to `url` (nil: it is sent): every cookie of the site, for a report. Mutating only so that
    /// it runs on the site in place, without a copy.
    mutating func forEachExclusion(of filter: RetrievalFilter, for url: CookieURL, _ body: (Int, CookieExclusion?) -> Void) {
        let (pathStart, partitionStart) = (domains.count, domains.count + paths.count)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: partitionStart + partitions.count) { decisions in
            decide(filter, for: url, into: decisions)
            entries.withUnsafeBufferPointer { entries in
                for index in 0..<entries.count {
                    body(index, filter.exclusion(of: entries[index], decisions: decisions, paths: pathStart, partitions: partitionStart))
                }
            }
        }
    }

    /// Calls `body` with the site's tables and the indices of the cookies whose domain `url`'s host
    /// matches, in send order: those `cookiesOfHosts` keeps for the host, else found here (and kept there
    /// while it has room).
    @inline(__always)
    mutating func withCookies<R>(ofHostOf url: CookieURL, _ body: (SiteTables, UnsafeBufferPointer<UInt32>) -> R) -> R {
        url.withHostAndPathBytes { host, _ in
            let tables = self.tables
            if let kept = cookiesOfHosts.cookies(ofHost: host) { return body(tables, kept) }
            return tables.withCookies(ofHost: host, hostIsIPAddress: url.hostIsIPAddress) { found in
                if !cookiesOfHosts.isFull { cookiesOfHosts.add(host: host, cookies: found) }
                return body(tables, found)
            }
        }
    }

    /// Writes the decisions of `filter` for the request to `url` on each distinct string of the site's
    /// tables into `decisions`: its domains (from 0), then its paths, then its partition keys, so that a
    /// cookie's domain-, path- and partition-matching is read, not worked out. Mutating only so that the
    /// callers' closures, which hold the site in place, call it without a copy of the site.
    @inline(__always)
    private mutating func decide(_ filter: RetrievalFilter, for url: CookieURL, into decisions: UnsafeMutableBufferPointer<UInt8>) {
        let pathStart = domains.count
        let partitionStart = pathStart + paths.count
        url.withHostAndPathBytes { host, path in
            tables.decideDomains(host: host, hostIsIPAddress: url.hostIsIPAddress, into: decisions)
            paths.slots.withUnsafeBufferPointer { paths in
                for slot in paths.indices { decisions[pathStart + slot] = SiteTables.pathDecision(path, paths[slot]) }
            }
        }
        for slot in 0..<partitions.count {
            decisions[partitionStart + slot] = filter.partitionDecision(partitions[UInt32(truncatingIfNeeded: slot)])
        }
    }
}

extension SiteTables {
    /// Writes `DomainMatch.decision` for the request host `host` (its bytes) on each of the site's
    /// domains into `decisions`, from 0.
    @inline(__always)
    func decideDomains(host: UnsafeBufferPointer<UInt8>, hostIsIPAddress: Bool, into decisions: UnsafeMutableBufferPointer<UInt8>) {
        // A domain longer than the host, or that does not start as the host's end does (its first eight
        // bytes), is neither the host nor domain-matched by it: known without reading its string.
        for slot in domains.indices {
            let domain = domains[slot]
            let offset = host.count - Int(domain.byteCount)
            decisions[slot] = offset >= 0 && domain.couldBe(host, at: offset)
                ? DomainMatch.decision(host: host, hostIsIPAddress: hostIsIPAddress, domain: domain.string) : 0
        }
    }

    /// Calls `body` with the indices of the cookies whose domain the request host `host` (its bytes)
    /// matches, in send order (§5.8.3 step 1's domain condition: the host itself for a host-only cookie,
    /// a domain-match for the others), found cookie by cookie: what `CookiesOfHosts` keeps for a host.
    @inline(__always)
    func withCookies<R>(
        ofHost host: UnsafeBufferPointer<UInt8>, hostIsIPAddress: Bool, _ body: (UnsafeBufferPointer<UInt32>) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: domains.count) { decisions in
            decideDomains(host: host, hostIsIPAddress: hostIsIPAddress, into: decisions)
            return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: entries.count) { found in
                var count = 0
                for index in entries.indices
                where RetrievalFilter.domainExclusion(of: entries[index], decision: decisions[Int(entries[index].domain)]) == nil {
                    found[count] = UInt32(truncatingIfNeeded: index)
                    count += 1
                }
                return body(UnsafeBufferPointer(rebasing: found[..<count]))
            }
        }
    }

    /// Writes the index of each cookie `filter` lets onto the request to `url` into `sent`, in send order,
    /// among `hostCookies`, the cookies whose domain the request's host matches (`withCookies(ofHost:)`,
    /// `CookiesOfHosts`), and returns them: only those cookies' paths and partition keys are decided.
    @inline(__always)
    func sentCookies(
        of filter: RetrievalFilter, for url: CookieURL, amongHostCookies hostCookies: UnsafeBufferPointer<UInt32>,
        into sent: UnsafeMutableBufferPointer<Int32>
    ) -> UnsafeBufferPointer<Int32> {
        var sentCount = 0
        let partitionStart = paths.count
        // Paths and partition keys are decided as the host's cookies need them (`unknown` until then).
        let unknown: UInt8 = 2
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: partitionStart + partitions.count) { decisions in
            decisions.initialize(repeating: unknown)
            url.withHostAndPathBytes { _, path in
                for index in hostCookies {
                    let index = Int(index)
                    let entry = entries[index]
                    let pathSlot = Int(entry.path)
                    if decisions[pathSlot] == unknown { decisions[pathSlot] = SiteTables.pathDecision(path, paths[pathSlot]) }
                    var isInRequestPartition = false
                    if entry.isPartitioned {
                        let partitionSlot = partitionStart + Int(entry.partition)
                        if decisions[partitionSlot] == unknown {
                            decisions[partitionSlot] = filter.partitionDecision(partitions[Int(entry.partition)].string)
                        }
                        isInRequestPartition = decisions[partitionSlot] != 0
                    }
                    let exclusion = filter.exclusion(
                        ofDomainMatched: entry, pathMatches: decisions[pathSlot] != 0, isInRequestPartition: isInRequestPartition)
                    if exclusion == nil {
                        sent[sentCount] = Int32(truncatingIfNeeded: index)
                        sentCount += 1
                    }
                }
            }
        }
        return UnsafeBufferPointer(rebasing: sent[..<sentCount])
    }

    /// 1 when the request path `path` path-matches the cookie path of `slot` (§5.1.4), else 0. A cookie
    /// path is a prefix of the request path when it matches: one longer, or that does not start as the
    /// request path does, does not.
    @inline(__always)
    static func pathDecision(_ path: UnsafeBufferPointer<UInt8>, _ slot: InternedStrings.Slot) -> UInt8 {
        let isPrefix = Int(slot.byteCount) <= path.count && slot.couldBe(path, at: 0)
        return isPrefix && CookiePath.matches(requestPath: path, cookiePath: slot.string) ? 1 : 0
    }
}
