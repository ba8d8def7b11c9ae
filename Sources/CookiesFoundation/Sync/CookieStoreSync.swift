import Cookies
import Synchronization

/// Keeps one `CookieJar` and one platform cookie store (a web view's) in sync, both ways, within a scope
/// of domains.
///
/// A three-way merge: the sync records the version of every cookie (by identity: name, domain,
/// host-only-flag, path) that both sides held after its last call, so it tells on which side a cookie
/// was added, changed or deleted since, and copies that change to the other side. A cookie changed on
/// both sides differently is a conflict, settled by `policy` and reported. The echo of the sync's own
/// writes is no change: what it wrote is what it recorded, so a change event of the jar that matches the
/// record schedules nothing, and a store's change signal for its writes reads back what the record holds
/// and copies nothing.
///
/// Safety rules, each for a pitfall of the platform stores:
/// - scope: only cookies whose domain is within `scope` are read into the merge, copied or deleted;
/// - an empty read of the store while the record says it held cookies (WKHTTPCookieStore at a cold
///   start) is read again, up to `emptyReadRetries` times, before it can delete anything; until a read
///   found the store holding cookies, it deletes nothing even then: the jar's cookies are copied to it;
/// - every store call has `timeout`; a call that times out or fails ends the sync with an error, and
///   only what both sides confirmed is recorded (the next call picks up the rest, reading back whatever
///   a late completion did after all); the store's sets are confirmed by reading it back, since a store
///   may complete a set it did not keep, and its deletions likewise; a set that timed out and lands
///   later is the jar's version, so a cookie the jar deleted meanwhile (a sign-out) is then deleted from
///   the store, not copied back;
/// - a cookie the store turned down (refused, or did not keep) is reported, and not offered again until
///   the jar's version of it changes: a store that signals the sync's own writes would otherwise start
///   a reconcile for every offer, for ever;
/// - session cookies stay session cookies (no expiry on either side); fields the store cannot carry
///   (`PlatformCookieStore.carriedFields`) are neither compared nor overwritten in the jar.
///
/// One call runs at a time; the others wait their turn. Every call's `CookieSyncReport` is also
/// published to `reports()`.
public final class CookieStoreSync: Sendable {
    /// The jar (the native side).
    public let jar: CookieJar
    /// The platform's cookie store (the web side).
    public let store: any PlatformCookieStore
    /// The domains the sync may touch; none when one of the domains it was given is no host name or IP
    /// address (every call then throws `CookieSyncError.invalidDomain`).
    public let scope: CookieSyncScope
    /// Who wins a conflict.
    public let policy: CookieConflictPolicy
    /// The longest any one call on the store may take.
    public let timeout: Duration
    /// How long `run()` waits after a change before it reconciles, gathering the changes that follow.
    public let debounce: Duration
    /// How many times an unexpected empty read of the store is read again, `emptyReadDelay` apart.
    public let emptyReadRetries: Int
    /// The pause before reading an empty store again.
    public let emptyReadDelay: Duration
    /// How many delete-and-read rounds `signOut(site:)` makes before it gives up.
    static let signOutRounds = 3

