// Steps 23–24 of rfc6265bis-22 §5.7 on the storage: a validated cookie replaces the cookie of its
// identity or is inserted in send order, then the limits evict (§5.7's "cookie-limit", §6.1); and the
// store's answer to the rules' step 16 question. Both work on the site's entries in place.

extension CookieStore {
    /// Steps 23–24 for `cookie`, received at `now`: a cookie of the same identity is replaced, keeping its
    /// creation time, unless a non-HTTP API would replace an HttpOnly cookie (23.2); an expired cookie
    /// only deletes it. Otherwise the new cookie is inserted, and the limits enforced. One visit to the
    /// site does both. Cookies are read out of the site only for the changes, when they are recorded, and
    /// for the report, when it carries them.
    @inline(__always)
    mutating func store<Report: ReceiptReport>(_ cookie: borrowing ValidatedCookie, now: CookieTime) -> Report {
        let identity = CookieIdentityBytes(
            name: cookie.name, domain: cookie.domain, isHostOnly: cookie.isHostOnly, path: cookie.path,
            partitionKey: cookie.partitionKey)
        // The cookie as its site keeps it; the site sets the slots of its strings, and step 24 its times.
        var entry = StoredCookie(
            isHostOnly: cookie.isHostOnly, expiry: cookie.expiry, creation: now, lastAccess: now, isSecure: cookie.isSecure,
            isHTTPOnly: cookie.isHTTPOnly, sameSite: cookie.sameSite, isSourceSecure: cookie.isSourceSecure,
            sourcePort: cookie.sourcePort, domain: 0, path: 0, partition: StoredCookie.unpartitioned)
        let isExpired = cookie.isExpired(at: now)
        let isFromNonHTTPAPI = cookie.isFromNonHTTPAPI
        let (name, value, isKnownASCII) = (cookie.name, cookie.value, cookie.isKnownASCII)
        let creation = creationTime(at: now)
        let perSiteLimit = limits.maxCookiesPerSite
        let recordsChanges = self.recordsChanges
        // The changes, in the order the site sees them (an expired cookie of the same identity, removed
        // before the new one is stored; then this line's own change), when changes are recorded: appended
        // to the store's own array, lent to the site's closure (no allocation while it has room).
        var siteChanges: [CookieChange]? = nil
        if recordsChanges {
            siteChanges = []
            swap(&siteChanges!, &changes)
        }
        // Where the new cookie was inserted in its site, and whether that site went over its limit.
        var storedAt: Int?
        var overLimit = false
        let slot = slotCreatingSite(ofCookieDomain: cookie.domain)
        let report: Report = withSite(at: slot) { site in
            if let index = site.indexOfCookie(with: identity) {
                let old = site.entries[index]
                if old.isExpired(at: now) {
                    // An expired old cookie is gone already (it never shadows a newer one): it lends nothing.
                    if let expired = site.removeCookie(at: index, returningIt: recordsChanges) {
                        siteChanges?.append(.removed(expired, cause: .expired))
                    }
                } else {
                    // Step 23.2.
                    if isFromNonHTTPAPI, old.isHTTPOnly { return .rejected(.wouldOverwriteHTTPOnlyCookie) }
                    let previous = Report.previous { site.cookie(at: index) }
                    if isExpired {
                        if let removed = site.removeCookie(at: index, returningIt: recordsChanges) {
                            siteChanges?.append(.removed(removed, cause: .expired))
                        }
                        return .deleted(previous: previous)
                    }
                    // Step 23.3: the new cookie keeps the old one's creation time.
                    entry.creation = old.creation
                    let replaced = recordsChanges ? site.cookie(at: index) : nil
                    // The pair is known to be ASCII when the whole line is (the site reads it otherwise).
                    site.replace(at: index, with: entry, name: name, value: value, isKnownASCII: isKnownASCII)
                    if let replaced { siteChanges?.append(.replaced(old: replaced, new: site.cookie(at: index))) }
                    return .replaced({ site.cookie(at: index) }, previous: previous)
                }
            }
            if isExpired { return .expired }
            // Step 24.
            entry.creation = creation
            entry.lastAccess = creation
            let index = site.insert(entry, value: value, isKnownASCII: isKnownASCII, identity: identity)
            siteChanges?.append(.added(site.cookie(at: index)))
            storedAt = index
            overLimit = site.count > perSiteLimit && site.cookieCount(inPartition: site.entries[index].partition) > perSiteLimit
            return .stored { site.cookie(at: index) }
        }
        if recordsChanges { swap(&siteChanges!, &changes) }
        if let storedAt {
            noteCreation(creation)
            // The cookie to keep is read out only when a limit is exceeded.
            if overLimit || count > limits.maxCookies {
                enforceLimits(site: sites[slot].key, keeping: sites[slot].cookie(at: storedAt), now: now)
            }
        }
        return report
    }

    /// §5.7 step 16 (`CookieStoreQueries`): is there an unexpired Secure cookie named `name` whose domain
    /// domain-matches `domain` (or the reverse) and whose path `path` path-matches (name and path as
    /// UTF-8)? Such cookies live in the site of `domain`, except host-only cookies of public-suffix hosts
    /// above `domain` (their own site), and, when `domain` is itself such a host, cookies of the sites
    /// below it.
    mutating func hasSecureCookie(
        shadowedBy name: UnsafeBufferPointer<UInt8>, domain: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>,
        now: CookieTime
    ) -> Bool {
        let (key, slot) = siteKeyAndSlot(ofCookieDomain: domain)
        func shadows(inSiteAt slot: Int?) -> Bool {
            guard let slot else { return false }
            return withSites { $0[slot].hasSecureCookie(shadowedBy: name, domain: domain, path: path, now: now) }
        }
        if shadows(inSiteAt: slot) { return true }
        // Sites named after a public-suffix host above `domain`: a site key is a registrable domain or a
        // host without one, so the hosts between `domain` and `key` are never keys; only those above
        // `key` can be. Each is looked up by its bytes in the host cache: a site whose key is that host.
        let shadowedAbove = CookieStore.anyDomain(above: key) { above in
            guard let slot = siteSlot(ofCookieDomain: above), sites[slot].key.hasUTF8(above) else { return false }
            return shadows(inSiteAt: slot)
        }
        if shadowedAbove { return true }
        // `domain` is a host without a registrable domain, or a registrable domain with public suffixes
        // below it ("s3.amazonaws.com" below "amazonaws.com"): sites below it, when there are any.
        if key.hasUTF8(domain), hasSites(below: key) {
            // Byte comparisons (canonical domains are ASCII): a key ending in "." + `domain`.
            return withSites { sites in
                sites.indices.contains { slot in
                    !sites[slot].isVacant && sites[slot].key.utf8.count > domain.count
                        && DomainMatch.matches(host: sites[slot].key, hostIsIPAddress: false, domain: key)
                        && sites[slot].hasSecureCookie(shadowedBy: name, domain: domain, path: path, now: now)
                }
            }
        }
        return false
    }
}
