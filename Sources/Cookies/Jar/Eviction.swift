extension CookieStore {
    /// Keeps the site and the jar within `limits` after `kept` was stored (rfc6265bis-22 §6.1 and
    /// Chromium's CookieMonster): expired cookies go first; then the least recently accessed, non-Secure
    /// cookies before Secure ones, until the site (or the jar) is `purgeCount` below its limit. The
    /// cookie just stored is never the one evicted.
    mutating func enforceLimits(site key: String, keeping kept: Cookie, now: CookieTime) {
        enforceSiteLimit(key, keeping: kept, now: now)
        enforceTotalLimit(keeping: kept, now: now)
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

    /// Keeps the jar within its total limit; never evicts the cookie with the identity of `kept`.
    mutating func enforceTotalLimit(keeping kept: Cookie?, now: CookieTime) {
        if count > limits.maxCookies {
            _ = removeAll(cause: .expired) { $0.isExpired(at: now) }
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
            candidates.sort { ($0.secure ? 1 : 0, $0.lastAccess) < ($1.secure ? 1 : 0, $1.lastAccess) }
            let recordsChanges = self.recordsChanges
            var doomed: [String: Set<Int>] = [:]
            for victim in candidates.prefix(count - target) { doomed[victim.key, default: []].insert(victim.index) }
            for (siteKey, indices) in doomed {
                let evicted = withSite(siteKey) { $0.remove(at: indices, returningThem: recordsChanges) }
                recordRemovals(evicted, cause: .evicted)
            }
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