    /// Why the domains the sync was given make no scope; nil when they do.
    private let scopeRefusal: CookieSyncError?
    private let lock = AsyncSerialLock()
    private let record: CookieLock<[CookieIdentity: Cookie]>
    /// The identities whose cookie the sync is deleting from the jar at this moment: the jar's removal
    /// event for one of them is the sync's echo.
    private let deletingFromJar = CookieLock<Set<CookieIdentity>>([])
    /// The versions of the jar's cookies the store turned down: reported, not offered again.
    private let refusedVersions = CookieLock(RefusedCookieVersions())
    /// The cookies of sets the store has not confirmed, by identity: offered, until a read-back finds them
    /// kept or not; left so when the set timed out (`withTimeout` left it running), failed (it may have
    /// landed in part) or its read-back did, until a read finds the version offered in the store
    /// (`recordLandedSets`). A set that lands after the jar deleted the cookie, or after a sign-out, is then
    /// a deletion to copy to the store, not a cookie of the web view's to copy back into the jar.
    private let unconfirmedSets = CookieLock<[CookieIdentity: Cookie]>([:])
    /// The sites whose `signOut(site:)` ended with an error, until a later call of this sync finishes it:
    /// every cookie of the site that the store holds (one the sign-out could not read, that arrived during
    /// it, or that the web view changed since the record) is then recorded as the store holds it, so that
    /// the plan deletes it from the store instead of copying it into the jar. Kept in memory only: a sync
    /// made at the next launch knows of no unfinished sign-out (the record still deletes what it knew).
    private let unfinishedSignOuts = CookieLock<Set<String>>([])
    /// True once a read of the store found a cookie (of any domain): the store is loaded, and an empty
    /// read after that is believed (`sync`).
    private let storeSeenLoaded = Atomic<Bool>(false)
    private let reportStreams = Broadcast<CookieSyncReport>()

    /// A sync of `jar` and `store` within `domains`.
    /// - Parameters:
    ///   - jar: the native side.
    ///   - store: the web view's cookie store.
    ///   - domains: the scope: only cookies of these domains and their subdomains are read, copied or
    ///     deleted. Written as a URL's host may be (Unicode or A-labels, any case, a leading dot or not),
    ///     they are compared as the jar keeps a cookie's domain (`CookieSyncScope`). One that is no host
    ///     name or IP address makes every call throw `CookieSyncError.invalidDomain`, rather than a sync
    ///     that silently matches nothing.
    ///   - policy: who wins when a cookie changed on both sides.
    ///   - timeout: the longest a call on the store may take.
    ///   - debounce: how long `run()` waits after a change signal before it reconciles.
    ///   - emptyReadRetries: how many times an unexpected empty read of the store is read again.
    ///   - emptyReadDelay: the pause before reading an empty store again.
    ///   - record: the cookies both sides held after the last sync of an earlier run
    ///     (`synchronisedCookies`, saved by the app); without it the first call cannot tell a deletion
    ///     from an addition: a cookie on one side only is copied to the other, and one both sides hold
    ///     with different values is a conflict `policy` settles.
    public init(
        jar: CookieJar, store: any PlatformCookieStore, domains: [String], policy: CookieConflictPolicy = .preferWeb,
        timeout: Duration = .seconds(5), debounce: Duration = .milliseconds(100), emptyReadRetries: Int = 2,
        emptyReadDelay: Duration = .milliseconds(250), record: [Cookie] = []
    ) {
        self.jar = jar
        self.store = store
        do {
            self.scope = try CookieSyncScope(domains: domains)
            self.scopeRefusal = nil
        } catch {
            self.scope = CookieSyncScope.none
            self.scopeRefusal = error
        }
        self.policy = policy
        self.timeout = timeout
        self.debounce = debounce
        self.emptyReadRetries = emptyReadRetries
        self.emptyReadDelay = emptyReadDelay
        let scope = self.scope
        self.record = CookieLock(Dictionary(
            record.filter(scope.contains).map { (CookieIdentity($0), $0) }, uniquingKeysWith: { _, last in last }))
    }

    /// The cookies both sides held after the last call (the record of the three-way merge), in no order.
    /// Save it for the next launch only once the jar's changes are on disk (`jar.flush()` for a jar file,
    /// which writes `flushDelay` after a change): a record ahead of the jar file reads, after a crash, as
    /// cookies deleted in the jar, and the next sync would delete them from the web view too.
    public var synchronisedCookies: [Cookie] { record.withLock { Array($0.values) } }

