import Cookies

@testable import CookiesFoundation

/// A platform cookie store in memory that misbehaves as WKHTTPCookieStore and Foundation have been seen
/// to: completions that come late or never, an empty first read (a cold start), change signals one per
/// cookie, one per call (coalesced), none, or spurious, and SameSite and HttpOnly dropped. It counts the
/// calls made on it, and plays the web content too (`webSets`, `webDeletes`).
final class FaultInjectingCookieStore: PlatformCookieStore {
    /// When a call completes.
    enum Completion: Sendable {
        case immediate
        /// The call takes effect and completes after the delay.
        case late(Duration)
        /// The call never takes effect nor completes.
        case never
    }

    /// How writes are signalled.
    enum Signalling: Sendable {
        case perCookie, perCall, none
    }

    struct Faults: Sendable {
        var reads = Completion.immediate
        var sets = Completion.immediate
        var deletes = Completion.immediate
        /// How many reads, from the next one, answer empty whatever the store holds.
        var emptyReads = 0
        var signalling = Signalling.perCookie
        /// Cookies come back without SameSite (swift-corelibs-foundation has none), HttpOnly and Secure (as
        /// its storage's file gives them back), and the store says it carries none of them.
        var dropsAttributes = false
        /// Cookies of these names are not stored, and a set of them throws `PlatformCookieStoreRefusal`
        /// after storing the others (as `HTTPCookie(_:)` refuses a cookie Foundation cannot represent).
        var refusedNames: Set<String> = []
        /// Cookies of these names are not stored, and the set completes as if they were (`HTTPCookieStorage`
        /// whose accept policy is `.never`, WebKit given a cookie it rejects).
        var droppedNames: Set<String> = []
        /// Cookies of these names stay when deleted, and the deletion completes as if they went (a store
        /// that completes a call it did not carry out).
        var undeletedNames: Set<String> = []
        /// Called once with the store's contents after the next deletion (web content setting a cookie
        /// while a sign-out runs).
        var afterNextDelete: (@Sendable (FaultInjectingCookieStore) -> Void)?
        /// Called once after the next set (the page changing a cookie right after the sync wrote it).
        var afterNextSet: (@Sendable (FaultInjectingCookieStore) -> Void)?
    }

    private struct State {
        var cookies: [CookieIdentity: Cookie] = [:]
        var faults = Faults()
        var calls: [CookieSyncError.PlatformCall: Int] = [:]
        /// Calls that will never complete, held so that their continuations are not leaked.
        var stalled: [CheckedContinuation<Void, Never>] = []
    }

    private let state = CookieLock(State())
    private let signals = Broadcast<Void>()

    init(_ cookies: [Cookie] = [], faults: Faults = Faults()) {
        state.withLock { state in
            for cookie in cookies { state.cookies[CookieIdentity(cookie)] = cookie }
            state.faults = faults
        }
    }

    var faults: Faults {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// What the store holds, by name.
    var contents: [String: Cookie] {
        Dictionary(state.withLock { Array($0.cookies.values) }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// How many change-signal streams are open.
    var signalSubscribers: Int { signals.subscriberCount }

    func calls(_ call: CookieSyncError.PlatformCall) -> Int { state.withLock { $0.calls[call, default: 0] } }

    // MARK: The web content's own changes

    /// The page (or a response in the web view) sets a cookie.
    func webSets(_ cookie: Cookie) {
        state.withLock { $0.cookies[CookieIdentity(cookie)] = cookie }
        signal()
    }

    /// The page deletes a cookie.
    func webDeletes(_ name: String) {
        state.withLock { state in state.cookies = state.cookies.filter { $0.value.name != name } }
        signal()
    }

    /// A change signal, spurious unless something changed.
    func signal() {
        signals.yield(())
    }

    // MARK: PlatformCookieStore

    func allCookies() async throws -> [Cookie] {
        let completion = state.withLock { state in
            state.calls[.allCookies, default: 0] += 1
            return state.faults.reads
        }
        try await complete(completion)
        return state.withLock { state in
            if state.faults.emptyReads > 0 {
                state.faults.emptyReads -= 1
                return []
            }
            return state.cookies.values.map { cookie in
                guard state.faults.dropsAttributes else { return cookie }
                var dropped = cookie
                dropped.sameSite = .default
                dropped.isHTTPOnly = false
                dropped.isSecure = false
                return dropped
            }
        }
    }

    func setCookies(_ cookies: [Cookie]) async throws {
        let (refusedNames, droppedNames) = state.withLock { ($0.faults.refusedNames, $0.faults.droppedNames) }
        let refused = cookies.filter { refusedNames.contains($0.name) }
        let stored = cookies.filter { !refusedNames.contains($0.name) && !droppedNames.contains($0.name) }
        try await write(.setCookies, stored) { state in
            for cookie in stored { state.cookies[CookieIdentity(cookie)] = cookie }
        }
        if let hook = state.withLock({ state in defer { state.faults.afterNextSet = nil }; return state.faults.afterNextSet }) {
            hook(self)
        }
        if !refused.isEmpty { throw PlatformCookieStoreRefusal(cookies: refused) }
    }

    func deleteCookies(_ cookies: [Cookie]) async throws {
        let undeletedNames = state.withLock { $0.faults.undeletedNames }
        try await write(.deleteCookies, cookies) { state in
            for cookie in cookies where !undeletedNames.contains(cookie.name) { state.cookies[CookieIdentity(cookie)] = nil }
        }
        if let hook = state.withLock({ state in defer { state.faults.afterNextDelete = nil }; return state.faults.afterNextDelete }) {
            hook(self)
        }
    }

    func changeSignals() -> AsyncStream<Void> { signals.makeStream() }

    var carriedFields: CarriedCookieFields {
        state.withLock { $0.faults.dropsAttributes } ? [] : .all
    }

    private func write(
        _ call: CookieSyncError.PlatformCall, _ cookies: [Cookie], _ apply: (inout State) -> Void
    ) async throws {
        let (completion, signalling) = state.withLock { state in
            state.calls[call, default: 0] += 1
            return (call == .setCookies ? state.faults.sets : state.faults.deletes, state.faults.signalling)
        }
        try await complete(completion)
        state.withLock { apply(&$0) }
        switch signalling {
        case .perCookie: for _ in cookies { signal() }
        case .perCall: signal()
        case .none: break
        }
    }

    private func complete(_ completion: Completion) async throws {
        switch completion {
        case .immediate: return
        // A platform call under way completes whatever becomes of the task that made it (the sync's
        // timeout cancels that task): the delay is not cut short.
        case .late(let delay): await Task.detached { try? await Task.sleep(for: delay) }.value
        case .never: await withCheckedContinuation { continuation in state.withLock { $0.stalled.append(continuation) } }
        }
    }
}
