/// The cookie store of rfc6265bis-22 §5.7, indexed by site: each cookie lives under the registrable
/// domain of its domain (or the host itself when it has none), which is also the site key of every
/// request host it can be sent to. Not thread-safe: `CookieJar` guards it with a lock.
struct CookieStore: Sendable, CookieStoreQueries {
    let publicSuffixList: any PublicSuffixList
    let limits: CookieLimits
    /// The sites holding cookies, in no particular order, and vacant slots (`SiteCookies.isVacant`): a
    /// site keeps its slot until it is removed, and its slot then goes to the next new site
    /// (`vacantSlots`), unless the vacant slots grow many and are given back (`releaseVacantSlotsIfMany`).
    /// A site's slot is in `siteSlots`.
    private(set) var sites: [SiteCookies] = []
    /// The vacant slots of `sites`, the latest vacated last.
    private var vacantSlots: [Int] = []
    /// Site key → position in `sites`.
    private var siteSlots = SiteSlots()
    private(set) var count = 0
    /// The sites by the earliest expiry of their cookies (`SiteCookies.earliestExpiry`): which sites a
    /// jar-wide purge of expired cookies visits (as a set, in key order: ties stay as they fall).
    private var expiryOrder = SiteHeap<CookieTime>(ordersTiesByKey: false)
    /// The sites by the rank of their first cookie in eviction order (`SiteCookies.evictionFloor`): where
    /// the jar-wide limit's purge starts.
    var evictionOrder = SiteHeap<EvictionRank>(ordersTiesByKey: true)
    /// The creation time last given out: creation times strictly increase in processing order.
    private var lastCreation = CookieTime(microsecondsSinceEpoch: .min)
    /// Changes not yet handed to the jar's observers; recorded only while `recordsChanges` is true.
    var changes: [CookieChange] = []
    var recordsChanges = false
    /// The evictions the limits made, by site and limit, while not nil (`CookieJar.insert(contentsOf:)`).
    var evictions: [CookieEviction]?
    /// Host or cookie domain → its site key, and the slot of that site as of `siteLayout`; bounded,
    /// cleared when full.
    private var siteKeyCache = DomainTable<CachedSite>()
    /// Domain of two labels or more → how many site keys lie strictly below it (end in "." + the
    /// domain). Site keys are mostly registrable domains, whose proper suffixes are public suffixes shared
    /// by many sites; an IPv4 site key adds its own two ("2.3.4" and "3.4" for "1.2.3.4"). A domain whose
    /// count fell to 0 stays until the table, grown well past the sites, is counted again from them.
    private var siteKeysBelow = DomainTable<Int>()
    /// Label → how many site keys end in "." + it (the last label of every key with a dot), counted from
    /// the sites when asked, nil since a site came or went. Most site keys are a name and a one-label
    /// public suffix ("example.com"), so counting that label as sites come and go would be most of the
    /// counting's cost, while the question is asked only of a cookie whose domain is a one-label host
    /// ("localhost", or a public suffix such as "com" as a host).
    private var siteKeysBelowLabels: DomainTable<Int>?
    /// Counts the changes to which sites exist and where: a cached slot is current while no site was
    /// removed since, a cached absence of a site while none was added either (`SiteLayout.keeps`).
    private var siteLayout = SiteLayout()
    /// Which sites `enforceTotalLimit` visited, by slot (its scratch, all 0 between purges).
    var siteVisits: [Int32] = []
    /// Domain attribute → is a public suffix; bounded like `siteKeyCache`.
    private var publicSuffixCache = DomainTable<Bool>()
    private static let siteKeyCacheLimit = 16_384

    init(publicSuffixList: any PublicSuffixList, limits: CookieLimits) {
        self.publicSuffixList = publicSuffixList
        self.limits = limits.withinRange
    }

    // MARK: Sites

    /// The slot of the site whose key's UTF-8 is `key`, nil when it has no cookies.
    func slot(ofSiteKey key: UnsafeBufferPointer<UInt8>) -> Int? {
        CookieStore.slot(ofSiteKey: key, in: sites, siteSlots)
    }