    /// `synchronisedCookies` once the jar's changes are on disk, to save for the next launch: writes the
    /// jar's file (`CookieJar.flush()`) and reads the record while no call of this sync runs, so that no
    /// call (one `run()` makes) records a cookie between the two that the file does not hold yet. Throws
    /// what the flush throws; the record is then not to be saved.
    public func synchronisedCookiesWithJarFlushed() async throws(CookieFileError) -> [Cookie] {
        try await lock.withLock { () throws(CookieFileError) -> [Cookie] in
            try jar.flush()
            return synchronisedCookies
        }
    }

    // MARK: The calls an app makes

    /// Copies the jar's changes to the store and returns once the store confirmed every write: load the
    /// web view after it (a web view's first request can go out before a cookie set without waiting is
    /// stored). Changes on the store's side are left for `pull` or `reconcile`. A cookie changed on both
    /// sides is copied as the jar holds it, whatever `policy` says, and reported as a conflict the jar won:
    /// a push is the app's word that the web view must have the jar's state (a native sign-in replacing
    /// the anonymous session a page set before it); settled the store's way, it would be copied nowhere,
    /// and the next reconcile would put the store's older version back into the jar.
    @discardableResult
    public func push() async throws(CookieSyncError) -> CookieSyncReport {
        try await sync(.push, targets: [.web])
    }

    /// Copies the store's changes to the jar (e.g. after a sign-in in the web view). A cookie changed on
    /// both sides is copied as the store holds it, whatever `policy` says, and reported as a conflict the
    /// web view won.
    @discardableResult
    public func pull() async throws(CookieSyncError) -> CookieSyncReport {
        try await sync(.pull, targets: [.jar])
    }

    /// Copies each side's changes to the other: what `run()` does after a change.
    @discardableResult
    public func reconcile() async throws(CookieSyncError) -> CookieSyncReport {
        try await sync(.reconcile, targets: [.jar, .web])
    }

