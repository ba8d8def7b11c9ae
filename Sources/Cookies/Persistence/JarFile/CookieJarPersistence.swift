import Synchronization

/// A jar's side of its `CookieJarStore`: it learns what changed from the jar's change events, remembers
/// the latest change of each identity (cheaply, under a lock, on the thread that made the change, before
/// the change's call returns), and hands them to the store in one write per batch — after
/// `options.flushDelay`, on flush and on close.
///
/// Last-access times change on retrieval without a change event (§5.8.3 step 3). Like browsers, the
/// store keeps them only roughly: a flush at least `lastAccessWriteInterval` after the previous
/// last-access sweep writes the time of every cookie used since, so a stored time lags the jar's by at
/// most that interval plus the time to the next flush (`close` always sweeps).
final class CookieJarPersistence: Sendable {
    /// How stale a stored last-access time may get: Chromium and Firefox write last-access updates at
    /// most once a minute (Chromium `kLastAccessThreshold`, 60 s).
    static let lastAccessWriteInterval: Int64 = 60

    /// The store, as the jar's API (`flush(to:)`) is given it back.
    let store: any CookieJarStore
    let options: CookieWriteOptions
    /// The cookies the store held that the jar did not load: no jar may hold them.
    let cookiesNotLoaded: [CookieNotLoaded]
    /// Held through each write, so that writes never interleave; false once closed.
    private let isOpen: CookieLock<Bool>
    private let pending: CookieLock<Pending>
    /// True when a change asked for a background flush that is not scheduled yet: it is, once the jar's
    /// lock is released (`scheduleFlushIfWanted(for:)`; a scheduler may run its work at once). Atomic, so
    /// that a call of the jar that changed nothing to write reads it without taking a lock.
    private let isFlushWanted = Atomic<Bool>(false)
    /// Flushes the jar to `store` (a background flush), whatever the store's type.
    private let backgroundFlush: @Sendable (CookieJar) throws -> Void
    /// How many writes `close` makes of the changes made during its own before the last one.
    static let closeRounds = 2

    /// The shortest and the longest pause before a failed background write is made again.
    static let retryDelays = Duration.milliseconds(100)...Duration.seconds(60)

    /// What the store holds under an identity whose writes are pending: the version the jar held before
    /// them (what it replaced or removed, when that had been written), or whatever it is, a removal asked for
    /// (a deletion, a sign-out) being among them, which deletes it, whoever wrote it.
    private enum StoreBase: Equatable {
        case holds(Cookie)
        case deletionAsked
    }

    private struct Pending {
        /// The latest change of each identity not yet written.
        var writes: [CookieIdentity: CookieWrite] = [:]
        /// For the identities in `writes`, what the store holds under them (`StoreBase`), absent when it holds
        /// none of the jar's: what a removal of the jar's own accord of a cookie never written removes
        /// instead (`following(_:base:with:)`).
        var bases: [CookieIdentity: StoreBase] = [:]
        /// True from when a background flush is scheduled until it is done, its write included: it writes
        /// the changes made until then, and schedules the next flush for those made during its write, or
        /// its retry when the write fails (`scheduleBackgroundFlush`). A change schedules none meanwhile.
        var isFlushScheduled = false
        /// True while the jar enforces its limits on the loaded cookies: the evictions are written at the
        /// next flush, without scheduling one.
        var isLoading = true
        /// The cookies the limits evicted from those loaded, by site and limit.
        var evictionsAtLoading: [CookieEviction] = []
        /// When the last last-access sweep ran; cookies used after it have unwritten last-access times.
        var lastAccessSweep: CookieTime
        /// Set by `close` once everything recorded is written: later changes are not recorded.
        var isClosed = false
    }

    init<Store: CookieJarStore>(store: Store, options: CookieWriteOptions, now: CookieTime, notLoaded: [CookieNotLoaded]) {
        self.store = store
        self.options = options
        cookiesNotLoaded = notLoaded
        isOpen = CookieLock(true)
        pending = CookieLock(Pending(lastAccessSweep: now))
        backgroundFlush = { [weak store] jar in
            if let store { _ = try jar.flush(to: store) }
        }
    }

