extension CookieJar {
    /// A jar of `cookies`, read from `store`, whose changes from now on are written to `store` (the
    /// seam of `CookieJarStore`): a background write `options.flushDelay` after a change, and at every
    /// `flush(to:)` and `close(_:)`.
    ///
    /// Cookies expired at the clock's now, and session cookies unless `options.persistsSessionCookies`,
    /// are not loaded: they are deleted from the store at the first write. The limits are enforced on
    /// what is loaded, and the cookies evicted are deleted at the first write too. A cookie no jar may
    /// hold (one `insert(_:)` refuses, such as a value with a CR LF, or a source port outside 0–65535) is
    /// neither loaded nor deleted: it stays in the store as it is, and is listed in `cookiesNotLoaded`. The
    /// identities of `cookies` must be distinct (the store's key).
    public convenience init<Store: CookieJarStore>(
        loading cookies: some Sequence<Cookie>, into store: Store, options: CookieWriteOptions = CookieWriteOptions(),
        publicSuffixList: any PublicSuffixList = SystemPublicSuffixList.shared, limits: CookieLimits = .default,
        clock: any CookieClock = SystemCookieClock()
    ) {
        self.init(loading: cookies, into: store, options: options, publicSuffixList: publicSuffixList, limits: limits, clock: clock, keeping: [])
    }

    /// `init(loading:into:options:publicSuffixList:limits:clock:)`, whose limits never evict a cookie with
    /// the identity of one of `kept`, as a jar removing excess cookies (rfc6265bis-22 §5.7) never evicts
    /// the cookie it just stored (`CookieStore.enforceLimits`): for a store that enforces a jar's limits
    /// on what many writers stored, keeping what a write just stored.
    package convenience init<Store: CookieJarStore>(
        loading cookies: some Sequence<Cookie>, into store: Store, options: CookieWriteOptions,
        publicSuffixList: any PublicSuffixList, limits: CookieLimits, clock: any CookieClock, keeping kept: [Cookie]
    ) {
        let now = clock.now()
        var contents = CookieStore(publicSuffixList: publicSuffixList, limits: limits)
        var loader = CookieStore.Loader(filling: contents, now: now)
        var purged: [CookieWrite] = []
        for cookie in cookies {
            if cookie.isExpired(at: now) {
                // Another writer may have refreshed it since it was read.
                purged.append(.deleteIfUnchanged(cookie))
                continue
            }
            guard cookie.isPersistent || options.persistsSessionCookies else {
                purged.append(.delete(CookieIdentity(cookie)))
                continue
            }
            LoadedCookie.withLoaded(cookie) { loader.append($0, to: &contents) }
        }
        contents.finishLoading()
        let persistence = CookieJarPersistence(store: store, options: options, now: now, notLoaded: loader.notLoaded)
        self.init(store: contents, clock: clock, persistence: persistence)
        persistence.attach(to: self, purging: purged, keeping: kept)
    }

    /// The cookies found in the jar's file or store that it did not load, because no jar may hold them
    /// (`CookieNotLoaded`); empty for a jar kept in memory only.
    public var cookiesNotLoaded: [CookieNotLoaded] { persistence?.cookiesNotLoaded ?? [] }

    /// The cookies of the jar's file or store that its limits (`CookieLimits`, rfc6265bis-22 §6.1) evicted
    /// when it loaded them, by site and limit: a file written under larger limits, or by a jar that kept
    /// more. They are deleted from the file or store at the first write. Empty for a jar kept in memory
    /// only, and when the loaded cookies were within the limits.
    public var evictedAtLoading: [CookieEviction] { persistence?.evictionsAtLoading ?? [] }

    /// True when changes wait to be written to the jar's store.
    public var hasPendingChanges: Bool { persistence?.hasPendingChanges ?? false }

    /// True when the next flush writes the last-access times of the cookies used since the last sweep
    /// (`CookieJarPersistence.lastAccessWriteInterval` has passed since it); it writes nothing for them
    /// when none was used.
    public var isLastAccessSweepDue: Bool { persistence?.isLastAccessSweepDue(now: clock.now()) ?? false }

    /// Writes every change not yet written to `store`, the store the jar is kept in, in one write; returns
    /// how many stored cookies changed. When it returns, the changes are durable; when it throws, the jar
    /// keeps working in memory and the changes stay pending for the next flush.
    @discardableResult
    public func flush<Store: CookieJarStore>(to store: Store) throws(Store.Failure) -> Int {
        guard let persistence, persistence.store === store else { return 0 }
        return try persistence.flush(self) { changes throws(Store.Failure) in try store.write(changes) }
    }

    /// Writes what is pending to `store` (last-access times included) and closes it (`CookieJarStore.close`).
    /// The jar keeps its cookies in memory, but later changes are not written. When it throws, the store
    /// stays open and the changes pending.
    public func close<Store: CookieJarStore>(_ store: Store) throws(Store.Failure) {
        guard let persistence, persistence.store === store else { return }
        try persistence.close(self) { changes throws(Store.Failure) in try store.write(changes) }
    }
}
