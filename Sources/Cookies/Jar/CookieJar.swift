/// An HTTP cookie jar implementing rfc6265bis-22: it parses `Set-Cookie` lines, stores the cookies that
/// pass every check (public suffixes, Secure, prefixes, SameSite, limits) and answers which cookies go on
/// a request.
///
/// One jar is safely shared by many threads: every call takes a lock around a store indexed by site
/// (registrable domain), which lookups that change nothing share on Linux (`CookieLock`; elsewhere a
/// `Mutex`, held alone). Time comes from the
/// injected `clock`.
///
/// Observers of its changes (`addObserver(_:)`) are called on the threads of the calls that change it: a
/// call delivers the changes queued, other threads' included, before it returns, unless another thread is
/// delivering them. An observer must be quick (see `addObserver(_:)`).
public final class CookieJar: Sendable {
    private let store: CookieLock<CookieStore>
    private let dispatcher = ChangeDispatcher()
    /// Where the jar reads the current time.
    public let clock: any CookieClock
    /// The store the jar is kept in and the changes it has not written yet, if it was opened on one
    /// (`init(contentsOf:)`, `init(loading:into:options:…)`).
    let persistence: CookieJarPersistence?

    /// A jar using `publicSuffixList` (default: the newest list available, `SystemPublicSuffixList`), `limits`
    /// and `clock`.
    public convenience init(
        publicSuffixList: any PublicSuffixList = SystemPublicSuffixList.shared, limits: CookieLimits = .default,
        clock: any CookieClock = SystemCookieClock()
    ) {
        self.init(store: CookieStore(publicSuffixList: publicSuffixList, limits: limits), clock: clock, persistence: nil)
    }

    init(store: CookieStore, clock: any CookieClock, persistence: CookieJarPersistence?) {
        self.store = CookieLock(store)
        self.clock = clock
        self.persistence = persistence
    }

    /// Runs `body` on the store under the lock, then delivers the changes it made to the observers (the
    /// store records changes only while someone observes them). `now` is the time the call read from the
    /// clock before taking the lock (nil for a call that reads none): the recorder is given it, and never
    /// calls the clock with the lock held. A receipt or insertion (`afterWaiters`), which a thread may make
    /// one after another, lets the threads waiting for the jar have it first.
    @inline(__always)
    private func withStore<R>(at now: CookieTime? = nil, afterWaiters: Bool = false, _ body: (inout CookieStore) -> R) -> R {
        // The dispatcher is a constant of this jar, alive while this call is: the closure borrows it, where
        // capturing `self` for it retained and released the jar on every call (about 95 instructions a
        // receipt, callgrind).
        unowned(unsafe) let dispatcher = dispatcher
        let (result, observed) = store.withLock(afterWaiters: afterWaiters) { store in
            // Read under the lock: an observer added before this call took the lock hears of its changes
            // (read before, a call that waited for the lock while `addObserver` returned recorded none).
            let observed = dispatcher.isObserved.load(ordering: .acquiring)
            store.recordsChanges = observed
            let result = body(&store)
            store.releaseVacantSlotsIfMany()
            if !store.changes.isEmpty {
                dispatcher.enqueue(store.changes, at: now)
                store.changes.removeAll(keepingCapacity: true)
            }
            return (result, observed)
        }
        if observed {
            dispatcher.drain()
            persistence?.scheduleFlushIfWanted(for: self)
        }
        return result
    }

    /// Runs `shared` on the store with the lock shared with other lookups; when it would change the store
    /// (`StoreChangeNeeded`), runs `exclusive` instead, with the lock held alone (`withStore`).
    @inline(__always)
    private func withStore<R: Sendable>(
        at now: CookieTime, sharing shared: (borrowing CookieStore) throws(StoreChangeNeeded) -> R,
        else exclusive: (inout CookieStore) -> R
    ) -> R {
        withSharedStore(shared) ?? withStore(at: now, exclusive)
    }

    /// Runs `shared` on the store with the lock shared with other lookups; nil when it would change the
    /// store (`StoreChangeNeeded`).
    @inline(__always)
    private func withSharedStore<R: Sendable>(_ shared: (borrowing CookieStore) throws(StoreChangeNeeded) -> R) -> R? {
        do {
            return try store.withSharedLock(shared)
        } catch {
            return nil
        }
    }