    /// The slot of the site `key`, nil when it has no cookies.
    func slot(ofSiteKey key: String) -> Int? {
        // The closure takes the two arrays, not `self`: a closure capturing the store copies all of it.
        let (sites, siteSlots) = (self.sites, self.siteSlots)
        return key.withUTF8Bytes { CookieStore.slot(ofSiteKey: $0, in: sites, siteSlots) }
    }

    @inline(__always)
    private static func slot(ofSiteKey key: UnsafeBufferPointer<UInt8>, in sites: [SiteCookies], _ siteSlots: SiteSlots) -> Int? {
        sites.withUnsafeBufferPointer { sites in siteSlots.slot(ofKey: key) { sites[$0].key.hasUTF8(key) } }
    }

    /// The site key of a host: its registrable domain, or the host itself when it has none.
    mutating func siteKey(of host: CanonicalHost) -> String {
        host.withNameBytes { siteKeyAndSlot(ofCookieDomain: $0).key }
    }

    mutating func siteKeyLength(ofHost host: UnsafeBufferPointer<UInt8>) -> Int {
        siteKeyCache[cachedSiteIndex(ofCookieDomain: host)].key.utf8.count
    }

    /// The site key of a cookie's domain (a canonical host name, UTF-8) and the slot of that site, nil
    /// when the site has no cookies: one hash lookup while the cached slot holds (`SiteLayout.keeps`: no
    /// site removed since the domain was last seen, nor one added when it had no site). A host and a
    /// cookie domain of the same name are one entry of the cache, and have the same site.
    @inline(__always)
    mutating func siteKeyAndSlot(ofCookieDomain domain: UnsafeBufferPointer<UInt8>) -> (key: String, slot: Int?) {
        let index = cachedSiteIndex(ofCookieDomain: domain)
        return (siteKeyCache[index].key, siteKeyCache[index].slot)
    }

    /// The same for a cookie's domain given as a String (which the cache keeps as it is, when it is
    /// the site key).
    mutating func siteKeyAndSlot(ofCookieDomain domain: String) -> (key: String, slot: Int?) {
        let index = domain.withUTF8Bytes { cachedSiteIndex(ofCookieDomain: $0, named: domain) }
        return (siteKeyCache[index].key, siteKeyCache[index].slot)
    }

    /// The slot of the site of a URL's host, nil when the site has no cookies (its key is not copied).
    @inline(__always)
    mutating func siteSlot(of url: CookieURL) -> Int? {
        url.withHostAndPathBytes { host, _ in siteSlot(ofCookieDomain: host) }
    }

    /// The slot of the site of a cookie's domain (UTF-8), as `siteSlot(of:)` for a URL's host.
    @inline(__always)
    mutating func siteSlot(ofCookieDomain domain: UnsafeBufferPointer<UInt8>) -> Int? {
        siteKeyCache[cachedSiteIndex(ofCookieDomain: domain)].slot
    }

    /// `siteSlot(of:)` without changing the store, for a lookup that shares the jar's lock: throws when the
    /// cache must learn the URL's host or bring its slot up to date.
    func knownSiteSlot(of url: CookieURL) throws(StoreChangeNeeded) -> Int? {
        // The slot and layout are read, not the entry: a copy of it would retain its key.
        let cached: (slot: Int?, layout: SiteLayout)? = url.withHostAndPathBytes { host, _ in
            siteKeyCache.index(ofDomain: host).map { (siteKeyCache[$0].slot, siteKeyCache[$0].layout) }
        }
        guard let cached, siteLayout.keeps(cached.slot, cachedAt: cached.layout) else { throw StoreChangeNeeded() }
        return cached.slot
    }

    /// `siteKey(of:)` without changing the store: throws when the cache must learn the host.
    func knownSiteKey(of host: CanonicalHost) throws(StoreChangeNeeded) -> String {
        guard let key = host.withNameBytes({ siteKeyCache.index(ofDomain: $0).map { siteKeyCache[$0].key } }) else {
            throw StoreChangeNeeded()
        }
        return key
    }

