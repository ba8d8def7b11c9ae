import Dispatch

/// One jar per user, or per session, for a server that calls cookie-authenticated services on its
/// users' behalf (a backend-for-frontend): each key gets a jar of its own, so that one user's cookies
/// never go on another user's request (a single jar shared by every user of a server is the mistake
/// tough-cookie's maintainers keep warning about: salesforce/tough-cookie issues 177 and 224).
///
/// A request uses its user's jar inside `withJar(for:_:)`: while any request uses a jar, the registry keeps
/// it, so that what a response sets is stored in the jar that the registry writes and hands to the user's
/// next request. The registry holds at most `capacity` jars: past that, the one no request uses that was
/// used least recently is closed; a jar unused for `idleTimeout` seconds is closed when the registry next sweeps
/// (at most once a minute, on `withJar(for:_:)`, or when `closeIdleJars()` is called). Closing writes a
/// file-backed jar's pending changes (`CookieJar.close()`; its session cookies only when its
/// `CookieJarFileOptions.persistsSessionCookies` is set, which a server keeping its users' upstream
/// sessions sets: they are mostly session cookies); the next request of that key gets a new jar
/// from `makeJar`, which for a file-backed jar loads the file again once the closing jar has written it:
/// a request that comes while its key's jar is being made or closed waits for that (`withJar` suspends,
/// `withJarSynchronously` blocks). Jars are made outside the registry's lock, so a slow file only delays
/// its own user's requests, and the jars the registry closes by itself (evicted, idle) are closed on a
/// queue of its own, not on the request that made room. An in-memory jar's cookies are gone once it is
/// closed.
///
/// A jar whose close fails (its file could not be written) stays the key's jar, its changes pending, and
/// is closed again at the next occasion: a new jar loaded from the file would lack them while the old one,
/// still writing, holds them. So while requests use more jars at once than `capacity`, or while closes fail
/// (a full disk), the registry holds more jars than `capacity` rather than take a jar from a request or drop
/// changes; it comes back within it as requests return their jars and closes succeed.
public final class CookieJarRegistry<Key: Hashable & Sendable>: Sendable {
    /// The most jars the registry holds at once while no request uses more.
    public let capacity: Int
    /// How long, in seconds, a jar may go unused before it is closed.
    public let idleTimeout: Int64
    /// Where the registry reads the time.
    public let clock: any CookieClock
    private let makeJar: @Sendable (Key) throws -> CookieJar
    private let closeFailed: @Sendable (Key, CookieFileError) -> Void
    private let state = CookieLock(State())
    /// Where the jars that no caller waits for are closed (evicted, idle, closed while in use), off the
    /// threads of the requests, each apart: a file that is slow to write delays only its own key.
    private let closer = DispatchQueue(label: "CookieJarRegistry.closer", attributes: .concurrent)

    /// Seconds between two sweeps for idle jars on `withJar(for:_:)`.
    static var sweepInterval: Int64 { 60 }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The keys whose jar is being made, or closed, outside the lock: a request for one of them waits
        /// until that is done, so that a key never has two jars and a new jar loads what the closed one wrote.
        var changing: [Key: Change] = [:]
        /// The keys whose jar another thread was making when `closeAll()` began: closed as soon as made.
        var makesToClose: Set<Key> = []
        var lastSweep = CookieTime.distantPast

        /// Takes the jar of `key` out of `entries` to be closed outside the lock.
        mutating func takeToClose(_ key: Key) -> Closing? {
            guard let entry = entries.removeValue(forKey: key) else { return nil }
            let closing = Closing(key: key, jar: entry.jar, users: entry.users, closesWhenReturned: entry.closesWhenReturned)
            changing[key] = Change(closing: closing.jar, done: closing.done)
            return closing
        }

