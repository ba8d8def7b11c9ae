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
                return (site.removeCookies(at: victims, returningThem: recordsChanges), victims.count)
            }
            recordRemovals(evicted, cause: .evicted)
            noteEvictions(count, by: .perSite, from: key)
        }
    }

    /// Brings a jar over its total limit back within it; never evicts the cookie with the identity of
    /// `kept`. Callers check the limit first (so that no `Cookie?` is made for a jar within it).
    ///
    /// What it visits is in proportion to what it removes: the sites that may hold expired cookies
    /// (`expiryOrder`), then the sites in `evictionOrder` until the victims are chosen, each site's
    /// cookies ranked once. A site's place in `evictionOrder` is a lower bound of its first cookie's rank
    /// (accesses only raise ranks); a site found to rank later than its place goes back further.
    mutating func enforceTotalLimit(keeping kept: Cookie?, now: CookieTime) {
        for key in keysOfSitesWithExpiredCookies(at: now) { purgeExpired(inSite: key, now: now) }
        guard count > limits.maxCookies else { return }
        var needed = count - (limits.maxCookies - limits.purgeCount)
        let keptSite = kept.map { siteKey(ofCookieDomain: $0.domain) }
        // The sites chosen from, by slot (no site comes or goes until the victims are chosen): their
        // cookies in eviction order (the kept one left out), the first `chosen` of them chosen.
        var visited: [Int: (candidates: [(rank: EvictionRank, index: Int)], chosen: Int)] = [:]
        // Non-Secure before Secure, least recently accessed first; ties in the order of site keys (the
        // heap's), then send order (each site's candidates').
        while needed > 0, let first = evictionOrder.first {
            let slot = Int(first.slot)
            if visited[slot] == nil {
                let site = sites[slot]
                let keptIndex = site.key == keptSite ? kept.flatMap(site.indexOfCookie(withIdentityOf:)) : nil
                visited[slot] = (site.evictionCandidates(excluding: keptIndex).sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }, 0)
            }
            let (candidates, chosen) = visited[slot]!
            if chosen == candidates.count {
                evictionOrder.remove(slot: slot)
            } else if first.bound < candidates[chosen].rank {
                evictionOrder.set(candidates[chosen].rank, forSlot: slot, site: first.site)
            } else {
                visited[slot]!.chosen += 1
                needed -= 1
            }
        }
        // Each visited site loses its chosen cookies and goes back to its exact place in `evictionOrder`
        // (`withSite` puts it there), in the order of site keys.
        let recordsChanges = self.recordsChanges
        let victimsBySite = visited.map { slot, site in (key: sites[slot].key, victims: site.candidates.prefix(site.chosen).map(\.index)) }
        for (key, victims) in victimsBySite.sorted(by: { $0.key < $1.key }) {
            let evicted = withSite(key) { site in
                let evicted = site.removeCookies(at: victims, returningThem: recordsChanges)
                site.recomputeEvictionFloor()
                return evicted
            }
            recordRemovals(evicted, cause: .evicted)
            noteEvictions(victims.count, by: .total, from: key)
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
        // Keys worked out once per cookie; all distinct (the index is in each).
        var keys = site.evictionCandidates(excluding: kept.flatMap(site.indexOfCookie(withIdentityOf:)))
        guard count < keys.count else { return keys.map(\.index) }
        // Hoare partitioning around a middle key until the `count` smallest keys are the first `count`.
        var low = 0
        var high = keys.count - 1
        while low < high {
            let pivot = keys[(low + high) / 2]
            var left = low
            var right = high
            while left <= right {
                while (keys[left].rank, keys[left].index) < (pivot.rank, pivot.index) { left += 1 }
                while (pivot.rank, pivot.index) < (keys[right].rank, keys[right].index) { right -= 1 }
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