    /// The position in `siteKeyCache` of the site key and slot of `domain` (UTF-8; `name`, when given, is
    /// its String, kept as the key of a new site that is the whole domain), added when missing and brought
    /// up to date when its cached slot no longer holds (`SiteLayout.keeps`).
    @inline(__always)
    private mutating func cachedSiteIndex(ofCookieDomain domain: UnsafeBufferPointer<UInt8>, named name: String? = nil) -> Int {
        if let index = siteKeyCache.index(ofDomain: domain) {
            if !siteLayout.keeps(siteKeyCache[index].slot, cachedAt: siteKeyCache[index].layout) {
                // The key is read out first: looking it up while it is read in place would copy the store.
                let key = siteKeyCache[index].key
                siteKeyCache[index].slot = slot(ofSiteKey: key)
                siteKeyCache[index].layout = siteLayout
            }
            return index
        }
        // The site key is the domain's registrable domain, or the domain itself: a suffix of its bytes.
        let keyStart = publicSuffixList.registrableDomainStart(ofCanonicalDomain: domain) ?? 0
        let keyBytes = UnsafeBufferPointer(rebasing: domain[keyStart...])
        let key: String
        let slot: Int?
        if keyBytes.isASCII {
            // A canonical domain is ASCII: its site is found by the bytes, and the key of an existing site
            // is its site's String (the cache then holds no copy).
            slot = self.slot(ofSiteKey: keyBytes)
            key = slot.map { sites[$0].key } ?? (keyStart == 0 ? name : nil) ?? String(wellFormedUTF8: keyBytes, isASCII: true)
        } else {
            // Bytes of a foreign jar file: the key is what a String makes of them.
            key = String(decoding: keyBytes, as: UTF8.self)
            slot = self.slot(ofSiteKey: key)
        }
        if siteKeyCache.count >= CookieStore.siteKeyCacheLimit { siteKeyCache.removeAll() }
        siteKeyCache.add(domain, value: CachedSite(key: key, slot: slot, layout: siteLayout))
        return siteKeyCache.count - 1
    }

    /// A site key in `siteKeyCache`, with the slot its site had at layout `layout`.
    private struct CachedSite: Sendable {
        let key: String
        var slot: Int?
        var layout: SiteLayout
    }

    /// How many sites were removed and added so far. A removal vacates a slot, which a later addition may
    /// give to another site; sites move only when the vacant slots are given back, which counts as a
    /// removal (`releaseVacantSlotsIfMany`).
    private struct SiteLayout: Sendable {
        var removals = 0
        var additions = 0

        /// Whether `slot`, cached at `cachedLayout` (nil: the site did not exist then), still holds in this
        /// layout: a site's slot while no site was removed since, a site's absence while none was added
        /// either. (The slot of a site added since is learnt where it is added, `slotCreatingSite`.)
        @inline(__always)
        func keeps(_ slot: Int?, cachedAt cachedLayout: SiteLayout) -> Bool {
            removals == cachedLayout.removals && (slot != nil || additions == cachedLayout.additions)
        }
    }

    /// Whether a Domain attribute (UTF-8, ASCII) names a public suffix (§5.7 step 9), through a bounded
    /// cache: the same few Domain attributes arrive again and again. IP literals never reach the list
    /// (and are no public suffix).
    mutating func isPublicSuffix(domainAttribute domain: UnsafeBufferPointer<UInt8>) -> Bool {
        if let cached = publicSuffixCache.value(ofDomain: domain) { return cached }
        let answer = publicSuffixList.isPublicSuffix(canonicalDomain: domain)
        if publicSuffixCache.count >= CookieStore.siteKeyCacheLimit { publicSuffixCache.removeAll() }
        publicSuffixCache.add(domain, value: answer)
        return answer
    }

    /// The site key of a cookie's domain.
    mutating func siteKey(ofCookieDomain domain: String) -> String {
        siteKeyAndSlot(ofCookieDomain: domain).key
    }

    /// A creation time for a cookie created at `now`: strictly after every earlier one
    /// (`noteCreation(_:)` takes it when it is used).
    func creationTime(at now: CookieTime) -> CookieTime {
        max(now, CookieTime(microsecondsSinceEpoch: lastCreation.microsecondsSinceEpoch &+ 1))
    }