    /// Starts following `jar`'s changes (a jar made with the loaded cookies), records `purged` (the
    /// writes that remove what the store holds and the jar did not load: expired cookies, session cookies
    /// not kept), then enforces the jar's limits, never evicting a cookie with the identity of one of
    /// `kept`. Cookies the jar evicts then are deleted from the store at the next flush.
    func attach(to jar: CookieJar, purging purged: [CookieWrite] = [], keeping kept: [Cookie] = []) {
        jar.setRecorder { [weak self] change, now in self?.record(change, now: now) }
        pending.withLock { pending in
            for write in purged {
                pending.writes[write.identity] = write
                // What the store holds under it, for a cookie of its identity let go before the flush.
                switch write {
                case .delete: pending.bases[write.identity] = .deletionAsked
                case .deleteIfUnchanged(let cookie): pending.bases[write.identity] = .holds(cookie)
                case .upsert: break
                }
            }
        }
        let evictions = jar.enforceLimitsAfterLoading(keeping: kept)
        pending.withLock { pending in
            pending.isLoading = false
            pending.evictionsAtLoading = evictions
        }
    }

    /// True for the cookies the store keeps.
    func isWritten(_ cookie: Cookie) -> Bool {
        cookie.isPersistent || options.persistsSessionCookies
    }

    /// Remembers one change, made by a call at `now` (with the jar's lock held, so the clock is not called
    /// here); asks for a background flush if none is scheduled.
    private func record(_ change: CookieChange, now: CookieTime?) {
        let write: CookieWrite?
        switch change {
        case .added(let cookie):
            write = isWritten(cookie) ? .upsert(cookie) : nil
        case .replaced(let old, let cookie):
            // A session cookie that replaced a persistent one removes the persistent one.
            write = isWritten(cookie) ? .upsert(cookie) : isWritten(old) ? .delete(CookieIdentity(old)) : nil
        case .removed(let cookie, let cause):
            // Let go by the jar on its own (its expiry passed by the call's time, or the limits evicted
            // it), it stays in a store that holds a newer version; a removal asked for (a server's already
            // expired Set-Cookie for a live cookie, a deletion, a sign-out) wins.
            let isOwnAccord = cause == .evicted || (cause == .expired && now.map(cookie.isExpired(at:)) == true)
            write = !isWritten(cookie) ? nil : isOwnAccord ? .deleteIfUnchanged(cookie) : .delete(CookieIdentity(cookie))
        }
        guard let write else { return }
        let identity = CookieIdentity(change.cookie)
        pending.withLock { pending in
            guard !pending.isClosed else { return }
            let older = pending.writes[identity]
            if older == nil {
                // The store holds what the jar held before this change, when that was written.
                let before: Cookie? = switch change {
                case .added: nil
                case .replaced(let old, _), .removed(let old, _): old
                }
                pending.bases[identity] = before.flatMap { isWritten($0) ? .holds($0) : nil }
            }
            if case .delete = write { pending.bases[identity] = .deletionAsked }
            pending.writes[identity] = Self.following(older, base: pending.bases[identity], with: write)
            guard options.flushDelay != nil, !pending.isFlushScheduled, !pending.isLoading else { return }
            pending.isFlushScheduled = true
            isFlushWanted.store(true, ordering: .releasing)
        }
    }

    /// The changes of a flush: `writes`, the cookies whose last-access time is due (`lastAccess`), and what
    /// `bases` tells of the upserts.
    private static func changes(
        _ writes: [CookieIdentity: CookieWrite], bases: [CookieIdentity: StoreBase], lastAccess: [Cookie] = []
    ) -> CookieJarChanges {
        CookieJarChanges(
            writes: writes, lastAccess: lastAccess, insertedAfterRemoval: insertedAfterRemoval(writes, bases: bases),
            insertedInPlaceOf: insertedInPlaceOf(writes, bases: bases))
    }

    /// The identities of `writes` whose upsert stores a cookie of another creation time than the version
    /// the store holds (`bases`), with that version: a cookie that replaced it would have kept its creation
    /// time (§5.7 step 23.3), so the jar let it go (expired or evicted) and the cookie came after, or an
    /// insertion put the cookie in its place (`CookieJarChanges.insertedInPlaceOf`).
    private static func insertedInPlaceOf(
        _ writes: [CookieIdentity: CookieWrite], bases: [CookieIdentity: StoreBase]
    ) -> [CookieIdentity: Cookie] {
        var versions: [CookieIdentity: Cookie] = [:]
        for (identity, write) in writes {
            guard case .upsert(let cookie) = write, case .holds(let version)? = bases[identity],
                cookie.creation != version.creation
            else { continue }
            versions[identity] = version
        }
        return versions
    }

