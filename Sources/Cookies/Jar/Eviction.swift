extension CookieStore {
    /// Keeps the site and the jar within `limits` after `kept` was stored (rfc6265bis-22 §6.1 and
    /// Chromium's CookieMonster): expired cookies go first; then the least recently accessed, non-Secure
    /// cookies before Secure ones, until the site (or the jar) is `purgeCount` below its limit. The
    /// cookie just stored is never the one evicted.
    mutating func enforceLimits(site key: String, keeping kept: Cookie, now: CookieTime) {
        enforceSiteLimit(key, keeping: kept, now: now)
        if count > limits.maxCookies { enforceTotalLimit(keeping: kept, now: now) }
    }

    /// Keeps the site `key` within its limit; never evicts the cookie with the identity of `kept`.
    mutating func enforceSiteLimit(_ key: String, keeping kept: Cookie?, now: CookieTime) {
        if let slot = siteSlots[key], sites[slot].count > limits.maxCookiesPerSite {
            let limit = limits.maxCookiesPerSite
            let target = limit - limits.sitePurgeCount
            purgeExpired(inSite: key, now: now)
            let recordsChanges = self.recordsChanges
            let evicted: [Cookie] = withSite(key) { site in
                guard site.count > limit else { return [] }
                let victims = CookieStore.evictionOrder(site, keeping: kept).prefix(site.count - target)
                return site.remove(at: victims, returningThem: recordsChanges)
            }
            recordRemovals(evicted, cause: .evicted)
        }
    }

    /// Brings a jar over its total limit back within it; never evicts the cookie with the identity of
    /// `kept`. Callers check the limit first (so that no `Cookie?` is made for a jar within it).
    mutating func enforceTotalLimit(keeping kept: Cookie?, now: CookieTime) {
        for key in siteKeysInOrder { purgeExpired(inSite: key, now: now) }
        guard count > limits.maxCookies else { return }
        let target = limits.maxCookies - limits.purgeCount
        var candidates: [(key: String, index: Int, secure: Bool, lastAccess: CookieTime)] = []
        candidates.reserveCapacity(count)
        for site in sites {
            let keptIndex = kept.flatMap(site.indexOfCookie(withIdentityOf:))
            for (index, entry) in site.entries.enumerated() where index != keptIndex {
                candidates.append((site.key, index, entry.isSecure, entry.lastAccess))
            }
        }
        // Non-Secure before Secure, least recently accessed first; ties in the order of site keys, then
        // send order, whatever the order of the sites in memory.
        candidates.sort { ($0.secure ? 1 : 0, $0.lastAccess, $0.key, $0.index) < ($1.secure ? 1 : 0, $1.lastAccess, $1.key, $1.index) }
        let recordsChanges = self.recordsChanges
        var doomed: [String: Set<Int>] = [:]
        for victim in candidates.prefix(count - target) { doomed[victim.key, default: []].insert(victim.index) }
        for (siteKey, indices) in doomed {
            let evicted = withSite(siteKey) { $0.remove(at: indices, returningThem: recordsChanges) }
            recordRemovals(evicted, cause: .evicted)
        }
    }

    /// Indices of the cookies of `site` in eviction order: non-Secure before Secure, least recently
    /// accessed first, leaving out the cookie with the identity of `kept`.
    private static func evictionOrder(_ site: SiteCookies, keeping kept: Cookie?) -> [Int] {
        let keptIndex = kept.flatMap(site.indexOfCookie(withIdentityOf:))
        // Sort keys worked out once per cookie, compared as plain integers.
        var order = site.entries.indices.compactMap { index -> (secure: Bool, lastAccess: Int64, index: Int)? in
            guard index != keptIndex else { return nil }
            let entry = site.entries[index]
            return (entry.isSecure, entry.lastAccess.microsecondsSinceEpoch, index)
        }
        order.sort { ($0.secure ? 1 : 0, $0.lastAccess, $0.index) < ($1.secure ? 1 : 0, $1.lastAccess, $1.index) }
        return order.map(\.index)
    }
}
