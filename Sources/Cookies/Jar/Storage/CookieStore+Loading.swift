// Loading a jar file into the storage: rows arrive in any order and go straight into their sites' tables
// (no `Cookie` per row), each site sorted into send order and placed in the store's orders once at the end.

extension CookieStore {
    /// Fills an empty store with the cookies of a jar file as they are read, one at a time in any order:
    /// each goes straight into its site's tables (`SiteCookies.append(_:)`), and each site is sorted
    /// into send order and placed in the store's orders once after the last (`finishLoading()`). The
    /// cookies' identities must be distinct (a jar file's unique key); expired ones are skipped, and so
    /// is one no jar may hold (`LoadedCookie.rejection`), which is listed in `notLoaded`. Limits are
    /// enforced later, by the jar that takes the store (`enforceLimitsAfterLoading(keeping:now:)`), so that its
    /// persistence records the evictions as deletions and the jar reports them (`evictedAtLoading`).
    struct Loader {
        private let now: CookieTime
        /// The site slot of each cookie domain met so far, by the bytes the file gave.
        private var siteSlots = DomainTable<Int>()
        /// The unexpired cookies appended that no jar may hold, in the order met.
        private(set) var notLoaded: [CookieNotLoaded] = []

        init(filling store: CookieStore, now: CookieTime) {
            precondition(store.count == 0, "a Loader fills an empty store")
            self.now = now
        }

        mutating func append(_ cookie: LoadedCookie, to store: inout CookieStore) {
            guard !cookie.isExpired(at: now) else { return }
            let check = cookie.checkButDomain
            if let rejection = check.rejection {
                notLoaded.append(CookieNotLoaded(cookie, rejection: rejection))
                return
            }
            // A domain met before passed the check of its bytes.
            guard let slot = siteSlots.value(ofDomain: cookie.domain) ?? addSite(of: cookie, to: &store) else { return }
            store.noteCreation(min(cookie.creation, now))
            store.appendLoaded(cookie, isASCIIPair: check.isASCIIPair, toSiteAt: slot)
        }

        /// The slot of the site of the domain of `cookie`, met for the first time (the site is created when
        /// new); nil, and the cookie listed in `notLoaded`, when no cookie may have that domain.
        private mutating func addSite(of cookie: LoadedCookie, to store: inout CookieStore) -> Int? {
            if let rejection = CookieTextRules.hostRejection(cookie.domain) {
                notLoaded.append(CookieNotLoaded(cookie, rejection: rejection))
                return nil
            }
            let slot = store.slotCreatingSite(ofCookieDomain: cookie.domain)
            siteSlots.add(cookie.domain, value: slot)
            return slot
        }
    }

    /// Puts every site in send order (§5.8.3 step 2), and in the store's expiry and eviction orders,
    /// after a `Loader` appended the last cookie.
    mutating func finishLoading() {
        withSites { sites in
            for index in sites.indices { sites[index].restoreSendOrder() }
        }
        placeSitesInOrder()
    }

    /// Enforces the limits on a store just filled by a `Loader`: each site over its limit (in the order
    /// of their keys), then the jar, never evicting a cookie with the identity of one of `kept`. Only
    /// evictions are changes: the cookies came from the file.
    mutating func enforceLimitsAfterLoading(keeping kept: [Cookie], now: CookieTime) {
        let perSiteLimit = limits.maxCookiesPerSite
        for key in occupiedSites.filter({ $0.count > perSiteLimit }).map(\.key).sorted() {
            enforceSiteLimit(key, keeping: kept, now: now)
        }
        if count > limits.maxCookies { enforceTotalLimit(keeping: kept, now: now) }
    }
}
