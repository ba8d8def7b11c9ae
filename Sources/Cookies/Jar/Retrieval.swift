extension CookieStore {
    /// The §5.8.3 step 3 checks for a request to `url` in `context` against the site at `siteIndex`.
    private mutating func filter(
        for url: CookieURL, context: CookieRequestContext, siteIndex: Int
    ) -> RetrievalFilter {
        let hasPartitionedCookies = sites.withUnsafeBufferPointer { $0[siteIndex].partitionedCount > 0 }
        // The partition is the context's, else the request's own site: the one at `siteIndex`.
        let partition = !hasPartitionedCookies ? nil
            : context.partition.map { ($0.scheme, siteKey(of: $0.host)) } ?? (url.scheme, sites[siteIndex].key)
        return RetrievalFilter(url: url, context: context, isCrossSite: isCrossSite(url, context: context), partition: partition)
    }

    /// rfc6265bis-22 §5.8.3: finds the cookies to send on a request to `url` in `context`, updates their
    /// last-access time (step 5), and calls `body` with the site and the indices of the cookies to send,
    /// in send order (step 4: the site keeps that order, so nothing is sorted). Only the request's site
    /// is visited; its expired cookies are purged on the way. Nil when the site has no cookies.
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
        let filter = filter(for: url, context: context, siteIndex: siteIndex)
        // The indices to send live on the stack (32 bits each: 180 cookies, the default limit, take 720
        // bytes, under the 1 KiB that stays on the stack); the site is reached in place, never copied.
        let result = withUnsafeTemporaryAllocation(of: Int32.self, capacity: sites.withUnsafeBufferPointer { $0[siteIndex].count }) { sent in
            withSites { sites in
                var sentCount = 0
                sites[siteIndex].forEachSentCookie(of: filter, for: url) { index in
                    sent[sentCount] = Int32(truncatingIfNeeded: index)
                    sentCount += 1
                }
                let sentIndices = UnsafeBufferPointer(rebasing: sent[..<sentCount])
                // Step 5: update the last-access-time.
                sites[siteIndex].touch(sentIndices, now: now)
                return body(&sites[siteIndex], sentIndices)
            }
        }
        noteAccess(ofSiteAt: siteIndex)
        return result
    }

    /// Every cookie of `url`'s site with the reason it would not be sent (nil: it would be), in send
    /// order, without touching last-access times: what `cookiejar inspect --url` shows.
    mutating func retrievalReport(for url: CookieURL, context: CookieRequestContext, now: CookieTime) -> [RetrievalDecision] {
        guard let siteIndex = siteSlot(of: url) else { return [] }
        let filter = filter(for: url, context: context, siteIndex: siteIndex)
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

    /// §5.8.3 step 6: the `Cookie` header value for a request, or nil when no cookie is sent.
    mutating func cookieHeader(for url: CookieURL, context: CookieRequestContext, now: CookieTime) -> String? {
        // The store's header buffer, lent to the site for this request.
        var buffer: [UInt8] = []
        swap(&buffer, &headerBuffer)
        defer { swap(&buffer, &headerBuffer) }
        let header: String?? = retrieve(for: url, context: context, now: now) { site, sent in
            sent.isEmpty ? nil : site.cookieHeader(sending: sent, buffer: &buffer)
        }
        return header ?? nil
    }
}