    // MARK: Observing changes

    /// Calls `observer` with every change to the jar's contents from now on, in the order the changes
    /// were made, one at a time (see `changes` for the guarantees): none made before this returns, even
    /// one that another thread delivers after. Returns a token for `removeObserver(_:)`.
    ///
    /// Who calls it: a call that changes the jar delivers the changes queued, other threads' included, to
    /// the observers before it returns, unless another thread is delivering them; then it returns at once,
    /// and that thread delivers its changes too, shortly after. A slow observer therefore holds whichever
    /// caller is delivering, for as long as changes keep coming from other threads, and the changes wait
    /// in the queue meanwhile. An observer must be quick, and hand slow work to a queue of its own. It may
    /// call the jar: that call's changes are delivered after the current one.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (CookieChange) -> Void) -> Int {
        dispatcher.addObserver(observer)
    }

    /// Stops calling the observer registered with `token`: no change made after this returns reaches it,
    /// nor, when it is removed from inside a callback (by itself or another observer), any further change
    /// of the batch being delivered. A batch of earlier changes another thread is delivering at that moment
    /// may still reach it, one call at most starting after this returns. A token
    /// that names no observer of this jar (one removed already, another jar's) is ignored: the jar's own
    /// persistence goes on recording its changes whatever the token.
    public func removeObserver(_ token: Int) {
        dispatcher.removeObserver(token)
    }

    /// Calls `recorder` with every change from now on, at once, while the jar's lock is held (the jar's
    /// persistence: a change is recorded before the call that made it returns), until `removeRecorder()`,
    /// and with the time the call that made it read from the clock (nil for a call that reads none, whose
    /// removals are all asked for: none is `.expired`). It must be quick and must not call the jar, nor its
    /// clock.
    func setRecorder(_ recorder: @escaping ChangeDispatcher.Recorder) {
        dispatcher.setRecorder(recorder)
    }

    /// Stops calling the recorder (`setRecorder(_:)`).
    func removeRecorder() {
        dispatcher.removeRecorder()
    }

    /// Every change to the jar's contents from now on, as an asynchronous sequence: from when the property
    /// is read, which registers its observer.
    ///
    /// Ordering: changes arrive in exactly the order the jar applied them (one total order per jar, the
    /// order of its lock), each once. A change may arrive after the call that made it has returned, and
    /// on another thread. Applying them in order to a copy of the jar's contents reproduces them.
    /// Last-access updates of retrieval are not changes.
    ///
    /// The stream buffers every change until it is read, without bound: a stream kept and not read, or
    /// read more slowly than the jar changes, grows. A consumer that cannot keep up should use
    /// `addObserver(_:)` and decide itself what to keep. The stream stops observing when its reading task
    /// is cancelled or it is dropped, and finishes, after the changes it holds, when the jar is freed.
    public var changes: AsyncStream<CookieChange> {
        dispatcher.addStream()
    }

    /// The limits this jar enforces.
    public var limits: CookieLimits { store.withLock { $0.limits } }

    /// How many cookies the jar holds (expired ones not yet purged included).
    public var count: Int { store.withLock { $0.count } }

    // MARK: Receiving (§5.6, §5.7)

    /// Receives one `Set-Cookie` field value of a response to `url`: the cookie it sets is stored, or the
    /// line is ignored (`setCookie(_:from:context:)` tells which, and why).
    public func receive(_ setCookie: String, from url: CookieURL, context: CookieRequestContext) {
        receiveLine(setCookie, from: url, context: context)
    }

    /// Receives one `Set-Cookie` field value of a response to a native app's own request to `url`
    /// (`CookieRequestContext.firstParty`). The context is read in place, where a default argument would
    /// be a copy made by every call.
    public func receive(_ setCookie: String, from url: CookieURL) {
        receiveLine(setCookie, from: url, context: .firstParty)
    }

    /// What both `receive(_:from:)` do, inlined into each. The line's bytes are parsed and received in
    /// place: no `ParsedSetCookie` holds (retains) the line.
    @inline(__always)
    private func receiveLine(_ setCookie: String, from url: CookieURL, context: CookieRequestContext) {
        setCookie.withUTF8BytesViaSpan { line in
            var parts = CookieParts()
            guard (try? parts.parse(line)) != nil else { return }
            let now = clock.now()
            withStore(at: now, afterWaiters: true) { store in
                let _: StorageAction = store.receive(parts, line: line, from: url, context: context, now: now)
            }
        }
    }

    /// Receives every `Set-Cookie` field value of one response to `url`, in order (never comma-joined).
    public func receive(
        _ setCookies: some Sequence<String>, from url: CookieURL, context: CookieRequestContext = .firstParty
    ) {
        for setCookie in setCookies { receive(setCookie, from: url, context: context) }
    }

    /// Receives one `Set-Cookie` field value of a response to `url` and reports what it did: the cookie
    /// stored and the one it replaced or deleted, or why the line was ignored. (`receive(_:from:context:)`
    /// does the same without reading the cookies out of the jar.)
    @discardableResult
    public func setCookie(
        _ setCookie: String, from url: CookieURL, context: CookieRequestContext = .firstParty
    ) -> SetCookieOutcome {
        do {
            return self.setCookie(try ParsedSetCookie(parsing: setCookie), from: url, context: context)
        } catch {
            return .rejected(error)
        }
    }

    /// Receives a `Set-Cookie` line parsed already, or built from its parts, and reports what it did (see
    /// `setCookie(_:from:context:)`): a `ParsedSetCookie` holds only what a line could give, so both are
    /// received as the line would be.
    @discardableResult
    public func setCookie(
        _ parsed: ParsedSetCookie, from url: CookieURL, context: CookieRequestContext = .firstParty
    ) -> SetCookieOutcome {
        let now = clock.now()
        return withStore(at: now, afterWaiters: true) { store in
            parsed.line.withUTF8BytesViaSpan { store.receive(parsed.parts, line: $0, from: url, context: context, now: now) }
        }
    }

    /// Stores a cookie as it is, without the checks of §5.7 that depend on the request that set it (for
    /// cookies imported, taken from a web view, or made by the app itself); it replaces a cookie of the
    /// same identity (one expired already is reported removed as expired, and the new one `.stored`, as a
    /// receipt reports it). Limits are enforced. A cookie no `Set-Cookie` line could have given a jar is
    /// refused: one whose name and value exceed 4,096 bytes together (§5.6 step 5) is
    /// `.rejected(.nameAndValueTooLong)`, one whose name and value are both empty (§5.7 step 2)
    /// `.rejected(.emptyNameAndValue)`, one whose name holds ";" or "=", or whose value holds ";" (where a
    /// line ends them, §5.6 steps 2–3: a `Cookie` header would carry the rest as pairs of their own)
    /// `.rejected(.separatorCharacter)`, one whose name or value starts or ends with a space or tab (which
    /// a line's parsing removes, §5.6 step 4) `.rejected(.whitespaceAtEnds)`, one whose name, value,
    /// domain, path or partition key holds a
    /// control character other than HTAB (§5.6 step 1) `.rejected(.controlCharacter)`, one whose path does
    /// not start with "/" (§5.7 step 11) `.rejected(.relativePath)`, one whose source port is outside
    /// 0–65535 `.rejected(.invalidSourcePort)`, one whose partition key is empty (a file keeps none as an
    /// empty one) `.rejected(.emptyPartitionKey)`, one whose domain is not a canonical host (upper case,
    /// Unicode, empty: no request would match it) `.rejected(.domainNotCanonical)`, and
    /// one the rules on a cookie's own attributes refuse (§5.7 steps 19–22, CHIPS §2.1: SameSite=None
    /// without Secure, a `__Secure-` cookie without Secure, a `__Host-` cookie without Secure, with a
    /// domain or a path other than "/", a nameless cookie whose value starts with either prefix, a
    /// partitioned cookie without Secure) with that rule's rejection, unless it is expired: an expired
    /// cookie deletes the cookie of its identity whatever its attributes (`.deleted`). A domain cookie
    /// whose domain is a public suffix is stored host-only, as §5.7 step 9 makes it for the host of that
    /// name that set it (a curl cookies.txt's `.localhost`). A partition key is stored in the form the jar
    /// computes a request's (CHIPS: the top-level site, `scheme://` and the registrable domain through this
    /// jar's public suffix list, lower case, IDNA A-labels), so that "https://TOP.example" and
    /// "https://www.top.example" are "https://top.example", which requests under that site match; one that
    /// names no site (not a scheme, "://" and a host alone) is `.rejected(.invalidPartitionKey)`.
    @discardableResult
    public func insert(_ cookie: Cookie) -> SetCookieOutcome {
        let now = clock.now()
        return withStore(at: now, afterWaiters: true) { $0.insert(cookie, now: now) }
    }

    /// `insert(_:)` if the jar's unexpired cookie of `cookie`'s identity is the one `isExpected` expects
    /// (nil: none), checked and written under one lock, so that a change made since the caller read the
    /// jar (a response rotating a session) is not overwritten: nil, and nothing written, when it is not.
    package func insert(_ cookie: Cookie, ifHolding isExpected: (Cookie?) -> Bool) -> SetCookieOutcome? {
        let now = clock.now()
        return withStore(at: now, afterWaiters: true) { store in
            guard isExpected(store.cookie(withIdentityOf: cookie, at: now)) else { return nil }
            return store.insert(cookie, now: now)
        }
    }

    /// `insert(_:)` of a cookie read from a file (`insert(contentsOf:)`): an expiry later than the
    /// cookie-age-limit after now (the jar's `CookieLimits.maxAgeSeconds`, rfc6265bis-22 §5.5: "Expires or
    /// Max-Age attributes that specify a lifetime longer than the limit MUST be reduced to the limit") is
    /// brought to that limit first, and `capped` set; the evictions the limits made are added to
    /// `evictions` (`CookieStore.evictions`).
    func insert(
        _ cookie: Cookie, capped: inout Bool, countingEvictionsIn evictions: inout [CookieEviction]?
    ) -> SetCookieOutcome {
        let now = clock.now()
        return withStore(at: now, afterWaiters: true) { store in
            var cookie = cookie
            let ageLimit = store.limits.ageLimit(after: now)
            if let expiry = cookie.expiry, expiry > ageLimit {
                cookie.expiry = ageLimit
                capped = true
            }
            swap(&store.evictions, &evictions)
            defer { swap(&store.evictions, &evictions) }
            return store.insert(cookie, now: now)
        }
    }

    /// Enforces the limits on the cookies this jar was made with from a store (`CookieStore.Loader`),
    /// never evicting one with the identity of one of `kept`, and returns the evictions they made, by site
    /// and limit.
    func enforceLimitsAfterLoading(keeping kept: [Cookie]) -> [CookieEviction] {
        let now = clock.now()
        return withStore(at: now) { store in
            store.evictions = []
            defer { store.evictions = nil }
            store.enforceLimitsAfterLoading(keeping: kept, now: now)
            return store.evictions ?? []
        }
    }

    // MARK: Retrieving (§5.8.3)

    /// The cookies to send on a request to `url`, in send order (longer paths first, then earlier
    /// creation); their last-access time moves when it is a second or more away (§5.8.3 step 3, see
    /// `SiteCookies.lastAccessUpdateInterval`).
    public func cookies(for url: CookieURL, context: CookieRequestContext = .firstParty) -> [Cookie] {
        let now = clock.now()
        return withStore(at: now) { store throws(StoreChangeNeeded) in
            try store.retrieveWithoutChanges(for: url, context: context, now: now) { site, sent in
                // Read through the site's tables: a call on `site.pointee` would copy the site (`SiteTables`).
                let tables = site.pointee.tables
                return sent.map { tables.cookie(at: Int($0)) }
            }
        } else: { store in
            store.retrieve(for: url, context: context, now: now) { site, sent in
                let tables = site.tables
                return sent.map { tables.cookie(at: Int($0)) }
            }
        } ?? []
    }

    /// The `Cookie` header value for a request to `url`, or nil when no cookie is sent (§5.8.3 step 4).
    public func cookieHeader(for url: CookieURL, context: CookieRequestContext) -> String? {
        header(for: url, context: context)
    }

    /// The `Cookie` header value for a native app's own request to `url` (`CookieRequestContext.firstParty`),
    /// or nil when no cookie is sent. The context is read in place, where a default argument would be a
    /// copy made by every call.
    public func cookieHeader(for url: CookieURL) -> String? {
        header(for: url, context: .firstParty)
    }

    /// What both `cookieHeader` do, inlined into each.
    @inline(__always)
    private func header(for url: CookieURL, context: CookieRequestContext) -> String? {
        let now = clock.now()
        return withStore(at: now) { store throws(StoreChangeNeeded) in
            try store.cookieHeaderWithoutChanges(for: url, context: context, now: now)
        } else: { store in
            store.cookieHeader(for: url, context: context, now: now)
        }
    }

    /// Appends the `Cookie` header value for a request to `url` in `context` to `header` and returns true;
    /// returns false, appending nothing, when no cookie is sent (§5.8.3 step 4). The bytes are those of
    /// `cookieHeader(for:context:)`, UTF-8, without making a String: for a client that writes its
    /// requests into bytes of its own (an HTTP/1 encoder, a proxy) and keeps them from one request to
    /// the next (`header.removeAll(keepingCapacity: true)`).
    public func appendCookieHeader(for url: CookieURL, context: CookieRequestContext, to header: inout [UInt8]) -> Bool {
        appendHeader(for: url, context: context, to: &header)
    }

    /// `appendCookieHeader(for:context:to:)` for a native app's own request to `url`
    /// (`CookieRequestContext.firstParty`). The context is read in place, where a default argument would be
    /// a copy made by every call.
    public func appendCookieHeader(for url: CookieURL, to header: inout [UInt8]) -> Bool {
        appendHeader(for: url, context: .firstParty, to: &header)
    }

    /// What both `appendCookieHeader` do, inlined into each.
    @inline(__always)
    private func appendHeader(for url: CookieURL, context: CookieRequestContext, to header: inout [UInt8]) -> Bool {
        let now = clock.now()
        return withStore(at: now) { store throws(StoreChangeNeeded) in
            try store.appendCookieHeaderWithoutChanges(for: url, context: context, now: now, to: &header)
        } else: { store in
            store.appendCookieHeader(for: url, context: context, now: now, to: &header)
        }
    }

    /// Every cookie of `url`'s site, in send order, each with the reason a request in `context` would not
    /// carry it (nil when it would). Last-access times are left alone: this is for tools and debugging.
    public func retrievalReport(for url: CookieURL, context: CookieRequestContext = .firstParty) -> [RetrievalDecision] {
        let now = clock.now()
        return store.withLock { $0.retrievalReport(for: url, context: context, now: now) }
    }

    /// True when `a` and `b` are same-site (HTML "schemelessly same site" plus the scheme, as
    /// rfc6265bis-22 §5.2 uses it): same scheme, and the same registrable domain under the jar's public
    /// suffix list (the same host when there is none, e.g. an IP address); ports never matter.
    public func isSameSite(_ a: CookieURL, _ b: CookieURL) -> Bool {
        store.withLock { $0.site(of: a) == $0.site(of: b) }
    }

    // MARK: Listing

    /// Every unexpired cookie, site by site (sites in the order of their registrable domains), each site
    /// in send order.
    public func allCookies() -> [Cookie] {
        let now = clock.now()
        return store.withLock { $0.allCookies(at: now) }
    }

    /// The unexpired cookies of one site: the registrable domain (or host) `site`, e.g. `example.com`,
    /// written as a URL's host may be (any case, Unicode or A-labels); none for what is no host.
    public func cookies(forSite site: String) -> [Cookie] {
        guard let site = CanonicalHost(site)?.name else { return [] }
        let now = clock.now()
        return store.withLock { store in
            guard let slot = store.siteKeyAndSlot(ofCookieDomain: site).slot else { return [] }
            return store.sites[slot].cookies.filter { !$0.isExpired(at: now) }
        }
    }

    /// The cookies last accessed at or after `time` (for writing last-access times to the jar's store).
    func cookies(accessedSince time: CookieTime) -> [Cookie] {
        store.withLock { store in
            store.occupiedSites.flatMap { $0.cookies(accessedSince: time) }
        }
    }

    /// Every cookie the store holds, by site key (registrable domain, or host), each site in send order,
    /// expired cookies not yet purged included: what the fuzz targets check the store's invariants on.
    @_spi(Fuzzing) public func storedCookiesBySite() -> [String: [Cookie]] {
        store.withLock { store in Dictionary(uniqueKeysWithValues: store.occupiedSites.map { ($0.key, $0.cookies) }) }
    }

    /// The `Cookie` header of a lookup made with the lock shared, as `cookieHeader(for:context:)` makes it
    /// when the lookup changes nothing (`.some(nil)`: no cookie is sent); nil when the lookup would change
    /// the store, and so holds the lock alone. For tests and the fuzz targets: a header made this way is
    /// the one the lookup holding the lock alone makes.
    @_spi(Fuzzing) public func sharedLookupHeader(for url: CookieURL, context: CookieRequestContext = .firstParty) -> String?? {
        let now = clock.now()
        return withSharedStore { store throws(StoreChangeNeeded) in try store.cookieHeaderWithoutChanges(for: url, context: context, now: now) }
    }

    /// What breaks the store's internal bookkeeping (site slots, interned strings, counts), or nil: what
    /// the fuzz targets check after every operation.
    @_spi(Fuzzing) public func storeStructureViolation() -> String? {
        store.withLock { $0.structureViolation() }
    }

    // MARK: Deleting

    /// Deletes the cookie with the identity of `cookie` (name, domain, host-only-flag, path, partition).
    @discardableResult
    public func delete(_ cookie: Cookie) -> Bool {
        delete(cookie, ifHolding: { _ in true }) ?? false
    }

    /// `delete(_:)` if the jar's unexpired cookie of `cookie`'s identity is the one `isExpected` expects
    /// (nil: none), checked and deleted under one lock: nil, and nothing deleted, when it is not.
    package func delete(_ cookie: Cookie, ifHolding isExpected: (Cookie?) -> Bool) -> Bool? {
        let now = clock.now()
        return withStore(at: now) { store in
            guard isExpected(store.cookie(withIdentityOf: cookie, at: now)) else { return nil }
            let key = store.siteKey(ofCookieDomain: cookie.domain)
            return !store.removeAll(inSite: key, cause: .deleted) { $0.hasSameIdentity(as: cookie) }.isEmpty
        }
    }

    /// Deletes every cookie of `site` (a registrable domain or host, written as a URL's host may be: any
    /// case, Unicode or A-labels); returns how many (none for what is no host).
    @discardableResult
    public func deleteCookies(forSite site: String) -> Int {
        guard let site = CanonicalHost(site)?.name else { return 0 }
        return withStore { store in
            let key = store.siteKey(ofCookieDomain: site)
            return store.removeAll(inSite: key, cause: .deleted) { _ in true }.count
        }
    }

    /// Sign-out: deletes everything `url`'s site stored — its cookies, whatever their domain or path,
    /// and the cookies partitioned under it. Returns how many cookies were deleted.
    @discardableResult
    public func signOut(from url: CookieURL) -> Int {
        withStore { store in
            let key = store.siteKey(of: url.host)
            var deleted = store.removeAll(inSite: key, cause: .signedOut) { _ in true }.count
            let partition = store.site(of: url)
            deleted += store.removeAll(cause: .signedOut) { $0.partitionKey == partition }.count
            return deleted
        }
    }

    /// Deletes every session cookie (those without an expiry): what ending the session does, e.g. an app
    /// relaunch. Returns how many.
    @discardableResult
    public func deleteSessionCookies() -> Int {
        withStore { $0.removeAll(cause: .sessionEnded) { !$0.isPersistent }.count }
    }

    /// Deletes every expired cookie now (retrieval also purges lazily). Returns how many.
    @discardableResult
    public func deleteExpiredCookies() -> Int {
        let now = clock.now()
        return withStore(at: now) { $0.removeAll(cause: .expired) { $0.isExpired(at: now) }.count }
    }

    /// Deletes every cookie. Returns how many.
    @discardableResult
    public func deleteAll() -> Int {
        withStore { $0.removeAll(cause: .deleted) { _ in true }.count }
    }
}
