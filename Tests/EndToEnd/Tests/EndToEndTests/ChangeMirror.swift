import Cookies
import Synchronization

/// A second jar kept in sync with a jar by applying its `CookieChange`s, as an app keeps a web view's
/// cookie store in sync; it also records every change.
final class ChangeMirror: Sendable {
    let copy: CookieJar
    private let recorded = Mutex<[CookieChange]>([])

    /// Mirrors `jar` from now on, starting from its present contents.
    init(of jar: CookieJar) {
        copy = CookieJar(publicSuffixList: PublicSuffixRules(parsing: ""), clock: jar.clock)
        for cookie in jar.allCookies() { copy.insert(cookie) }
        jar.addObserver { [self] change in apply(change) }
    }

    private func apply(_ change: CookieChange) {
        recorded.withLock { $0.append(change) }
        switch change {
        case .added(let cookie), .replaced(_, let cookie): copy.insert(cookie)
        case .removed(let cookie, _): copy.delete(cookie)
        }
    }

    /// The changes applied so far, and forgets them.
    func takeChanges() -> [CookieChange] {
        recorded.withLock { changes in
            defer { changes.removeAll() }
            return changes
        }
    }

    /// True when the copy holds what `jar` holds (last-access times aside: retrieval updates them
    /// without a change event).
    func isInSync(with jar: CookieJar) -> Bool {
        func contents(_ jar: CookieJar) -> Set<Cookie> {
            Set(jar.allCookies().map { cookie in
                var cookie = cookie
                cookie.lastAccess = cookie.creation
                return cookie
            })
        }
        return contents(copy) == contents(jar)
    }
}