    /// Signs out of `site` (a domain within the scope, written as the scope's domains may be) on both
    /// sides: deletes its cookies (those of the site and its subdomains, and the domain cookies of its
    /// parent domains within the scope, which its requests carry too) in the jar and in the store, then
    /// reads both again, and repeats while
    /// cookies keep arriving (a response in flight during the sign-out). The record keeps the site's
    /// cookies until both reads come back without any, so that a sign-out cut short (an error) is finished
    /// by the next call of this sync that writes to the store (any but `pull()`, which leaves it
    /// unfinished): the site's cookies in the store are then deleted, not copied into the
    /// jar, also those the sync never recorded or recorded in another version (read by the sign-out,
    /// arriving during it, changed by the web view, or unread when the store could not be read); until that
    /// call, a cookie the web view sets for the site is taken for one the sign-out missed. (A sync made at
    /// the next launch deletes only what the saved record knew.) A site that is no host name or IP address throws `CookieSyncError.invalidDomain`,
    /// one outside the scope `siteOutOfScope`, before anything is touched.
    ///
    /// In the jar, the site's partitioned cookies go too (a native response's `Partitioned` cookie is
    /// partitioned under its own site, and sent on the app's requests to it), though no sync copies them.
    /// In the store, every cookie of the site the record or the jar knew of is deleted, also when the
    /// store reads back empty: a store not loaded yet (WKHTTPCookieStore at a cold start) would otherwise
    /// keep the session, and hand it back to the jar at the next reconcile.
    @discardableResult
    public func signOut(site: String) async throws(CookieSyncError) -> CookieSyncReport {
        if let scopeRefusal { throw scopeRefusal }
        let site = try CookieSyncScope.canonicalDomain(site)
        guard scope.domains.contains(where: {
            CookieSyncScope.domain(site, isWithin: $0) || CookieSyncScope.domain($0, isWithin: site)
        }) else { throw .siteOutOfScope(site) }
        let (inSiteInJar, inSite) = Self.cookiesSignedOut(of: site, within: scope)
        return try await lock.withLock { () async throws(CookieSyncError) -> CookieSyncReport in
            var report = CookieSyncReport(operation: .signOut)
            // Until both sides are read back without the site's cookies, the sign-out is unfinished: a
            // later call finishes it, should this one end with an error.
            unfinishedSignOuts.withLock { _ = $0.insert(site) }
            do throws(CookieSyncError) {
                var remaining: [String] = []
                for _ in 0..<Self.signOutRounds {
                    // A set not completed in time may still land: its cookies are deleted too, and stay
                    // in `unconfirmedSets`, so that the sync deletes them again if they land later.
                    var known = keyed(record.withLock { $0.values.filter(inSite) } + unconfirmedSets.withLock { $0.values.filter(inSite) })
                    for cookie in jar.allCookies() where inSiteInJar(cookie) && jar.delete(cookie) {
                        report.deletedFromJar.append(cookie)
                        if inSite(cookie) { known[CookieIdentity(cookie)] = cookie }
                    }
                    let web = try await readStore(expectingSome: !known.isEmpty, &report).values.filter(inSite)
                    for cookie in web { known[CookieIdentity(cookie)] = cookie }
                    // Recorded as both sides' before they are deleted: should the deletion fail, the next
                    // sync finds them in the record and not in the jar, and deletes them from the store.
                    recordAsHeld(web)
                    if !known.isEmpty {
                        try await deleteFromStore(Array(known.values))
                        report.deletedFromWeb += web
                    }
                    let jarLeft = jar.allCookies().filter(inSiteInJar)
                    let webLeft = try await readStore().values.filter(inSite)
                    if jarLeft.isEmpty && webLeft.isEmpty {
                        record.withLock { $0 = $0.filter { !inSite($0.value) } }
                        unfinishedSignOuts.withLock { _ = $0.remove(site) }
                        return publish(report)
                    }
                    // Cookies that arrived during the sign-out: recorded, so that the next sync deletes them
                    // from the side that holds them instead of copying them to the other.
                    recordAsHeld(jarLeft.filter(inSite) + webLeft)
                    remaining = jarLeft.map { "\($0.name) in the jar" } + webLeft.map { "\($0.name) in the store" }
                }
                throw CookieSyncError.signOutUnconfirmed(site: site, remaining: remaining)
            } catch {
                report.error = error
                publish(report)
                throw error
            }
        }
    }

    /// A new stream of the report of every call from now on (push, pull, reconcile, sign-out, and those
    /// `run()` makes).
    public func reports() -> AsyncStream<CookieSyncReport> {
        reportStreams.makeStream()
    }

    /// Until the calling task is cancelled: reconciles once at the start (what changed before it
    /// listened), then after the store's change signals and the jar's changes within the scope, one
    /// reconcile for the changes of each `debounce` interval. The jar's changes that are the sync's own
    /// writes schedule nothing. A reconcile that fails (a store call timed out or threw; its report
    /// says why) is made again, after a pause that doubles with each failure in a row, from `debounce`
    /// up to `longestRetryDelay`: a change the failure left uncopied is not left waiting for the next one.
    /// A sync whose domains make no scope returns after its first reconcile, whose report holds
    /// `CookieSyncError.invalidDomain`.
    public func run() async {
        let (pokes, poke) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let pending = Atomic<Int>(0)
        let schedule: @Sendable () -> Void = {
            pending.add(1, ordering: .relaxed)
            poke.yield()
        }
        let token = jar.addObserver { [weak self] change in
            if let self, !self.isEcho(change) { schedule() }
        }
        defer { jar.removeObserver(token) }
        let signals = store.changeSignals()
        let forwarding = Task {
            for await _ in signals { schedule() }
        }
        defer { forwarding.cancel() }
        schedule()
        var failures = 0
        for await _ in pokes {
            // A poke whose change an earlier reconcile already read needs nothing more.
            guard pending.load(ordering: .relaxed) > 0 else { continue }
            guard (try? await Task.sleep(for: debounce)) != nil else { break }
            pending.store(0, ordering: .relaxed)
            do {
                try await reconcile()
                failures = 0
            } catch {
                // Domains that make no scope fail every reconcile alike: no retry can help.
                if scopeRefusal != nil { break }
                failures += 1
                let pause = min(debounce * (1 << min(failures, 20)), Self.longestRetryDelay)
                guard (try? await Task.sleep(for: pause)) != nil else { break }
                schedule()
            }
        }
    }

