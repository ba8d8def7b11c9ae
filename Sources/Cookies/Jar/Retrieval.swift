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
        let isCrossSite = isCrossSite(url, context: context)
        let isSecureChannel = url.isSecure
        let host = url.host
        var requestPartition: String?
        let siteIndexAfterPurge = sites.index(forKey: key)!
        let cookieCount = sites.values[siteIndexAfterPurge].count
        for index in 0..<cookieCount {
            var cookie = sites.values[siteIndexAfterPurge].cookies[index]
            // Step 3: host-only cookies need the identical host; others a domain-match.
            if cookie.isHostOnly {
                guard cookie.domain == host.name else { continue }
            } else {
                guard DomainMatch.matches(host: host.name, hostIsIPAddress: host.isIPAddress, domain: cookie.domain)
                else { continue }
            }
            // Step 3: the request path path-matches the cookie's path.
            guard CookiePath.matches(requestPath: url.path, cookiePath: cookie.path) else { continue }
            // Step 3: Secure cookies only over a secure channel.
            if cookie.isSecure, !isSecureChannel { continue }
            // Step 3: HttpOnly cookies only for HTTP APIs.
            if cookie.isHTTPOnly, context.api == .nonHTTP { continue }
            // Step 3: cookies other than SameSite=None are not sent cross-site, except Lax and Default ones
            // on a top-level navigation with a safe method (never to a non-HTTP API).
            if isCrossSite, cookie.sameSite != .none {
                guard context.api == .http, cookie.sameSite == .lax || cookie.sameSite == .default,
                    context.isSafeMethod, context.isTopLevelNavigation
                else { continue }
            }
            // CHIPS §2.2: a partitioned cookie only within its partition.
            if let partitionKey = cookie.partitionKey {
                if requestPartition == nil { requestPartition = site(of: context.partition ?? url) }
                guard partitionKey == requestPartition else { continue }
            }
            // Step 5: update the last-access-time.
            touch(cookieAt: index, inSiteAt: siteIndexAfterPurge, now: now)
            cookie.lastAccess = now
            body(cookie)
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
