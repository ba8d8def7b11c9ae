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
            let (evicted, count): ([Cookie], Int) = withSite(key) { site in
                guard site.count > limit else { return ([], 0) }
                let victims = CookieStore.firstInEvictionOrder(site.count - target, of: site, keeping: kept)
                return (site.remove(at: victims, returningThem: recordsChanges), victims.count)
            }
            recordRemovals(evicted, cause: .evicted)
            noteEvictions(count, by: .perSite, from: key)
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
            noteEvictions(indices.count, by: .total, from: siteKey)
        }
    }

    /// Counts `count` cookies of `site` evicted by `limit`, when evictions are counted.
    private mutating func noteEvictions(_ count: Int, by limit: CookieEviction.Limit, from site: String) {
        if count > 0, evictions != nil { evictions?.append(CookieEviction(limit: limit, site: site, count: count)) }
    }

    /// The indices of the first `count` cookies of `site` in eviction order (non-Secure before Secure,
    /// least recently accessed first, then send order), leaving out the cookie with the identity of
    /// `kept`; in no particular order, as removal needs none. Found by selection (quickselect), not by
    /// sorting the site.
    private static func firstInEvictionOrder(_ count: Int, of site: SiteCookies, keeping kept: Cookie?) -> [Int] {
        let keptIndex = kept.flatMap(site.indexOfCookie(withIdentityOf:))
        // Keys worked out once per cookie, compared as plain integers; all distinct (the index is in each).
        var keys = site.entries.indices.compactMap { index -> (secure: Int, lastAccess: Int64, index: Int)? in
            guard index != keptIndex else { return nil }
            let entry = site.entries[index]
            return (entry.isSecure ? 1 : 0, entry.lastAccess.microsecondsSinceEpoch, index)
        }
        guard count < keys.count else { return keys.map(\.index) }
        // Hoare partitioning around a middle key until the `count` smallest keys are the first `count`.
        var low = 0
        var high = keys.count - 1
        while low < high {
            let pivot = keys[(low + high) / 2]
            var left = low
            var right = high
            while left <= right {
                while keys[left] < pivot { left += 1 }
                while pivot < keys[right] { right -= 1 }
                if left <= right {
                    keys.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
            if count - 1 <= right {
                high = right
            } else if count - 1 >= left {
                low = left
            } else {
                break
            }
        }
        return keys[..<count].map(\.index)
    }
}