    /// The longest pause `run()` makes before it reconciles again after failures.
    public static let longestRetryDelay = Duration.seconds(30)

    // MARK: One sync

    private func sync(
        _ operation: CookieSyncReport.Operation, targets: Set<CookieSyncSide>
    ) async throws(CookieSyncError) -> CookieSyncReport {
        try await lock.withLock { () async throws(CookieSyncError) -> CookieSyncReport in
            var report = CookieSyncReport(operation: operation)
            do throws(CookieSyncError) {
                if let scopeRefusal { throw scopeRefusal }
                let expecting = record.withLock { !$0.isEmpty }
                let web = try await readStore(expectingSome: expecting, &report)
                recordLandedSets(in: web)
                let signOutsToFinish = recordCookiesOfUnfinishedSignOuts(in: web)
                let jarSide = jarCookiesInScope()
                refusedVersions.withLock { $0.keepOnly(heldIn: jarSide) }
                // A store that has read empty since the sync was made, where the record says it held
                // cookies, may be one not loaded yet (WKHTTPCookieStore at a cold start answers empty for
                // seconds, longer than the re-reads wait): its emptiness is not believed. The record is set
                // aside, so that the jar's cookies are copied to the store instead of deleted from the jar
                // (which would sign the app out at a slow launch).
                let believesEmptyStore = !web.isEmpty || !expecting || storeSeenLoaded.load(ordering: .relaxed)
                report.emptyStoreDoubted = !believesEmptyStore
                let recorded = believesEmptyStore ? record.withLock { $0 } : [:]
                // A one-way call settles a conflict its own way: the policy's other winner would be a step
                // the call does not take, leaving the cookie copied nowhere.
                let policy: CookieConflictPolicy = switch operation {
                case .push: .preferJar
                case .pull: .preferWeb
                case .reconcile, .signOut: self.policy
                }
                let plan = SyncPlan(
                    jar: jarSide, web: web, record: recorded, carried: store.carriedFields, policy: policy)
                report.conflicts = plan.conflicts
                try await apply(
                    plan.steps.filter { $0.target.map(targets.contains) ?? true }, planned: jarSide, web: web, &report)
                // A sign-out is finished by deleting its cookies from the store: a call that writes only to
                // the jar (`pull()`) leaves it unfinished, for the next call that writes to the store.
                if targets.contains(.web) { unfinishedSignOuts.withLock { $0.subtract(signOutsToFinish) } }
                return publish(report)
            } catch {
                report.error = error
                publish(report)
                throw error
            }
        }
    }