    /// Records that a cookie was created at `creation`.
    mutating func noteCreation(_ creation: CookieTime) {
        if creation > lastCreation { lastCreation = creation }
    }

    // MARK: Contents

    @inline(__always)
    mutating func record(_ change: @autoclosure () -> CookieChange) {
        if recordsChanges { changes.append(change()) }
    }

    @inline(__always)
    mutating func recordRemovals(_ cookies: [Cookie], cause: CookieChange.RemovalCause) {
        if recordsChanges { changes += cookies.map { .removed($0, cause: cause) } }
    }

    /// Purges the expired cookies of the site `key`.
    mutating func purgeExpired(inSite key: String, now: CookieTime) {
        let recordsChanges = self.recordsChanges
        let removed = withSite(key) { $0.purgeExpired(at: now, returningThem: recordsChanges) }
        recordRemovals(removed, cause: .expired)
    }

    /// Applies `body` to the cookies of the site `key` (created on demand, dropped when left empty).
    mutating func withSite<R>(_ key: String, _ body: (inout SiteCookies) -> R) -> R {
        withSite(at: slot(ofSiteKey: key) ?? addSite(key), body)
    }

    /// The position of the site of a cookie's domain (UTF-8) in `sites`, created empty when it has no
    /// cookies yet: the site cache's entry for the domain knows whether it exists, and learns its slot.
    mutating func slotCreatingSite(ofCookieDomain domain: UnsafeBufferPointer<UInt8>) -> Int {
        let index = cachedSiteIndex(ofCookieDomain: domain)
        if let slot = siteKeyCache[index].slot { return slot }
        let slot = addSite(siteKeyCache[index].key)
        siteKeyCache[index].slot = slot
        siteKeyCache[index].layout = siteLayout
        return slot
    }

    /// Adds the site `key`, which has no cookies, empty, in the latest vacated slot (the site there is
    /// reused in place, not moved), else in a new one; returns its slot.
    private mutating func addSite(_ key: String) -> Int {
        let slot: Int
        if let vacant = vacantSlots.popLast() {
            sites[vacant].reuse(as: key)
            slot = vacant
        } else {
            sites.append(SiteCookies(key: key))
            slot = sites.count - 1
        }
        key.withUTF8Bytes { siteSlots.add(key: $0, at: slot) }
        siteLayout.additions &+= 1
        countSiteKey(key, as: 1)
        return slot
    }

    /// The sites holding cookies (the vacant slots left out), in no particular order.
    var occupiedSites: LazyFilterSequence<[SiteCookies]> { sites.lazy.filter { !$0.isVacant } }

    /// True when some site's key ends in "." + `domain`.
    mutating func hasSites(below domain: String) -> Bool {
        guard !domain.utf8.contains(UInt8(ascii: ".")) else {
            return siteKeysBelow.value(ofDomain: domain).map { $0 > 0 } ?? false
        }
        if siteKeysBelowLabels == nil { siteKeysBelowLabels = CookieStore.countLastLabels(of: sites) }
        return siteKeysBelowLabels?.value(ofDomain: domain).map { $0 > 0 } ?? false
    }

    /// Label → how many of the keys of `sites` end in "." + it.
    private static func countLastLabels(of sites: [SiteCookies]) -> DomainTable<Int> {
        var counts = DomainTable<Int>()
        for site in sites where !site.isVacant {
            site.key.withUTF8Bytes { key in
                guard let dot = key.lastIndex(of: UInt8(ascii: ".")), dot + 1 < key.count else { return }
                let label = UnsafeBufferPointer(rebasing: key[(dot + 1)...])
                counts.add(1, toCountOf: label)
            }
        }
        return counts
    }

