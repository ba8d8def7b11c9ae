extension CookieStore {
    /// Keeps the site and the jar within `limits` after `kept` was stored, in rfc6265bis-22 §5.7's
    /// priority order for removing excess cookies: expired cookies first; then, of a site over its limit
    /// (a "domain" of too many cookies, here a site), its non-Secure cookies before its Secure ones; then,
    /// of a jar over its limit, any cookie; each time the least recently accessed first, the oldest first
    /// among those last accessed at one time (`EvictionRank`), until the site (or the jar) is its purge
    /// count below its limit. The cookie just stored is never the one evicted. A site's limit holds for each
    /// of its partitions (CHIPS) apart: the cookies of the site itself, and those it set in each top-level
    /// site that embeds it, as Chromium keeps a budget per partition, so that partitioned cookies, which
    /// any number of embedding sites can make, never evict the site's own.
    mutating func enforceLimits(site key: String, keeping kept: Cookie, now: CookieTime) {
        enforceSiteLimit(key, keeping: CollectionOfOne(kept), now: now)
        if count > limits.maxCookies { enforceTotalLimit(keeping: CollectionOfOne(kept), now: now) }
    }

    /// Keeps each partition of the site `key` within the site's limit; never evicts a cookie with the
    /// identity of one of `kept`.
    mutating func enforceSiteLimit(_ key: String, keeping kept: some Collection<Cookie>, now: CookieTime) {
        let limit = limits.maxCookiesPerSite
        if let slot = slot(ofSiteKey: key), !sites[slot].partitions(holdingMoreThan: limit).isEmpty {
            let target = limit - limits.sitePurgeCount
            purgeExpired(inSite: key, now: now)
            let recordsChanges = self.recordsChanges
            let (evicted, count): ([Cookie], Int) = withSite(key) { site in
                var victims: [Int] = []
                for partition in site.partitions(holdingMoreThan: limit) {
                    victims += CookieStore.firstInSiteEvictionOrder(
                        site.cookieCount(inPartition: partition) - target, of: site, inPartition: partition, keeping: kept)
                }
                guard !victims.isEmpty else { return ([], 0) }
                return (site.removeCookies(at: victims, returningThem: recordsChanges), victims.count)
            }
            recordRemovals(evicted, cause: .evicted)
            noteEvictions(count, by: .perSite, from: key)
        }
    }

    /// Brings a jar over its total limit back within it; never evicts a cookie with the identity of one
    /// of `kept`. Callers check the limit first.
    ///
    /// What it visits is in proportion to what it removes: the sites that may hold expired cookies
    /// (`expiryOrder`), then the sites in `evictionOrder` until the victims are chosen, each site's
    /// cookies ranked once. A site's place in `evictionOrder` is a lower bound of its first cookie's rank
    /// (accesses only raise ranks); a site found to rank later than its place goes back further.
    mutating func enforceTotalLimit(keeping kept: some Collection<Cookie>, now: CookieTime) {
        for key in keysOfSitesWithExpiredCookies(at: now) { purgeExpired(inSite: key, now: now) }
        guard count > limits.maxCookies else { return }
        var needed = count - (limits.maxCookies - limits.purgeCount)
        // The cookies to keep by the slot of their site (no site comes or goes until the victims are
        // chosen): a visited site looks its own up by slot, not by its key's hash.
        let keptBySlot = Dictionary(grouping: kept) { siteKeyAndSlot(ofCookieDomain: $0.domain).slot ?? -1 }
        // The sites chosen from (no site comes or goes until the victims are chosen), by slot: their
        // cookies in eviction order (the kept ones left out) are a range of `ranked`, of which the first
        // `chosen` are chosen. One array for all sites' cookies: no allocation per site.
        var ranked: [(rank: EvictionRank, index: Int)] = []
        var visitedSites: [(slot: Int, ranked: Range<Int>, chosen: Int)] = []
        // Which sites were visited: `siteVisits[slot]` is the site's place in `visitedSites` plus one.
        if siteVisits.count < sites.count { siteVisits += repeatElement(0, count: sites.count - siteVisits.count) }
        // Least recently accessed first, then oldest first (`EvictionRank`), Secure or not (§5.7: the
        // sites are within their limits, so every cookie is of the last priority, "all cookies"); cookies
        // of equal ranks in the order of site keys (the heap's), then send order (each site's range's).
        while needed > 0, let (bound, slot) = evictionOrder.first {
            let visitedSite: Int
            if siteVisits[slot] > 0 {
                visitedSite = Int(siteVisits[slot]) - 1
            } else {
                visitedSite = visitedSites.count
                siteVisits[slot] = Int32(truncatingIfNeeded: visitedSite + 1)
                let start = ranked.count
                let keptIndices = keptBySlot[slot]?.compactMap { sites[slot].indexOfCookie(withIdentityOf: $0) } ?? []
                CookieStore.appendEvictionCandidates(sites[slot].evictionRanks, excluding: keptIndices, to: &ranked)
                if ranked.count - start > 1 {
                    ranked.withUnsafeMutableBufferPointer { ranked in
                        ranked[start...].sort { ($0.rank, $0.index) < ($1.rank, $1.index) }
                    }
                }
                visitedSites.append((slot, start..<ranked.count, 0))
            }
            let next = visitedSites[visitedSite].ranked.lowerBound + visitedSites[visitedSite].chosen
            if next == visitedSites[visitedSite].ranked.upperBound {
                sites.withUnsafeBufferPointer { sites in evictionOrder.remove(slot: slot) { sites[$0].key } }
            } else if bound < ranked[next].rank {
                let rank = ranked[next].rank
                sites.withUnsafeBufferPointer { sites in evictionOrder.set(rank, forSlot: slot) { sites[$0].key } }
            } else {
                visitedSites[visitedSite].chosen += 1
                needed -= 1
            }
        }
        for site in visitedSites { siteVisits[site.slot] = 0 }
        // Each visited site loses its chosen cookies, if any, and goes back to its exact place in
        // `evictionOrder` (`placeInOrders`), or goes when it loses them all (its slot is vacated; no
        // other site moves).
        let recordsChanges = self.recordsChanges
        let recordsEvictions = recordsChanges || evictions != nil
        var removals: [(key: String, evicted: [Cookie], count: Int)] = []
        for site in visitedSites {
            let key = recordsEvictions ? sites[site.slot].key : ""
            let evicted: [Cookie]
            if site.chosen == withSites({ $0[site.slot].count }) {
                evicted = removeSite(at: site.slot, returningItsCookies: recordsChanges)
            } else {
                let victims = ranked[site.ranked.prefix(site.chosen)].lazy.map(\.index)
                // The choice above moved the site in `evictionOrder` or took it out: it is placed anew.
                evicted = withSite(at: site.slot, placedAnew: true) { site in
                    let evicted = site.removeCookies(at: victims, returningThem: recordsChanges)
                    site.recomputeEvictionFloor()
                    return evicted
                }
            }
            if recordsEvictions { removals.append((key, evicted, site.chosen)) }
        }
        // Changes and evictions are told in the order of site keys.
        for (key, evicted, count) in removals.sorted(by: { $0.key < $1.key }) {
            recordRemovals(evicted, cause: .evicted)
            noteEvictions(count, by: .total, from: key)
        }
    }

    /// Counts `count` cookies of `site` evicted by `limit`, when evictions are counted.
    private mutating func noteEvictions(_ count: Int, by limit: CookieEviction.Limit, from site: String) {
        if count > 0, evictions != nil { evictions?.append(CookieEviction(limit: limit, site: site, count: count)) }
    }

    /// Appends to `candidates` each cookie of a site whose ranks in eviction order are `ranks` (in send
    /// order), as its rank and index, leaving out the cookies at `excluded`.
    private static func appendEvictionCandidates(
        _ ranks: some Collection<EvictionRank>, excluding excluded: [Int], to candidates: inout [(rank: EvictionRank, index: Int)]
    ) {
        for (index, rank) in ranks.enumerated() where !excluded.contains(index) { candidates.append((rank, index)) }
    }

    /// The indices of the first `count` cookies of `site` in `partition` (`SiteCookies.cookieCount(inPartition:)`)
    /// in the order a site over its limit evicts them (§5.7: non-Secure before Secure, then least recently
    /// accessed first, then oldest first, then send order), leaving out the cookies with the identities of
    /// `kept`; in no particular order, as removal needs none. Found by selection (quickselect), not by
    /// sorting the site.
    private static func firstInSiteEvictionOrder(
        _ count: Int, of site: SiteCookies, inPartition partition: UInt32, keeping kept: some Collection<Cookie>
    ) -> [Int] {
        // Keys worked out once per cookie; all distinct (the index is in each).
        var keys: [(rank: SiteEvictionRank, index: Int)] = []
        keys.reserveCapacity(site.count)
        let excluded = kept.compactMap(site.indexOfCookie(withIdentityOf:))
        for (index, entry) in site.entries.enumerated() where entry.partition == partition && !excluded.contains(index) {
            keys.append((SiteEvictionRank(isSecure: entry.isSecure, rank: entry.evictionRank), index))
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

    /// A cookie's place in a site's eviction order: non-Secure before Secure, then `EvictionRank`.
    private struct SiteEvictionRank: Comparable {
        let isSecure: Bool
        let rank: EvictionRank

        static func < (lhs: SiteEvictionRank, rhs: SiteEvictionRank) -> Bool {
            lhs.isSecure != rhs.isSecure ? rhs.isSecure : lhs.rank < rhs.rank
        }
    }
}