    /// Writes the steps: the store's batch of sets, then its batch of deletions, then the jar. Each
    /// step's record entry is written once its side confirmed it. `planned` and `web`: the jar's cookies
    /// and the store's the plan was made of.
    private func apply(
        _ steps: [SyncPlan.Step], planned: [CookieIdentity: Cookie], web: [CookieIdentity: Cookie],
        _ report: inout CookieSyncReport
    ) async throws(CookieSyncError) {
        let toWeb = steps.filter { $0.target == .web }
        // A version of a jar cookie the store turned down before is reported again, not offered: the
        // store would turn it down again, and its change signal for the set would start the next sync.
        let turnedDown = refusedVersions.withLock { refused in
            Set(toWeb.compactMap(\.cookie).filter(refused.contains).map(CookieIdentity.init))
        }
        report.refusedByStore = toWeb.filter { turnedDown.contains($0.identity) }.compactMap(\.cookie)
        let offering = toWeb.filter { $0.cookie != nil && !turnedDown.contains($0.identity) }
        let sets = offering.compactMap(\.cookie)
        let deletions = toWeb.compactMap(\.deleting)
        record.withLock { record in
            for step in steps where step.target == nil { record[step.identity] = step.recordAfter }
        }
        if !sets.isEmpty {
            // Unconfirmed until the store is read back: a set that times out keeps running and may still
            // land, one that fails may have landed in part, and a read-back that fails leaves either unknown.
            unconfirmedSets.withLock { unconfirmed in for cookie in sets { unconfirmed[CookieIdentity(cookie)] = cookie } }
            let refused = try await withTimeout(timeout, call: .setCookies) { [store] in
                do {
                    try await store.setCookies(sets)
                    return [Cookie]()
                } catch let refusal as PlatformCookieStoreRefusal {
                    return refusal.cookies
                }
            }
            // A store may complete a set without keeping the cookie (`HTTPCookieStorage` whose accept policy
            // is `.never`, WebKit given a cookie it rejects). Recorded as held, its absence would read at the
            // next sync as a deletion in the web view, and delete it from the jar: the store is read back,
            // and only what it holds is recorded (as written: a version the page changed since, or the store
            // altered, is a change of the web view's at the next sync). What the store refused or did not
            // keep keeps its record entry, and its version is remembered: the next syncs report it without
            // offering it, until the jar's version changes. A store may also complete the set of a cookie it
            // holds and keep the version it held (WebKit refuses cookies set through its API for `localhost`,
            // WebKit pull request 59302): read back as it was before, the offer was not kept either, or that
            // version would read at the next sync as the web view's change, and replace the jar's.
            let refusedIdentities = Set(refused.map(CookieIdentity.init))
            let offered = offering.filter { !refusedIdentities.contains($0.identity) }
            let held = offered.isEmpty ? [:] : try await readStore(expectingSome: true, &report)
            unconfirmedSets.withLock { unconfirmed in for cookie in sets { unconfirmed[CookieIdentity(cookie)] = nil } }
            let carried = store.carriedFields
            func wasKept(_ step: SyncPlan.Step) -> Bool {
                guard let now = held[step.identity] else { return false }
                guard let before = web[step.identity] else { return true }
                return SyncedCookieFields(now, carried: carried) != SyncedCookieFields(before, carried: carried)
            }
            let kept = offered.filter(wasKept)
            let notKept = offered.filter { !wasKept($0) }.compactMap(\.cookie)
            remember(kept)
            refusedVersions.withLock { versions in
                for cookie in refused + notKept { versions.insert(cookie) }
            }
            report.copiedToWeb = kept.compactMap(\.cookie)
            report.refusedByStore += refused + notKept
        }
        if !deletions.isEmpty {
            try await deleteFromStore(deletions)
            // A deletion is confirmed as a set is, by reading the store back: a cookie the store still holds
            // keeps its record entry, so that the next sync deletes it again rather than take it for the
            // web view's and copy it back into the jar.
            let held = try await readStore()
            remember(toWeb.filter { $0.cookie == nil && held[$0.identity] == nil })
            report.deletedFromWeb = deletions.filter { held[CookieIdentity($0)] == nil }
        }
        // A cookie the jar changed since the plan read it (a native response rotating a session, while the
        // store's calls ran or while this loop writes) is not overwritten with what the plan made of its
        // older version: each write checks, under the jar's lock, that the jar still holds the planned
        // version, and the change's event schedules the next reconcile. The jar's change is the newer one,
        // so the record takes the step's outcome, as if the step had been made: the next reconcile sees the
        // jar's change alone and copies it to the store, where a conflict would let the store's older
        // version win under `.preferWeb`.
        // Recorded before the write: the jar's change event for it is then an echo. A cookie the jar
        // refuses changes nothing, and its record entry is put back.
        for step in steps where step.target == .jar {
            // A planned version that has expired since is gone from the jar without a change event: the jar
            // holding none is then what was planned.
            let plannedVersion = planned[step.identity]
            let plannedFields = plannedVersion.map { SyncedCookieFields($0, carried: .all) }
            let isPlanned = { [jar] (held: Cookie?) in
                if held == nil, let plannedVersion, plannedVersion.isExpired(at: jar.clock.now()) { return true }
                return held.map { SyncedCookieFields($0, carried: .all) } == plannedFields
            }
            let recordBefore = record.withLock { record in
                defer { record[step.identity] = step.recordAfter }
                return record[step.identity]
            }
            if let cookie = step.cookie {
                switch jar.insert(cookie, ifHolding: isPlanned) {
                case nil: continue
                case let outcome? where outcome.rejection == nil: report.copiedToJar.append(cookie)
                case _?:
                    record.withLock { $0[step.identity] = recordBefore }
                    report.refusedByJar.append(cookie)
                }
            } else if let deleting = step.deleting, deleteFromJar(deleting, ifHolding: isPlanned) {
                report.deletedFromJar.append(deleting)
            }
        }
    }