    /// Adds `delta` to the count of site keys below each domain above `key`: 1 for a site just added to
    /// `sites`, -1 for one just gone from it. Once the table holds twice as many domains as there are sites,
    /// and a thousand more, it is counted again from `sites` instead: domains whose sites went stay no
    /// longer than that.
    private mutating func countSiteKey(_ key: String, as delta: Int) {
        siteKeysBelowLabels = nil
        guard siteKeysBelow.count > 2 * siteSlots.count + 1024 else { return countDomains(above: key, as: delta) }
        siteKeysBelow.removeAll()
        for site in sites where !site.isVacant { countDomains(above: site.key, as: 1) }
    }

    /// Counts `key` as `delta` more below each domain of two labels or more above it.
    private mutating func countDomains(above key: String, as delta: Int) {
        CookieStore.anyDomain(above: key) { domain in
            // Domains come nearest first: one without a dot is the last label, counted only when asked.
            guard domain.contains(UInt8(ascii: ".")) else { return true }
            siteKeysBelow.add(delta, toCountOf: domain)
            return false
        }
    }

    /// Calls `body` with the UTF-8 of each domain `key` ends in after one of its dots, nearest first
    /// ("b.c", then "c" for "a.b.c"), until it returns true; returns whether it did.
    @discardableResult @inline(__always)
    static func anyDomain(above key: String, where body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        key.withUTF8Bytes { key in
            var dot = 0
            while dot + 1 < key.count {
                if key[dot] == UInt8(ascii: "."), body(UnsafeBufferPointer(rebasing: key[(dot + 1)...])) { return true }
                dot += 1
            }
            return false
        }
    }

    /// Applies `body` to the cookies of the site at `slot`, which is dropped when left empty; the site's
    /// place in `expiryOrder` and `evictionOrder` follows its bounds. `placedAnew`: the site is placed by
    /// its bounds whether or not they changed, for a caller that moved it in the orders itself.
    mutating func withSite<R>(at slot: Int, placedAnew: Bool = false, _ body: (inout SiteCookies) -> R) -> R {
        let before = sites[slot].count
        // A site without cookies is in neither order yet.
        let boundsBefore = before == 0 || placedAnew ? nil : orderBounds(ofSiteAt: slot)
        let result = body(&sites[slot])
        let after = sites[slot].count
        count += after - before
        if after == 0 {
            removeSite(at: slot)
        } else {
            keepInOrders(siteAt: slot, boundsBefore: boundsBefore)
        }
        return result
    }

    /// The bounds of the site at `slot` that place it in `expiryOrder` and `evictionOrder`.
    @inline(__always)
    func orderBounds(ofSiteAt slot: Int) -> (expiry: CookieTime, floor: EvictionRank) {
        sites.withUnsafeBufferPointer { ($0[slot].earliestExpiry, $0[slot].evictionFloor) }
    }

    /// Keeps the site at `slot`, placed in both orders at `boundsBefore` (nil: in neither yet), at its
    /// place by its bounds: it moves only when a bound changed, which most changes do not (a cookie that
    /// expires or was accessed after the site's first; a lookup, whose touch lowers the eviction floor
    /// only when the clock went back), and the orders' memory is then left unread.
    @inline(__always)
    mutating func keepInOrders(siteAt slot: Int, boundsBefore: (expiry: CookieTime, floor: EvictionRank)?) {
        if let boundsBefore, orderBounds(ofSiteAt: slot) == boundsBefore { return }
        placeInOrders(siteAt: slot)
    }

    /// Gives the site at `slot` its place in `expiryOrder` and `evictionOrder` by its bounds.
    @inline(__always)
    mutating func placeInOrders(siteAt slot: Int) {
        sites.withUnsafeBufferPointer { sites in
            expiryOrder.set(sites[slot].earliestExpiry, forSlot: slot) { sites[$0].key }
            evictionOrder.set(sites[slot].evictionFloor, forSlot: slot) { sites[$0].key }
        }
    }

    /// Appends a cookie read from a file to the site at `slot` (`Loader`), without placing the site in
    /// `expiryOrder` and `evictionOrder`: `finishLoading()` places each site once, after its last cookie,
    /// where placing it at every cookie would visit the heaps' memory once a cookie.
    mutating func appendLoaded(_ cookie: LoadedCookie, isASCIIPair: Bool, toSiteAt slot: Int) {
        sites[slot].append(cookie, isASCIIPair: isASCIIPair)
        count += 1
    }