    /// The identities of `writes` whose upsert stores a cookie set after the store was told to remove the
    /// cookie of that identity (`bases`): that cookie replaces no old-cookie (§5.7 step 24), and keeps its
    /// own creation time (`CookieJarChanges.insertedAfterRemoval`).
    private static func insertedAfterRemoval(
        _ writes: [CookieIdentity: CookieWrite], bases: [CookieIdentity: StoreBase]
    ) -> Set<CookieIdentity> {
        Set(writes.compactMap { identity, write in
            guard case .upsert = write, bases[identity] == .deletionAsked else { return nil }
            return identity
        })
    }

    /// The write that stands for `newer` after `older`, an unwritten write of the same identity, while the
    /// store holds `base` (nil: none of the jar's). A removal of the jar's own accord (`.deleteIfUnchanged`)
    /// of a cookie never written would remove nothing, and leave the version before it in the store, to come
    /// back at the next load (a session rotated, or signed out and in again, then expired or evicted before
    /// the flush): it removes that version instead, while unchanged, or whatever the store holds when a
    /// removal was asked for meanwhile; with no base, nothing is written (nil).
    private static func following(_ older: CookieWrite?, base: StoreBase?, with newer: CookieWrite) -> CookieWrite? {
        guard case .deleteIfUnchanged = newer, case .upsert = older else { return newer }
        switch base {
        case .holds(let cookie)?: return .deleteIfUnchanged(cookie)
        case .deletionAsked?: return .delete(newer.identity)
        case nil: return nil
        }
    }

    /// Schedules the background flush a change asked for, if any (the jar's lock released).
    func scheduleFlushIfWanted(for jar: CookieJar) {
        guard isFlushWanted.load(ordering: .relaxed), isFlushWanted.exchange(false, ordering: .acquiring),
            let delay = options.flushDelay
        else { return }
        scheduleBackgroundFlush(for: jar, after: delay)
    }

    /// Flushes `jar` `delay` from now, then, while changes are pending (made during the write, or back
    /// among the pending ones when it failed), schedules the next flush. A flush that fails is told to
    /// `options.backgroundWriteFailed` and made again after twice the pause (within `retryDelays`: a
    /// `flushDelay` of zero retries after 100 ms, not at once), with the changes made meanwhile: no change
    /// schedules a flush of its own before it (`Pending.isFlushScheduled`), so the pauses double however
    /// many changes are made. After a write that succeeds, the changes made during it are flushed
    /// `flushDelay` later.
    private func scheduleBackgroundFlush(for jar: CookieJar, after delay: Duration) {
        options.scheduler.schedule(after: delay) { [weak self, weak jar] in
            guard let self, let jar else { return }
            var failed = false
            do {
                try self.backgroundFlush(jar)
            } catch {
                self.options.backgroundWriteFailed?(error)
                failed = true
            }
            let next: Duration? = pending.withLock { pending in
                // Nothing is pending once the jar is closed.
                guard !pending.writes.isEmpty, let flushDelay = options.flushDelay else {
                    pending.isFlushScheduled = false
                    return nil
                }
                return failed ? min(max(delay * 2, Self.retryDelays.lowerBound), Self.retryDelays.upperBound) : flushDelay
            }
            if let next { self.scheduleBackgroundFlush(for: jar, after: next) }
        }
    }

    /// The cookies the jar's limits evicted from those it loaded, by site and limit.
    var evictionsAtLoading: [CookieEviction] { pending.withLock { $0.evictionsAtLoading } }

    /// True when changes wait for the next flush.
    var hasPendingChanges: Bool { pending.withLock { !$0.writes.isEmpty } }

    /// True when a flush at `now` sweeps the last-access times.
    func isLastAccessSweepDue(now: CookieTime) -> Bool {
        pending.withLock { Self.isSweepDue(after: $0.lastAccessSweep, at: now) }
    }

    /// True when a sweep at `now` is due after one at `lastSweep`.
    private static func isSweepDue(after lastSweep: CookieTime, at now: CookieTime) -> Bool {
        now >= lastSweep.adding(seconds: lastAccessWriteInterval)
    }