    /// Deletes `cookie` from the jar as the sync's own write, if the jar holds what `isPlanned` expects:
    /// its removal event is an echo. The jar delivers the event before `delete` returns unless another
    /// thread is delivering the jar's events already; one delivered later reads as the jar's own change,
    /// and schedules a reconcile that finds nothing to do. False when the jar held something else.
    private func deleteFromJar(_ cookie: Cookie, ifHolding isPlanned: (Cookie?) -> Bool) -> Bool {
        let identity = CookieIdentity(cookie)
        deletingFromJar.withLock { _ = $0.insert(identity) }
        defer { deletingFromJar.withLock { _ = $0.remove(identity) } }
        return jar.delete(cookie, ifHolding: isPlanned) != nil
    }

    private func deleteFromStore(_ cookies: [Cookie]) async throws(CookieSyncError) {
        try await withTimeout(timeout, call: .deleteCookies) { [store] in try await store.deleteCookies(cookies) }
    }

    private func remember(_ steps: [SyncPlan.Step]) {
        record.withLock { record in
            for step in steps { record[step.identity] = step.recordAfter }
        }
    }

    /// The store's unexpired cookies within the scope, by identity. When the read is empty but
    /// `expectingSome`, it is read again (up to `emptyReadRetries` times): an empty answer may be a store
    /// not loaded yet, and believed at once it would delete everything on the other side.
    private func readStore(
        expectingSome: Bool, _ report: inout CookieSyncReport
    ) async throws(CookieSyncError) -> [CookieIdentity: Cookie] {
        var cookies = try await readStore()
        var retries = 0
        while cookies.isEmpty, expectingSome, retries < emptyReadRetries {
            retries += 1
            try? await Task.sleep(for: emptyReadDelay)
            cookies = try await readStore()
        }
        report.emptyReadsRetried += retries
        return cookies
    }

    private func readStore() async throws(CookieSyncError) -> [CookieIdentity: Cookie] {
        let all = try await withTimeout(timeout, call: .allCookies) { [store] in try await store.allCookies() }
        if !all.isEmpty { storeSeenLoaded.store(true, ordering: .relaxed) }
        let now = jar.clock.now()
        return keyed(all.filter { scope.contains($0) && !$0.isExpired(at: now) })
    }

    /// Records each set that did not complete in time (`unconfirmedSets`) whose version `web`, the store
    /// as just read, now holds: both sides held it, as after a set confirmed in time, so that the plan
    /// takes the jar's later change of it (a deletion, a sign-out's) for one to copy to the store.
    private func recordLandedSets(in web: [CookieIdentity: Cookie]) {
        let carried = store.carriedFields
        let landed = unconfirmedSets.withLock { unconfirmed in
            let landed = unconfirmed.filter { identity, offered in
                web[identity].map { SyncedCookieFields($0, carried: carried) == SyncedCookieFields(offered, carried: carried) } ?? false
            }
            for identity in landed.keys { unconfirmed[identity] = nil }
            return landed
        }
        guard !landed.isEmpty else { return }
        record.withLock { record in record.merge(landed) { _, offered in offered } }
    }