    /// Places every site in `expiryOrder` and `evictionOrder` by its bounds (after `appendLoaded`).
    mutating func placeSitesInOrder() {
        for slot in sites.indices where !sites[slot].isVacant { placeInOrders(siteAt: slot) }
    }

    /// Removes the site at `slot` with its cookies, which it returns when `returningItsCookies`; the slot
    /// becomes vacant.
    mutating func removeSite(at slot: Int, returningItsCookies: Bool) -> [Cookie] {
        var removed: [Cookie] = []
        if returningItsCookies { removed = sites[slot].cookies }
        count -= withSites { $0[slot].count }
        removeSite(at: slot)
        return removed
    }

    /// Drops the site at `slot` (empty, or its cookies counted out): the slot becomes vacant, and no
    /// other site moves. The first `limits.purgeCount` vacant slots keep a small site's arrays for the
    /// next new site.
    private mutating func removeSite(at slot: Int) {
        siteSlots.remove(slot: slot)
        sites.withUnsafeBufferPointer { sites in
            expiryOrder.remove(slot: slot) { sites[$0].key }
            evictionOrder.remove(slot: slot) { sites[$0].key }
        }
        siteLayout.removals &+= 1
        let key = sites[slot].key
        let keepsArrays = vacantSlots.count < limits.purgeCount && sites[slot].isSmall
        sites[slot].vacate(keepingCapacity: keepsArrays)
        vacantSlots.append(slot)
        countSiteKey(key, as: -1)
    }

    /// Gives the vacant slots back once they are more than half of the slots and more than
    /// `limits.purgeCount` (what one purge of the jar-wide limit may vacate, for the sites that come next
    /// to take): a jar cut from many sites to few (a crawl's sites gone, the cookies of a signed-out user
    /// deleted) would otherwise keep an entry for every site it ever held at once, and every walk over the
    /// sites would visit them. The sites move to the first slots, in their order, and every cached slot is
    /// looked up again. For the end of an operation (`CookieJar`), when no caller holds a slot; it then
    /// costs a comparison, or a visit to every slot after at least half as many removals.
    @inline(__always)
    mutating func releaseVacantSlotsIfMany() {
        if hasManyVacantSlots { releaseVacantSlots() }
    }

    /// Whether the vacant slots are more than half of the slots and more than `limits.purgeCount`.
    private var hasManyVacantSlots: Bool {
        vacantSlots.count > limits.purgeCount && 2 * vacantSlots.count > sites.count
    }

    /// Gives the vacant slots back (`releaseVacantSlotsIfMany`).
    @inline(never)
    private mutating func releaseVacantSlots() {
        var newSlots = [Int32](repeating: -1, count: sites.count)
        var occupied: [SiteCookies] = []
        occupied.reserveCapacity(sites.count - vacantSlots.count)
        for slot in sites.indices where !sites[slot].isVacant {
            newSlots[slot] = Int32(truncatingIfNeeded: occupied.count)
            occupied.append(sites[slot])
        }
        sites = occupied
        vacantSlots = []
        siteVisits = []
        siteSlots.renumber(newSlots)
        expiryOrder.renumber(newSlots)
        evictionOrder.renumber(newSlots)
        // To the site cache, a removal: the slots it holds are looked up again (`SiteLayout.keeps`).
        siteLayout.removals &+= 1
    }

    /// The keys of the sites some of whose cookies may have expired at `now`, in order.
    func keysOfSitesWithExpiredCookies(at now: CookieTime) -> [String] {
        expiryOrder.slots(boundedBy: now).map { sites[$0].key }.sorted()
    }

    /// Calls `body` with the sites in place, for changes that leave every site's count as it is.
    @inline(__always)
    mutating func withSites<R>(_ body: (UnsafeMutableBufferPointer<SiteCookies>) -> R) -> R {
        sites.withUnsafeMutableBufferPointer { body($0) }
    }

    /// The sites in the order of their keys.
    var sitesByKey: [SiteCookies] { occupiedSites.sorted { $0.key < $1.key } }

