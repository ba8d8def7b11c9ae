extension CookieStore {
    /// The §5.8.3 step 1 checks for a request to `url` in `context`, whose site is `partitionedSite` when
    /// that site holds partitioned cookies (else nil), with the site key of a host from `siteKey`.
    private static func filter<Failure: Error>(
        for url: CookieURL, context: CookieRequestContext, partitionedSite: String?,
        siteKey: (CanonicalHost) throws(Failure) -> String
    ) throws(Failure) -> RetrievalFilter {
        // The partition is that of the request's top level (`CookieRequestContext.topLevel(for:)`): the
        // request's own site (known already) when it is its own site for cookies; none under an opaque one.
        var partition: (scheme: String, site: String)?
        if let partitionedSite, let topLevel = context.topLevel(for: url) {
            if topLevel == url {
                partition = (url.siteScheme, partitionedSite)
            } else {
                partition = (topLevel.siteScheme, try siteKey(topLevel.host))
            }
        }
        return RetrievalFilter(url: url, context: context, isCrossSite: try context.isCrossSite(url, siteKey: siteKey), partition: partition)
    }

    /// The key of the site at `siteIndex` when it holds partitioned cookies, else nil: the only case a
    /// lookup reads it (`filter`).
    private func partitionedSite(at siteIndex: Int) -> String? {
        sites.withUnsafeBufferPointer { $0[siteIndex].partitionedCount > 0 ? $0[siteIndex].key : nil }
    }

    /// rfc6265bis-22 §5.8.3: finds the cookies to send on a request to `url` in `context`, moves their
    /// last-access time where due (step 3, `SiteCookies.touch`), and calls `body` with the site and the
    /// indices of the cookies to send, in send order (step 2: the site keeps that order, so nothing is
    /// sorted). Only the request's site is visited; its expired cookies are purged on the way. Nil when
    /// the site has no cookies. (A domain cookie of a domain above a public suffix that lies above the
    /// host, `Domain=amazonaws.com` for `foo.s3.amazonaws.com`, is another site's and not sent: a dated
    /// deviation, as Chromium and Firefox, see the Conformance article.)
    @inline(__always)
    mutating func retrieve<R>(
        for url: CookieURL, context: CookieRequestContext, now: CookieTime,
        _ body: (_ site: inout SiteCookies, _ sent: UnsafeBufferPointer<Int32>) -> R
    ) -> R? {
        // Only HTTP-family requests carry cookies (a non-HTTP API reads those of its document's URL).
        guard url.isHTTPFamily else { return nil }
        guard var siteIndex = siteSlot(of: url) else { return nil }
        // Some cookie of the site may have expired: purge them first.
        if sites.withUnsafeBufferPointer({ $0[siteIndex].earliestExpiry <= now }) {
            let key = sites[siteIndex].key
            purgeExpired(inSite: key, now: now)
            guard let index = slot(ofSiteKey: key) else { return nil }
            siteIndex = index
        }
        let filter = CookieStore.filter(for: url, context: context, partitionedSite: partitionedSite(at: siteIndex)) { siteKey(of: $0) }
        let boundsBefore = orderBounds(ofSiteAt: siteIndex)
        // The indices to send live on the stack (32 bits each: 180 cookies, the default limit, take 720
        // bytes, under the 1 KiB that stays on the stack); the site is reached in place, never copied.
        let result = withUnsafeTemporaryAllocation(of: Int32.self, capacity: sites.withUnsafeBufferPointer { $0[siteIndex].count }) { sent in
            withSites { sites in
                let sentIndices = sites[siteIndex].withCookies(ofHostOf: url) { tables, hostCookies in
                    tables.sentCookies(of: filter, for: url, amongHostCookies: hostCookies, into: sent)
                }
                // Step 5: update the last-access-time.
                sites[siteIndex].touch(sentIndices, now: now)
                return body(&sites[siteIndex], sentIndices)
            }
        }
        keepInOrders(siteAt: siteIndex, boundsBefore: boundsBefore)
        return result
    }

    /// `retrieve` for a lookup that shares the jar's lock: the same cookies, found without changing the
    /// store, and `body` gets the site to read (through `SiteTables` where it matters). Throws when the
    /// lookup would change the store: the request's host not cached yet (or its cached slot stale: a site
    /// was removed since), nor the host of the context's site for cookies or partition, expired cookies of
    /// the site to purge, its cookies of the request's host to keep (`CookiesOfHosts`, while it has room),
    /// or a last-access time to move (`SiteCookies.lastAccessUpdateInterval`); the jar then makes it with
    /// `retrieve`, holding the lock alone.
    @inline(__always)
    func retrieveWithoutChanges<R>(
        for url: CookieURL, context: CookieRequestContext, now: CookieTime,
        _ body: (_ site: UnsafePointer<SiteCookies>, _ sent: UnsafeBufferPointer<Int32>) -> R
    ) throws(StoreChangeNeeded) -> R? {
        guard url.isHTTPFamily else { return nil }
        guard let siteIndex = try knownSiteSlot(of: url) else { return nil }
        let filter = try CookieStore.filter(for: url, context: context, partitionedSite: partitionedSite(at: siteIndex)) {
            host throws(StoreChangeNeeded) in try knownSiteKey(of: host)
        }
        let result: R?? = sites.withUnsafeBufferPointer { sites in
            // The site is read through a pointer and `SiteTables`, never copied (see there).
            let site = sites.baseAddress.unsafelyUnwrapped + siteIndex
            // Expired cookies are purged by the lookup that holds the lock alone.
            guard site.pointee.earliestExpiry > now else { return nil }
            let tables = site.pointee.tables
            /// The lookup among `hostCookies`, the cookies of the request's host; nil when it would move a
            /// last-access time, which the lookup that holds the lock alone moves.
            func send(amongHostCookies hostCookies: UnsafeBufferPointer<UInt32>) -> R?? {
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: tables.entries.count) { sent -> R?? in
                    let sentIndices = tables.sentCookies(of: filter, for: url, amongHostCookies: hostCookies, into: sent)
                    if tables.touchMovesLastAccess(sentIndices, now: now) { return nil }
                    return body(site, sentIndices)
                }
            }
            return url.withHostAndPathBytes { host, _ -> R?? in
                if let kept = site.pointee.cookiesOfHosts.cookies(ofHost: host) { return send(amongHostCookies: kept) }
                // A host not kept is kept by the lookup that holds the lock alone, while the site has room
                // for it; beyond, its cookies are found here.
                guard site.pointee.cookiesOfHosts.isFull else { return nil }
                return tables.withCookies(ofHost: host, hostIsIPAddress: url.hostIsIPAddress) { send(amongHostCookies: $0) }
            }
        }
        guard let result else { throw StoreChangeNeeded() }
        return result
    }

    /// Every cookie of `url`'s site with the reason it would not be sent (nil: it would be), in send
    /// order, without touching last-access times: what `cookiejar inspect --url` shows.
    mutating func retrievalReport(for url: CookieURL, context: CookieRequestContext, now: CookieTime) -> [RetrievalDecision] {
        guard let siteIndex = siteSlot(of: url) else { return [] }
        let filter = CookieStore.filter(for: url, context: context, partitionedSite: partitionedSite(at: siteIndex)) { siteKey(of: $0) }
        var site = sites[siteIndex]
        var report: [RetrievalDecision] = []
        report.reserveCapacity(site.count)
        let cookies = site.cookies
        site.forEachExclusion(of: filter, for: url) { index, exclusion in
            let cookie = cookies[index]
            if !url.isHTTPFamily {
                report.append(RetrievalDecision(cookie: cookie, exclusion: .unsupportedScheme))
            } else if cookie.isExpired(at: now) {
                report.append(RetrievalDecision(cookie: cookie, exclusion: .expired))
            } else {
                report.append(RetrievalDecision(cookie: cookie, exclusion: exclusion))
            }
        }
        return report
    }

    /// §5.8.3 step 4: the `Cookie` header value for a request, or nil when no cookie is sent.
    mutating func cookieHeader(for url: CookieURL, context: CookieRequestContext, now: CookieTime) -> String? {
        let header: String?? = retrieve(for: url, context: context, now: now) { site, sent in
            sent.isEmpty ? nil : site.tables.cookieHeader(sending: sent)
        }
        return header ?? nil
    }

    /// `cookieHeader(for:context:now:)` for a lookup that shares the jar's lock (`retrieveWithoutChanges`).
    func cookieHeaderWithoutChanges(for url: CookieURL, context: CookieRequestContext, now: CookieTime) throws(StoreChangeNeeded) -> String? {
        let header: String?? = try retrieveWithoutChanges(for: url, context: context, now: now) { site, sent in
            sent.isEmpty ? nil : site.pointee.tables.cookieHeader(sending: sent)
        }
        return header ?? nil
    }

    /// §5.8.3 step 4: appends the `Cookie` header value for a request to `header`; false, appending
    /// nothing, when no cookie is sent.
    mutating func appendCookieHeader(for url: CookieURL, context: CookieRequestContext, now: CookieTime, to header: inout [UInt8]) -> Bool {
        retrieve(for: url, context: context, now: now) { site, sent in
            if sent.isEmpty { return false }
            site.tables.appendCookieHeader(sending: sent, to: &header)
            return true
        } ?? false
    }

    /// `appendCookieHeader(for:context:now:to:)` for a lookup that shares the jar's lock
    /// (`retrieveWithoutChanges`, which appends only once it knows the lookup changes nothing).
    func appendCookieHeaderWithoutChanges(
        for url: CookieURL, context: CookieRequestContext, now: CookieTime, to header: inout [UInt8]
    ) throws(StoreChangeNeeded) -> Bool {
        try retrieveWithoutChanges(for: url, context: context, now: now) { site, sent in
            if sent.isEmpty { return false }
            site.pointee.tables.appendCookieHeader(sending: sent, to: &header)
            return true
        } ?? false
    }
}

/// A lookup made with the jar's lock shared met something it would change (`retrieveWithoutChanges`):
/// the jar makes it again with the lock held alone.
struct StoreChangeNeeded: Error {}
