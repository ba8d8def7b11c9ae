import Dispatch

/// One jar per user, or per session, for a server that calls cookie-authenticated services on its
/// users' behalf (a backend-for-frontend): each key gets a jar of its own, so that one user's cookies
/// never go on another user's request (a single jar shared by every user of a server is the mistake
/// tough-cookie's maintainers keep warning about: salesforce/tough-cookie issues 177 and 224).
///
/// The registry holds at most `capacity` jars. Asking for a key past that closes the jar used least
/// recently; a jar not used for `idleTimeout` seconds is closed when the registry next sweeps (at most
/// once a minute, on `jar(for:)`, or when `closeIdleJars()` is called). Closing writes a file-backed
/// jar's pending changes (`CookieJar.close()`); the next `jar(for:)` of that key makes a new jar with
/// `makeJar`, which for a file-backed jar loads the file again, once the closing jar has written it. An
/// in-memory jar's cookies are gone once it is closed. A jar handed out before it was closed keeps working
/// in memory, but its later changes are not written. A jar whose close fails (its file could not be
/// written) stays the key's jar, its changes pending, and is closed again at the next occasion: a new jar
/// loaded from the file would lack them while the old one, still writing, holds them. So while closes fail
/// (a full disk), the registry may hold more jars than `capacity`, rather than drop their changes; the idle
/// sweep brings it back within it once they succeed.
public final class CookieJarRegistry<Key: Hashable & Sendable>: Sendable {
    /// The most jars the registry holds at once.
    public let capacity: Int
    /// How long, in seconds, a jar may go unused before it is closed.
    public let idleTimeout: Int64
    /// Where the registry reads the time.
    public let clock: any CookieClock
    private let makeJar: @Sendable (Key) throws -> CookieJar
    private let closeFailed: @Sendable (Key, CookieFileError) -> Void
    private let state = CookieLock(State())

    /// Seconds between two sweeps for idle jars on `jar(for:)`.
    static var sweepInterval: Int64 { 60 }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The jars taken out of `entries` and being closed outside the lock: a new jar of their key is
        /// made only once they are closed, so that it loads what they wrote.
        var closing: [Key: Closing] = [:]
        var lastSweep = CookieTime.distantPast

        /// Takes `jar` of `key` out of `entries` to be closed outside the lock.
        mutating func takeToClose(_ key: Key, _ jar: CookieJar) -> Closing {
            entries[key] = nil
            let closing = Closing(key: key, jar: jar)
            self.closing[key] = closing
            return closing
        }
    }

    /// A jar being closed, and the group a request for its key waits on until it is.
    private struct Closing: Sendable {
        let key: Key
        let jar: CookieJar
        let done: DispatchGroup

        init(key: Key, jar: CookieJar) {
            self.key = key
            self.jar = jar
            done = DispatchGroup()
            done.enter()
        }
    }

    private struct Entry {
        let jar: CookieJar
        var lastUse: CookieTime
    }

    /// A registry of at most `capacity` jars (at least one), each made by `makeJar` for its key (for
    /// example `CookieJar(contentsOf: folder + "/" + userID + ".sqlite")`), closed after `idleTimeout`
    /// seconds unused. `closeFailed` hears of every jar whose file could not be written when it was
    /// closed (disk full, read-only file, a lock held too long); it is called with no lock held, and may
    /// call the registry. The jar stays the key's, its changes pending.
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

    /// The jar of `key`: the one the registry holds, or a new one from `makeJar` (whose error this
    /// throws). Making a jar happens under the registry's lock, so that two requests of one user never
    /// get two jars; while the key's previous jar is being closed, it is made once that jar is closed
    /// (its changes written), waiting for the call that took it to close it.
    public func jar(for key: Key) throws -> CookieJar {
        let now = clock.now()
        while true {
            let (made, closing, previous): (Result<CookieJar, any Error>?, [Closing], Closing?) = state.withLock { state in
                var closing: [Closing] = []
                if state.lastSweep.adding(seconds: Self.sweepInterval) <= now {
                    closing = takeIdle(from: &state, now: now)
                }
                if let entry = state.entries[key] {
                    state.entries[key]?.lastUse = now
                    return (.success(entry.jar), closing, nil)
                }
                if let previous = state.closing[key] { return (nil, closing, previous) }
                // A failure is returned, not thrown: the jars the sweep took are closed all the same (else
                // their changes would never be written, and a request of one of their keys would wait for
                // their closing for ever).
                let jar: CookieJar
                do {
                    jar = try makeJar(key)
                } catch {
                    return (.failure(error), closing, nil)
                }
                if state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                    closing.append(state.takeToClose(oldest.key, oldest.value.jar))
                }
                state.entries[key] = Entry(jar: jar, lastUse: now)
                return (.success(jar), closing, nil)
            }
            close(closing)
            if let made { return try made.get() }
            // The key's previous jar is still being closed, by the call that took it: wait for its end.
            previous?.done.wait()
        }
    }

    /// Closes every jar unused for `idleTimeout` seconds and returns how many it closed; for a periodic
    /// task, when the registry should not wait for the next `jar(for:)`.
    @discardableResult
    public func closeIdleJars() -> Int {
        let now = clock.now()
        let closing = state.withLock { takeIdle(from: &$0, now: now) }
        close(closing)
        return closing.count
    }

    /// Closes the jar of `key`, if the registry holds one (a user signs out): returns true when it did.
    @discardableResult
    public func closeJar(for key: Key) -> Bool {
        let closing = state.withLock { state in state.entries[key].map { state.takeToClose(key, $0.jar) } }
        guard let closing else { return false }
        close([closing])
        return true
    }

    /// Closes every jar (the server stops).
    public func closeAll() {
        let closing = state.withLock { state in state.entries.map { state.takeToClose($0.key, $0.value.jar) } }
        close(closing)
    }

    /// How many jars the registry holds.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Removes the jars idle at `now` from `state` and returns them, to be closed outside the lock.
    private func takeIdle(from state: inout State, now: CookieTime) -> [Closing] {
        state.lastSweep = now
        let idle = state.entries.filter { $0.value.lastUse.adding(seconds: idleTimeout) <= now }
        return idle.map { state.takeToClose($0.key, $0.value.jar) }
    }

    /// Closes `jars` (taken into `State.closing`), then lets their keys have new jars and wakes the
    /// requests that wait for them. A jar that could not be written is put back as its key's jar (used
    /// now), its changes pending, and `closeFailed` hears of it, once the requests are woken.
    private func close(_ jars: [Closing]) {
        for closing in jars {
            var failure: CookieFileError?
            do throws(CookieFileError) {
                try closing.jar.close()
            } catch {
                failure = error
            }
            let now = clock.now()
            state.withLock { state in
                if state.closing[closing.key]?.jar === closing.jar { state.closing[closing.key] = nil }
                // No new jar of the key is made while this one closes: the key has none.
                if failure != nil { state.entries[closing.key] = Entry(jar: closing.jar, lastUse: now) }
            }
            closing.done.leave()
            if let failure { closeFailed(closing.key, failure) }
        }
    }
}
