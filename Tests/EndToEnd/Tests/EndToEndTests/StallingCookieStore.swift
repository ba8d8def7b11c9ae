import Cookies
import CookiesFoundation
import Synchronization

/// A platform store with the two faults WKHTTPCookieStore is known for, over a real one: writes whose
/// completion never comes (and which never land), and empty reads at a cold start.
final class StallingCookieStore: PlatformCookieStore {
    let base: any PlatformCookieStore
    let stallsWrites: Bool
    private let emptyReadsLeft: Mutex<Int>
    /// The stalled calls' continuations, kept so that none leaks.
    private let stalled = Mutex<[CheckedContinuation<Void, Never>]>([])

    init(_ base: any PlatformCookieStore, stallsWrites: Bool = false, emptyReads: Int = 0) {
        self.base = base
        self.stallsWrites = stallsWrites
        self.emptyReadsLeft = Mutex(emptyReads)
    }

    func allCookies() async throws -> [Cookie] {
        let empty = emptyReadsLeft.withLock { left in
            defer { left = max(0, left - 1) }
            return left > 0
        }
        return empty ? [] : try await base.allCookies()
    }

    func setCookies(_ cookies: [Cookie]) async throws {
        if stallsWrites { await stall() } else { try await base.setCookies(cookies) }
    }

    func deleteCookies(_ cookies: [Cookie]) async throws {
        if stallsWrites { await stall() } else { try await base.deleteCookies(cookies) }
    }

    func changeSignals() -> AsyncStream<Void> { base.changeSignals() }

    var carriedFields: CarriedCookieFields { base.carriedFields }

    private func stall() async {
        await withCheckedContinuation { continuation in stalled.withLock { $0.append(continuation) } }
    }
}
