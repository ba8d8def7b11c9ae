extension CookieStore {
    /// The §5.8.3 step 3 checks for a request to `url` in `context` against the site at `siteIndex`.
    private mutating func filter(
        for url: CookieURL, context: CookieRequestContext, siteIndex: Dictionary<String, SiteCookies>.Index
    ) -> RetrievalFilter {
        let partition = sites.values[siteIndex].partitionedCount > 0 ? site(of: context.partition ?? url) : nil
        return RetrievalFilter(url: url, context: context, isCrossSite: isCrossSite(url, context: context), partition: partition)
    }

    /// rfc6265bis-22 §5.8.3: finds the cookies to send on a request to `url` in `context`, updates their
    /// last-access time (step 5), and calls `body` with the site's cookies and the indices of those to
    /// send, in send order (step 4: the site keeps that order, so nothing is sorted). Only the request's
    /// site is visited; its expired cookies are purged on the way. Nil when the site has no cookies.
    @inline(__always)
    mutating func retrieve<R>(
        for url: CookieURL, context: CookieRequestContext, now: CookieTime,
        _ body: (_ cookies: UnsafeBufferPointer<Cookie>, _ sent: UnsafeBufferPointer<Int>) -> R
    ) -> R? {
        // Only HTTP-family requests carry cookies (a non-HTTP API reads those of its document's URL).
        guard url.isHTTPFamily else { return nil }
        let key = siteKey(of: url.host)
        guard var siteIndex = sites.index(forKey: key) else { return nil }
        if sites.values[siteIndex].mayHaveExpired(at: now) {
            purgeExpired(inSite: key, now: now)
            guard let index = sites.index(forKey: key) else { return nil }
            siteIndex = index
        }
        let filter = filter(for: url, context: context, siteIndex: siteIndex)
        let cookieCount = sites.values[siteIndex].count
        // The indices to send live on the stack (a site holds at most a few hundred cookies).
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: cookieCount) { sent in
            let sentCount = sites.values[siteIndex].withCookies { cookies in
                var sentCount = 0
                for index in 0..<cookieCount where filter.exclusion(of: cookies[index]) == nil {
                    sent[sentCount] = index
                    sentCount += 1
                }
                return sentCount
            }
            let sentIndices = UnsafeBufferPointer(rebasing: sent[..<sentCount])
            // Step 5: update the last-access-time.
            touch(sentIndices, inSiteAt: siteIndex, now: now)
            return sites.values[siteIndex].withCookies { body($0, sentIndices) }
        }
    }

    /// Every cookie of `url`'s site with the reason it would not be sent (nil: it would be), in send
    /// order, without touching last-access times: what `cookiejar inspect --url` shows.
    mutating func retrievalReport(for url: CookieURL, context: CookieRequestContext, now: CookieTime) -> [RetrievalDecision] {
        guard let siteIndex = sites.index(forKey: siteKey(of: url.host)) else { return [] }
        let filter = filter(for: url, context: context, siteIndex: siteIndex)
        return sites.values[siteIndex].cookies.map { cookie in
            if !url.isHTTPFamily { return RetrievalDecision(cookie: cookie, exclusion: .unsupportedScheme) }
            if cookie.isExpired(at: now) { return RetrievalDecision(cookie: cookie, exclusion: .expired) }
            return RetrievalDecision(cookie: cookie, exclusion: filter.exclusion(of: cookie))
        }
    }

    /// §5.8.3 step 6: the `Cookie` header value for a request, or nil when no cookie is sent. The header
    /// is measured first and written into one allocation.
    mutating func cookieHeader(for url: CookieURL, context: CookieRequestContext, now: CookieTime) -> String? {
        let header: String?? = retrieve(for: url, context: context, now: now) { cookies, sent in
            guard !sent.isEmpty else { return nil }
            var length = 2 * (sent.count - 1)
            for index in sent {
                let nameLength = cookies[index].name.utf8.count
                length += (nameLength == 0 ? 0 : nameLength + 1) + cookies[index].value.utf8.count
            }
            return String(unsafeUninitializedCapacity: length) { buffer in
                var offset = 0
                for index in sent {
                    if offset > 0 {
                        buffer[offset] = UInt8(ascii: ";")
                        buffer[offset + 1] = UInt8(ascii: " ")
                        offset += 2
                    }
                    // A nameless cookie is sent as its value alone.
                    if !cookies[index].name.isEmpty {
                        offset = copy(cookies[index].name, into: buffer, at: offset)
                        buffer[offset] = UInt8(ascii: "=")
                        offset += 1
                    }
                    offset = copy(cookies[index].value, into: buffer, at: offset)
                }
                return offset
            }
        }
        return header ?? nil
    }
}

/// Copies the UTF-8 of `text` into `buffer` at `offset`; returns the offset after it.
@inline(__always)
private func copy(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
    var text = text
    return text.withUTF8 { bytes in
        guard let source = bytes.baseAddress else { return offset }
        (buffer.baseAddress! + offset).update(from: source, count: bytes.count)
        return offset + bytes.count
    }
}