    /// Records `cookies` as the version both sides held, replacing what the record held for them.
    private func recordAsHeld(_ cookies: [Cookie]) {
        guard !cookies.isEmpty else { return }
        record.withLock { record in for cookie in cookies { record[CookieIdentity(cookie)] = cookie } }
    }

    /// Records, for each site whose sign-out is unfinished, every cookie of it that `web` (the store as just
    /// read) holds, as both sides' in the version the store holds: the jar does not hold them (the sign-out
    /// deleted the site's cookies there), so the plan deletes them from the store, also one the record knew
    /// in another version (a session the web view rotated), which would otherwise be a conflict that
    /// `.preferWeb` settles by copying it into the jar. Returns the sites, which are finished once the
    /// call's steps are made, if the call writes to the store.
    private func recordCookiesOfUnfinishedSignOuts(in web: [CookieIdentity: Cookie]) -> Set<String> {
        let sites = unfinishedSignOuts.withLock { $0 }
        for site in sites {
            let inSite = Self.cookiesSignedOut(of: site, within: scope).synced
            recordAsHeld(web.values.filter(inSite))
        }
        return sites
    }

    /// Which cookies a sign-out of `site` deletes: in the jar, the site's cookies and the domain cookies of
    /// its parent domains within `scope`, which go on its requests too (rfc6265bis-22 §5.8.3 step 1: a
    /// `Domain=example.com` session cookie signs `app.example.com` in); of those, the ones the sync carries
    /// (partitioned cookies never are).
    private static func cookiesSignedOut(
        of site: String, within scope: CookieSyncScope
    ) -> (inJar: @Sendable (Cookie) -> Bool, synced: @Sendable (Cookie) -> Bool) {
        let inJar: @Sendable (Cookie) -> Bool = { cookie in
            scope.covers(cookie.domain)
                && (CookieSyncScope.domain(cookie.domain, isWithin: site)
                    || (!cookie.isHostOnly && CookieSyncScope.domain(site, isWithin: cookie.domain)))
        }
        return (inJar, { $0.partitionKey == nil && inJar($0) })
    }

    /// The jar's cookies within the scope, by identity.
    private func jarCookiesInScope() -> [CookieIdentity: Cookie] {
        keyed(jar.allCookies().filter(scope.contains))
    }

    private func keyed(_ cookies: [Cookie]) -> [CookieIdentity: Cookie] {
        Dictionary(cookies.map { (CookieIdentity($0), $0) }, uniquingKeysWith: { _, last in last })
    }

    /// True when a jar change is nothing for the sync: out of scope, or the sync's own write (an
    /// addition or replacement that leaves the jar holding what the record holds; a removal the sync is
    /// making). A removal of a cookie the record has no entry for is not an echo by that alone: a cookie
    /// whose push is in flight has none yet.
    private func isEcho(_ change: CookieChange) -> Bool {
        guard scope.contains(change.cookie) else { return true }
        let identity = CookieIdentity(change.cookie)
        switch change {
        case .added(let cookie), .replaced(_, let cookie):
            guard let recorded = record.withLock({ $0[identity] }) else { return false }
            return SyncedCookieFields(recorded, carried: .all) == SyncedCookieFields(cookie, carried: .all)
        case .removed:
            return deletingFromJar.withLock { $0.contains(identity) }
        }
    }

    @discardableResult
    private func publish(_ report: CookieSyncReport) -> CookieSyncReport {
        reportStreams.yield(report)
        return report
    }
}