        /// Takes the jars that no request uses, least recently used first, until at most `capacity` are held.
        mutating func takeOverCapacity(_ capacity: Int) -> [Closing] {
            var taken: [Closing] = []
            while entries.count > capacity,
                let oldest = entries.lazy.filter({ $0.value.users == 0 }).min(by: { $0.value.lastUse < $1.value.lastUse }),
                let closing = takeToClose(oldest.key)
            {
                taken.append(closing)
            }
            return taken
        }
    }

    private struct Entry {
        let jar: CookieJar
        var lastUse: CookieTime
        /// How many `withJar` calls use the jar now.
        var users: Int
        /// `closeJar(for:)` asked for it while requests used it: it is closed when the last one returns it.
        var closesWhenReturned = false
    }

    /// A key's jar being made (no jar yet) or closed, and the group its requests wait on.
    private struct Change {
        let closing: CookieJar?
        let done: DispatchGroup
        /// How many requests returned the closing jar while it closed (`closeAll()` takes jars in use).
        var returned = 0
    }

    /// A jar being closed, and the group a request for its key waits on until it is.
    private struct Closing: Sendable {
        let key: Key
        let jar: CookieJar
        /// How many requests used it when it was taken (`closeAll()` takes jars in use): a jar that fails
        /// to close is put back as used by those of them that have not returned it meanwhile.
        let users: Int
        /// `closeJar(for:)` asked for it while requests used it: a jar that fails to close, put back as used
        /// by some of them, is closed when the last of them returns it.
        let closesWhenReturned: Bool
        let done: DispatchGroup

        init(key: Key, jar: CookieJar, users: Int, closesWhenReturned: Bool) {
            self.key = key
            self.jar = jar
            self.users = users
            self.closesWhenReturned = closesWhenReturned
            done = DispatchGroup()
            done.enter()
        }
    }

    /// What a request for a key does next.
    private enum Step {
        /// Use this jar (counted as used).
        case use(CookieJar)
        /// Wait for the key's jar to be made or closed, then ask again.
        case wait(DispatchGroup)
        /// Make the key's jar, then tell the others waiting on the group.
        case make(DispatchGroup)
    }

    /// A registry of at most `capacity` jars (at least one), each made by `makeJar` for its key (for
    /// example `CookieJar(contentsOf: folder + "/" + userID + ".sqlite", options: options)`, with
    /// `options.persistsSessionCookies` set so that a closed jar keeps its user's session cookies), closed
    /// after `idleTimeout` seconds unused. An open file-backed jar holds about three file descriptors (its
    /// file, `-wal` and `-shm`): a `capacity` of file-backed jars is sized from the process's limit on open
    /// files. `makeJar` runs with no lock held, on the thread of the request that asks first; it
    /// may call the registry, but not for its own key (that request would wait for itself). `closeFailed`
    /// hears of every jar whose file could not be written when it was closed (disk full, read-only file, a
    /// lock held too long); it is called with no lock held, and may call the registry. The jar stays the
    /// key's, its changes pending. A close of that jar that `closeFailed` asks for (`closeJar(for:)`,
    /// `closeAll()`, `closeIdleJars()`) is made on the registry's queue, once the call that asks for it has
    /// taken the jar, not within that call: a `closeFailed` that closes its key's jar again at each failure
    /// tries again and again on the queue while the failure lasts, hearing of each failure, and once a
    /// close succeeds the key has no jar.
    public init(
        capacity: Int, idleTimeout: Int64, clock: any CookieClock = SystemCookieClock(),
        makeJar: @escaping @Sendable (Key) throws -> CookieJar,
        closeFailed: @escaping @Sendable (Key, CookieFileError) -> Void
    ) {
        self.capacity = max(1, capacity)
        self.idleTimeout = idleTimeout
        self.clock = clock
        self.makeJar = makeJar
        self.closeFailed = closeFailed
    }

    /// Runs `body` with the jar of `key`: the one the registry holds, or a new one from `makeJar` (whose
    /// error this throws). The registry keeps the jar while `body` runs: it is neither evicted nor closed
    /// as idle before `body` returns, so every cookie a response sets in it is written. While the key's jar
    /// is being made or closed, this suspends until it is, or until the task is cancelled
    /// (`CancellationError`, and `body` does not run).
    public func withJar<Result>(
        for key: Key, isolation: isolated (any Actor)? = #isolation,
        _ body: (CookieJar) async throws -> Result
    ) async throws -> Result {
        let jar = try await use(key)
        defer { giveBack(jar, of: key) }
        return try await body(jar)
    }

    /// `withJar(for:_:)` for code that is not async (a thread per request): it blocks its thread, rather
    /// than suspends, while the key's jar is being made or closed. A task calls `withJar(for:_:)` instead:
    /// blocked tasks could hold every thread of Swift's concurrency pool, and with it the one that would
    /// let them go on.
    public func withJarSynchronously<Result>(for key: Key, _ body: (CookieJar) throws -> Result) throws -> Result {
        let jar = try use(key)
        defer { giveBack(jar, of: key) }
        return try body(jar)
    }

    /// Deletes every cookie of `key`'s jar, then closes it: a user signs out of the server, and the
    /// services it called for them forget them too. A key the registry holds no jar for gets one from
    /// `makeJar` first, so that a file-backed jar's file loses its cookies as well. Returns how many cookies
    /// were deleted. A request still using the jar may store cookies after this: the jar is closed, and its
    /// file written, when the last one returns it.
    @discardableResult
    public func deleteAllCookies(of key: Key) async throws -> Int {
        let deleted = try await withJar(for: key) { $0.deleteAll() }
        closeJar(for: key)
        return deleted
    }

    /// Closes every jar unused for `idleTimeout` seconds and returns how many it closed; for a periodic
    /// task, when the registry should not wait for the next `withJar(for:_:)`.
    @discardableResult
    public func closeIdleJars() -> Int {
        let now = clock.now()
        let closing = state.withLock { takeIdle(from: &$0, now: now) }
        closeHere(closing)
        return closing.count
    }

    /// Closes the jar of `key`, if the registry holds one: returns true when it does. A jar that requests
    /// use is closed when the last one returns it, on the registry's queue; until then it stays the key's
    /// jar. Closing keeps the cookies of a file-backed jar in its file (`deleteAllCookies(of:)` deletes them).
    @discardableResult
    public func closeJar(for key: Key) -> Bool {
        let closing: Closing?? = state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.users == 0 else {
                state.entries[key]?.closesWhenReturned = true
                return .some(nil)
            }
            return state.takeToClose(key)
        }
        guard let closing else { return false }
        if let closing { closeHere([closing]) }
        return true
    }

    /// Closes every jar, those requests still use included (the server stops: what they store after this
    /// is not written), after waiting for the closes already running; a jar one of those failed to write
    /// is tried again here, so that `closeFailed` hears of it before this returns. Called by `closeFailed`,
    /// it leaves the jar that `closeFailed` hears of to the registry's queue (see `init`), and may return
    /// before that jar is closed. A jar another thread's `makeJar` is making meanwhile is not waited for: it
    /// is closed as soon as it is made, on that thread, before its request has it (a `makeJar` may call this
    /// to free file descriptors, and the jar it makes stays open).
    public func closeAll() {
        let madeHere = RegistryKey.jarsMadeHere
        let running = state.withLock { state in
            // A jar being made is closed as soon as it is made, but for one this thread's `makeJar` makes.
            for (key, change) in state.changing where change.closing == nil && !madeHere.contains(RegistryKey(registry: self, key: key)) {
                state.makesToClose.insert(key)
            }
            return state.changing.values.filter { $0.closing != nil }.map(\.done)
        }
        for done in running { done.wait() }
        let closing = state.withLock { state in state.entries.keys.compactMap { state.takeToClose($0) } }
        closeHere(closing)
    }

    /// How many jars the registry holds.
    public var count: Int { state.withLock { $0.entries.count } }

    // MARK: Using and returning a jar

    /// The jar of `key`, counted as used: the next step of `withJar`, waiting as long as it says.
    private func use(_ key: Key) async throws -> CookieJar {
        while true {
            switch nextStep(for: key) {
            case .use(let jar): return jar
            case .make(let done): return try make(key, telling: done)
            case .wait(let done): try await GroupWait.wait(for: done)
            }
        }
    }

    /// `use(_:)` for synchronous code.
    private func use(_ key: Key) throws -> CookieJar {
        while true {
            switch nextStep(for: key) {
            case .use(let jar): return jar
            case .make(let done): return try make(key, telling: done)
            case .wait(let done): done.wait()
            }
        }
    }

    /// What a request for `key` does next; sweeps for idle jars when a sweep is due, and closes them on
    /// the registry's queue.
    private func nextStep(for key: Key) -> Step {
        let now = clock.now()
        let (step, idle): (Step, [Closing]) = state.withLock { state in
            let idle = state.lastSweep.adding(seconds: Self.sweepInterval) <= now ? takeIdle(from: &state, now: now, sparing: key) : []
            if state.entries[key] != nil {
                state.entries[key]!.users += 1
                state.entries[key]!.lastUse = now
                return (.use(state.entries[key]!.jar), idle)
            }
            if let change = state.changing[key] { return (.wait(change.done), idle) }
            let done = DispatchGroup()
            done.enter()
            state.changing[key] = Change(closing: nil, done: done)
            return (.make(done), idle)
        }
        closeLater(idle)
        return step
    }

    /// Makes the jar of `key` with no lock held, counted as used once it is in the registry, and wakes the
    /// requests waiting for it (on a failure they try again themselves).
    private func make(_ key: Key, telling done: DispatchGroup) throws -> CookieJar {
        let makingHere = RegistryKey.jarsMadeHere.union([RegistryKey(registry: self, key: key)])
        let made = Swift.Result { try RegistryKey.$jarsMadeHere.withValue(makingHere) { try makeJar(key) } }
        let now = clock.now()
        let (evicted, closing) = state.withLock { state -> ([Closing], Closing?) in
            state.changing[key] = nil
            let closesAtOnce = state.makesToClose.remove(key) != nil
            guard case .success(let jar) = made else { return ([], nil) }
            state.entries[key] = Entry(jar: jar, lastUse: now, users: 1)
            // Made while `closeAll()` closed the others: closed as the jars in use then were.
            if closesAtOnce { return ([], state.takeToClose(key)) }
            return (state.takeOverCapacity(capacity), nil)
        }
        done.leave()
        closeLater(evicted)
        if let closing { closeHere([closing]) }
        return try made.get()
    }

    /// Ends a use of `jar` by a request: the jar counts as used now, and the jars over the capacity, or
    /// this one if it was asked to close, are closed on the registry's queue once no request uses them.
    private func giveBack(_ jar: CookieJar, of key: Key) {
        let now = clock.now()
        let closing = state.withLock { state -> [Closing] in
            guard var entry = state.entries[key], entry.jar === jar else {
                // `closeAll()` took it meanwhile: if that close fails, the jar is put back as used by the
                // requests that have not returned it.
                if state.changing[key]?.closing === jar { state.changing[key]!.returned += 1 }
                return []
            }
            entry.users -= 1
            entry.lastUse = now
            state.entries[key] = entry
            var closing = state.takeOverCapacity(capacity)
            if entry.users == 0, entry.closesWhenReturned, state.entries[key] != nil, let asked = state.takeToClose(key) {
                closing.append(asked)
            }
            return closing
        }
        closeLater(closing)
    }

    // MARK: Closing

    /// Removes the jars idle at `now` that no request uses from `state`, but the jar of `sparing` (a
    /// request for it is about to use it), and returns them, to be closed outside the lock.
    private func takeIdle(from state: inout State, now: CookieTime, sparing: Key? = nil) -> [Closing] {
        state.lastSweep = now
        let idle = state.entries.filter {
            $0.key != sparing && $0.value.users == 0 && $0.value.lastUse.adding(seconds: idleTimeout) <= now
        }
        return idle.keys.compactMap { state.takeToClose($0) }
    }

    /// Closes each of `jars` on the registry's queue, and tells `closeFailed` of a failure there.
    private func closeLater(_ jars: [Closing]) {
        for closing in jars {
            closer.async { self.report(self.close([closing])) }
        }
    }

    /// Closes `jars` on this thread, for a caller that waits for them, and tells `closeFailed` of each
    /// failure; but a jar whose failure to close `closeFailed` is hearing of on this thread is closed on the
    /// registry's queue. Closed here, it could fail again and be reported within that `closeFailed`, which
    /// may close it again, and so on while the failure lasts, until the stack overflows.
    private func closeHere(_ jars: [Closing]) {
        let heard = RegistryKey.closeFailuresHeard
        let isHeard = { (closing: Closing) in heard.contains(RegistryKey(registry: self, key: closing.key)) }
        closeLater(jars.filter(isHeard))
        report(close(jars.filter { !isHeard($0) }))
    }

    /// Tells `closeFailed` of each jar that could not be written, noting for `closeHere(_:)`, while it
    /// runs, that it hears of that key's failure.
    private func report(_ failures: [(Key, CookieFileError)]) {
        for (key, failure) in failures {
            let heard = RegistryKey.closeFailuresHeard.union([RegistryKey(registry: self, key: key)])
            RegistryKey.$closeFailuresHeard.withValue(heard) { closeFailed(key, failure) }
        }
    }

    /// Closes `jars` (taken into `State.changing`) on this thread, then lets their keys have new jars and
    /// wakes the requests that wait for them. A jar that could not be written is put back as its key's jar
    /// (used now, by the requests that used it and have not returned it), its changes pending; the failures
    /// are returned, to be reported once the requests are woken. A jar put back that no request uses is
    /// closed again at the next occasion (idle, evicted, `closeJar(for:)`), not at once, even when
    /// `closeJar(for:)` asked for it to be closed once returned: this close was that one.
    private func close(_ jars: [Closing]) -> [(Key, CookieFileError)] {
        var failures: [(Key, CookieFileError)] = []
        for closing in jars {
            var failure: CookieFileError?
            do throws(CookieFileError) {
                try closing.jar.close()
            } catch {
                failure = error
            }
            let now = clock.now()
            state.withLock { state in
                var returned = 0
                if let change = state.changing[closing.key], change.closing === closing.jar {
                    returned = change.returned
                    state.changing[closing.key] = nil
                }
                // No new jar of the key is made while this one closes: the key has none.
                if failure != nil {
                    let users = closing.users - returned
                    state.entries[closing.key] = Entry(
                        jar: closing.jar, lastUse: now, users: users, closesWhenReturned: closing.closesWhenReturned && users > 0)
                }
            }
            closing.done.leave()
            if let failure { failures.append((closing.key, failure)) }
        }
        return failures
    }
}

/// A key of one registry, which the task-locals below name.
private struct RegistryKey: Hashable, Sendable {
    let registry: ObjectIdentifier
    let key: any Hashable & Sendable

    init<Key>(registry: CookieJarRegistry<Key>, key: Key) {
        self.registry = ObjectIdentifier(registry)
        self.key = key
    }

    /// The keys whose failure to close a jar `closeFailed` hears of on this thread (or task): the one
    /// called first, and those called within it.
    @TaskLocal static var closeFailuresHeard: Set<RegistryKey> = []

    /// The keys whose jar `makeJar` is making on this thread (or task): a `closeAll()` it calls leaves them.
    @TaskLocal static var jarsMadeHere: Set<RegistryKey> = []

    static func == (one: Self, other: Self) -> Bool {
        one.registry == other.registry && AnyHashable(one.key) == AnyHashable(other.key)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(registry)
        hasher.combine(AnyHashable(key))
    }
}