    /// Hands `write` every pending change, and the last-access times when a sweep is due (or `sweep`),
    /// under the write lock. Returns what `write` returns (0 when there was nothing to write, or once
    /// closed). When it throws, the changes go back to the pending ones.
    func flush<Failure: Error>(
        _ jar: CookieJar, sweepingLastAccess sweep: Bool = false,
        _ write: (CookieJarChanges) throws(Failure) -> Int
    ) throws(Failure) -> Int {
        let result: Result<Int, Failure> = isOpen.withLock { isOpen in
            guard isOpen else { return .success(0) }
            return Result { () throws(Failure) in try flushLocked(jar, sweep: sweep, write) }
        }
        return try result.get()
    }

    /// `flush`, with the write lock held.
    private func flushLocked<Failure: Error>(
        _ jar: CookieJar, sweep: Bool, _ write: (CookieJarChanges) throws(Failure) -> Int
    ) throws(Failure) -> Int {
        let now = jar.clock.now()
        let (writes, bases, lastSweep) = pending.withLock { pending in
            let (writes, bases) = (pending.writes, pending.bases)
            pending.writes.removeAll()
            pending.bases.removeAll()
            return (writes, bases, pending.lastAccessSweep)
        }
        let sweeps = sweep || Self.isSweepDue(after: lastSweep, at: now)
        let accessed =
            // Since the last sweep, its own instant included: a cookie used in the same tick of the clock
            // as the sweep (a coarse clock's ticks are milliseconds long) was used after it as often as not.
            sweeps ? jar.cookies(accessedSince: lastSweep).filter { isWritten($0) && writes[CookieIdentity($0)] == nil } : []
        let changes = Self.changes(writes, bases: bases, lastAccess: accessed)
        var changed = 0
        if !changes.isEmpty {
            do {
                changed = try write(changes)
            } catch {
                // Changes made since the snapshot are newer than the ones that failed, and the store still
                // holds the snapshot's bases.
                pending.withLock { pending in
                    for (identity, write) in writes {
                        let asked = pending.bases[identity] == .deletionAsked
                        pending.writes[identity] = pending.writes[identity].map { Self.following(write, base: bases[identity], with: $0) } ?? write
                        pending.bases[identity] = asked ? .deletionAsked : bases[identity]
                    }
                }
                throw error
            }
        }
        if sweeps { pending.withLock { $0.lastAccessSweep = now } }
        return changed
    }

    /// Flushes with a last-access sweep (through `write`), stops following the jar and closes the store.
    /// The jar keeps its cookies in memory; later changes are not written. When a flush throws, the store
    /// stays open and the jar followed: its changes, those made meanwhile included, stay pending.
    ///
    /// All of it holds the write lock, so that no other flush's write, failing, puts changes back among the
    /// pending ones after the close found none. What changed during a write is written too, by another, up
    /// to `closeRounds` of them (a jar that other threads change during every write would keep the close
    /// going for as long as they do); what is recorded during the last write that succeeds is later than the
    /// close, and dropped. A write that fails drops nothing.
    func close<Failure: Error>(
        _ jar: CookieJar, _ write: (CookieJarChanges) throws(Failure) -> Int
    ) throws(Failure) {
        let result: Result<Void, Failure> = isOpen.withLock { isOpen in
            guard isOpen else { return .success(()) }
            return Result { () throws(Failure) in
                _ = try flushLocked(jar, sweep: true, write)
                var rounds = 0
                while rounds < Self.closeRounds, pending.withLock({ !$0.writes.isEmpty }) {
                    _ = try flushLocked(jar, sweep: false, write)
                    rounds += 1
                }
                pending.withLock { pending in
                    pending.isClosed = true
                    pending.writes.removeAll()
                    pending.bases.removeAll()
                }
                store.close()
                isOpen = false
            }
        }
        try result.get()
        jar.removeRecorder()
    }

    /// A jar dropped without `close` still writes its pending changes (errors cannot be reported here:
    /// `close` reports them).
    deinit {
        let (writes, bases) = pending.withLock { ($0.writes, $0.bases) }
        isOpen.withLock { isOpen in
            guard isOpen, !writes.isEmpty else { return }
            _ = try? store.write(Self.changes(writes, bases: bases))
        }
    }
}
