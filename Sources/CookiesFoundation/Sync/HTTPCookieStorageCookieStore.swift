import Cookies
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An `HTTPCookieStorage` as the platform side of a `CookieStoreSync`: a URL session's cookies (its
/// configuration's `httpCookieStorage`), or those a UIWebView-era app shares with `.shared`.
///
/// Use a storage of its own where possible, not `.shared`. On Linux (swift-corelibs-foundation, Swift
/// 6.3.1) `HTTPCookieStorage` has no public initializer; a storage of one's own comes from
/// `URLSessionConfiguration.ephemeral.httpCookieStorage` (a new, in-memory storage for every
/// configuration) or `HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier:)` (one per
/// identifier, its persistent cookies written to `~/.local/share/<program>/.cookies.<identifier>`).
///
/// What it loses: SameSite on Linux (Apple keeps Strict and Lax, and nowhere `None` apart from none);
/// the creation time; on Linux, in a storage's file (swift-corelibs-foundation, Swift 6.3.1), HttpOnly,
/// Secure, and the cookies set with Max-Age alone, which are not written to it: there the sync neither
/// compares nor overwrites HttpOnly and Secure, and a storage with a file is a poor web view stand-in
/// across launches (prefer an ephemeral one, the jar's own file keeping the cookies); on Linux no change
/// notification is posted, so `changeSignals()` never signals there: call `reconcile()` after the
/// session's requests. Cookies are converted with
/// `HTTPCookie.init(_: Cookie)` and `Cookie.init(_: HTTPCookie, creation:)`.
public final class HTTPCookieStorageCookieStore: PlatformCookieStore {
    /// The storage.
    public let storage: HTTPCookieStorage
    private let clock: any CookieClock

    /// The store of `storage`; `clock` stamps the creation of the cookies read from it.
    public init(_ storage: HTTPCookieStorage, clock: any CookieClock = SystemCookieClock()) {
        self.storage = storage
        self.clock = clock
    }

    public func allCookies() async throws -> [Cookie] {
        let now = clock.now()
        return (storage.cookies ?? []).map { Cookie($0, creation: now) }
    }

    /// Stores every cookie Foundation can represent; throws `PlatformCookieStoreRefusal` with the others.
    public func setCookies(_ cookies: [Cookie]) async throws {
        let (httpCookies, refusal) = PlatformCookieStoreRefusal.httpCookies(of: cookies)
        for httpCookie in httpCookies { storage.setCookie(httpCookie) }
        if let refusal { throw refusal }
    }

    /// Deletes the cookies of these identities; one Foundation cannot represent is in no storage.
    public func deleteCookies(_ cookies: [Cookie]) async throws {
        for httpCookie in PlatformCookieStoreRefusal.httpCookies(of: cookies).httpCookies { storage.deleteCookie(httpCookie) }
    }

    public func changeSignals() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let observer = NotificationCenter.default.addObserver(
            forName: .NSHTTPCookieManagerCookiesChanged, object: storage, queue: nil
        ) { _ in continuation.yield() }
        let token = NotificationToken(observer)
        continuation.onTermination = { _ in NotificationCenter.default.removeObserver(token.observer) }
        return stream
    }

    #if canImport(Darwin)
    public var carriedFields: CarriedCookieFields { [.secure, .httpOnly, .sameSiteStrictAndLax] }
    #else
    /// None on Linux: swift-corelibs-foundation has no SameSite, and a storage that keeps its cookies in a
    /// file (`sharedCookieStorage(forGroupContainerIdentifier:)`) gives them back from it without HttpOnly
    /// (never written) and without Secure (written as a property list's `true`, read as false). Taken for
    /// the web view's changes, these would strip the jar's cookies of both at the next launch.
    public var carriedFields: CarriedCookieFields { [] }
    #endif
}

/// A notification observer, carried into the stream's termination handler.
private struct NotificationToken: @unchecked Sendable {
    let observer: any NSObjectProtocol
    init(_ observer: any NSObjectProtocol) { self.observer = observer }
}