    /// The site keys in order (the sites themselves are not copied).
    var siteKeysInOrder: [String] { occupiedSites.map(\.key).sorted() }

    /// Every cookie not expired at `now`, site by site in the order of their keys, each site in send order.
    func allCookies(at now: CookieTime) -> [Cookie] {
        var result: [Cookie] = []
        result.reserveCapacity(count)
        for site in sitesByKey {
            for cookie in site.cookies where !cookie.isExpired(at: now) { result.append(cookie) }
        }
        return result
    }

    /// `cookie` with its partition key in the form the store keeps (`partitionKey(canonicalising:)`), nil
    /// when the key names no site.
    private mutating func withPartitionKeyCanonicalised(_ cookie: Cookie) -> Cookie? {
        guard let key = cookie.partitionKey else { return cookie }
        guard let canonical = partitionKey(canonicalising: key) else { return nil }
        var cookie = cookie
        cookie.partitionKey = canonical
        return cookie
    }

    /// The unexpired cookie the store holds with the identity of `cookie` (its partition key read as
    /// `insert(_:now:)` stores it), if any.
    mutating func cookie(withIdentityOf cookie: Cookie, at now: CookieTime) -> Cookie? {
        guard let cookie = withPartitionKeyCanonicalised(cookie), let slot = siteKeyAndSlot(ofCookieDomain: cookie.domain).slot else { return nil }
        let held = sites.withUnsafeBufferPointer { sites in
            sites[slot].indexOfCookie(withIdentityOf: cookie).map { sites[slot].cookie(at: $0) }
        }
        return held.flatMap { $0.isExpired(at: now) ? nil : $0 }
    }

    /// Inserts a cookie handed over as it is (one imported, one of a web view's, one built by the app),
    /// replacing a cookie of the same identity. An expired cookie is not inserted: it deletes the cookie of
    /// its identity. A cookie that no `Set-Cookie` line could have given a jar is refused
    /// (`Cookie.insertionRejection`; unexpired, `Cookie.attributeRejection`), which leaves the jar as it
    /// was; a domain cookie whose domain is a public suffix is stored host-only, as §5.7 step 9 makes it
    /// for the host of that name that set it (a curl cookies.txt's `.localhost`), and a partition key is
    /// stored as the site the jar computes for a request (`partitionKey(canonicalising:)`), or refused when
    /// it names none. Limits are enforced.
    mutating func insert(_ cookie: Cookie, now: CookieTime) -> SetCookieOutcome {
        if let rejection = cookie.insertionRejection { return .rejected(rejection) }
        guard var cookie = withPartitionKeyCanonicalised(cookie) else { return .rejected(.invalidPartitionKey) }
        if !cookie.isExpired(at: now) {
            if let rejection = cookie.attributeRejection { return .rejected(rejection) }
            // The domain is canonical (`insertionRejection`); an IP address is no public suffix.
            if !cookie.isHostOnly, cookie.domain.withUTF8Bytes({ isPublicSuffix(domainAttribute: $0) }) {
                cookie.isHostOnly = true
            }
        }
        // A creation time past `now` (a clock ahead where the cookie was made) is not one later cookies
        // must come after: they would all be made in that future.
        noteCreation(min(cookie.creation, now))
        let (key, slot) = siteKeyAndSlot(ofCookieDomain: cookie.domain)
        // One visit to the site: the cookie of the same identity goes, the new one comes unless expired.
        if cookie.isExpired(at: now) {
            guard let slot else { return .expired }
            let previous = withSite(at: slot) { site in site.indexOfCookie(withIdentityOf: cookie).flatMap { site.removeCookie(at: $0, returningIt: true) } }
            guard let previous else { return .expired }
            record(.removed(previous, cause: .expired))
            return .deleted(previous: previous)
        }
        var previous = withSite(at: slot ?? addSite(key)) { site in
            let previous = site.indexOfCookie(withIdentityOf: cookie).flatMap { site.removeCookie(at: $0, returningIt: true) }
            site.insert(cookie)
            return previous
        }
        // An expired cookie of the same identity was gone already: removed as expired, and the new cookie
        // added, as a receipt reports it (`receive`), not a replacement.
        if let expired = previous, expired.isExpired(at: now) {
            record(.removed(expired, cause: .expired))
            previous = nil
        }
        if let previous { record(.replaced(old: previous, new: cookie)) } else { record(.added(cookie)) }
        enforceLimits(site: key, keeping: cookie, now: now)
        if let previous { return .replaced(cookie, previous: previous) }
        return .stored(cookie)
    }

