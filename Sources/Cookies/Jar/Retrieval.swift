extension CookieStore {
    /// rfc6265bis-22 §5.8.3: calls `body` with each cookie to send on a request to `url` in `context`, in
    /// send order, and updates their last-access time. Only the request's site is visited; its expired
    /// cookies are purged on the way.
    @inline(__always)
    mutating func retrieve(
        for url: CookieURL, context: CookieRequestContext, now: CookieTime, _ body: (Cookie) -> Void
    ) {
        // Only HTTP-family requests carry cookies (a non-HTTP API reads those of its document's URL).
        guard url.isHTTPFamily else { return }
        let key = siteKey(of: url.host)
        guard let siteIndex = sites.index(forKey: key) else { return }
        if sites.values[siteIndex].mayHaveExpired(at: now) {
            purgeExpired(inSite: key, now: now)
            guard sites[key] != nil else { return }
        }
        var filter = RetrievalFilter(url: url, context: context, isCrossSite: isCrossSite(url, context: context))
        let siteIndexAfterPurge = sites.index(forKey: key)!
        let cookieCount = sites.values[siteIndexAfterPurge].count
        for index in 0..<cookieCount {
            var cookie = sites.values[siteIndexAfterPurge].cookies[index]
            guard filter.exclusion(of: cookie, store: &self) == nil else { continue }
            // Step 5: update the last-access-time.
            touch(cookieAt: index, inSiteAt: siteIndexAfterPurge, now: now)
            cookie.lastAccess = now
            body(cookie)
        }
    }

    /// Every cookie of `url`'s site with the reason it would not be sent (nil: it would be), in send
    /// order, without touching last-access times: what `cookiejar inspect --url` shows.
    mutating func retrievalReport(for url: CookieURL, context: CookieRequestContext, now: CookieTime) -> [RetrievalDecision] {
        let key = siteKey(of: url.host)
        guard let site = sites[key] else { return [] }
        var filter = RetrievalFilter(url: url, context: context, isCrossSite: isCrossSite(url, context: context))
        return site.cookies.map { cookie in
            if !url.isHTTPFamily { return RetrievalDecision(cookie: cookie, exclusion: .unsupportedScheme) }
            if cookie.isExpired(at: now) { return RetrievalDecision(cookie: cookie, exclusion: .expired) }
            return RetrievalDecision(cookie: cookie, exclusion: filter.exclusion(of: cookie, store: &self))
        }
    }

    /// §5.8.3 step 6: the `Cookie` header value for a request, or nil when no cookie is sent.
    mutating func cookieHeader(for url: CookieURL, context: CookieRequestContext, now: CookieTime) -> String? {
        var header = ""
        var first = true
        retrieve(for: url, context: context, now: now) { cookie in
            if first {
                header.reserveCapacity(128)
                first = false
            } else {
                header += "; "
            }
            if !cookie.name.isEmpty {
                header += cookie.name
                header += "="
            }
            header += cookie.value
        }
        return first ? nil : header
    }
}