    /// Removes the cookies for which `shouldRemove` is true, in every site; returns them.
    mutating func removeAll(cause: CookieChange.RemovalCause, where shouldRemove: (Cookie) -> Bool) -> [Cookie] {
        var removed: [Cookie] = []
        for key in siteKeysInOrder {
            removed += withSite(key) { $0.removeAll(where: shouldRemove) }
        }
        recordRemovals(removed, cause: cause)
        return removed
    }

    /// Removes the cookies of one site for which `shouldRemove` is true; returns them.
    mutating func removeAll(
        inSite key: String, cause: CookieChange.RemovalCause, where shouldRemove: (Cookie) -> Bool
    ) -> [Cookie] {
        guard slot(ofSiteKey: key) != nil else { return [] }
        let removed = withSite(key) { $0.removeAll(where: shouldRemove) }
        recordRemovals(removed, cause: cause)
        return removed
    }

    /// What breaks the store's bookkeeping, if anything (for tests and fuzzing): every site in its slot,
    /// none empty, each site's own structure sound, the count right.
    func structureViolation() -> String? {
        if let violation = siteSlots.violation(keys: sites.map { $0.isVacant ? nil : $0.key }) { return "the site slots: \(violation)" }
        guard Set(vacantSlots).count == vacantSlots.count, Set(vacantSlots) == Set(sites.indices.filter { sites[$0].isVacant }) else {
            return "the vacant slots are not those listed"
        }
        guard sites.count(where: { $0.isVacant && $0.holdsMemory }) <= limits.purgeCount else {
            return "more than \(limits.purgeCount) vacant slots keep memory"
        }
        guard !hasManyVacantSlots else {
            return "\(vacantSlots.count) of the \(sites.count) slots are vacant"
        }
        for site in sites where site.isVacant {
            guard site.count == 0, site.key.isEmpty else { return "a vacant slot holds a site" }
        }
        for site in occupiedSites {
            guard site.count > 0 else { return "site \(site.key) is empty" }
            if let violation = site.structureViolation() { return "site \(site.key): \(violation)" }
        }
        var keysBelow: [String: Int] = [:]
        var keysBelowLabels: [String: Int] = [:]
        for site in occupiedSites {
            CookieStore.anyDomain(above: site.key) { domain in
                let domain = String(decoding: domain, as: UTF8.self)
                if domain.utf8.contains(UInt8(ascii: ".")) {
                    keysBelow[domain, default: 0] += 1
                } else {
                    keysBelowLabels[domain, default: 0] += 1
                }
                return false
            }
        }
        guard keysBelow.allSatisfy({ siteKeysBelow.value(ofDomain: $0.key) == $0.value }),
            siteKeysBelow.values.reduce(0, +) == keysBelow.values.reduce(0, +)
        else { return "the site keys below domains are miscounted" }
        if let siteKeysBelowLabels {
            guard keysBelowLabels.allSatisfy({ siteKeysBelowLabels.value(ofDomain: $0.key) == $0.value }),
                siteKeysBelowLabels.values.reduce(0, +) == keysBelowLabels.values.reduce(0, +)
            else { return "the site keys below labels are miscounted" }
        }
        if let violation = expiryOrder.violation(sites: sites.map { $0.isVacant ? nil : ($0.key, $0.earliestExpiry) }) {
            return "the expiry order: \(violation)"
        }
        if let violation = evictionOrder.violation(sites: sites.map { $0.isVacant ? nil : ($0.key, $0.evictionFloor) }) {
            return "the eviction order: \(violation)"
        }
        return sites.reduce(0) { $0 + $1.count } == count ? nil : "the count is wrong"
    }
}
