#if canImport(WebKit)
import Cookies
import Foundation
import WebKit

/// A web view's cookie store (`WKHTTPCookieStore`) as the platform side of a `CookieStoreSync`.
///
/// Thin on purpose: every rule (timeouts, empty reads, echoes, scope, conflicts) lives in the sync.
/// - Give it the web view's own data store (`webView.configuration.websiteDataStore`): each
///   `WKWebsiteDataStore`, `nonPersistent()` and `init(forIdentifier:)` included, has cookies of its own.
/// - WebKit holds cookie observers weakly: this store holds its observer itself, for as long as it lives.
/// - `WKHTTPCookieStore` is `@MainActor`: each call hops to the main actor.
/// - A batch is one `setCookies(_:)` call where the OS has it (iOS, macOS and visionOS 26), one
///   `setCookie(_:)` per cookie before.
///
/// What it loses: cookies pass through `HTTPCookie`, so SameSite `None` reads back as no SameSite, and
/// the creation time is the read's; a partitioned cookie is not synchronised (`CookieSyncScope`).
@MainActor
public final class WKHTTPCookieStoreCookieStore: PlatformCookieStore {
    /// The web view's data store whose cookies this is.
    public let dataStore: WKWebsiteDataStore
    private let clock: any CookieClock
    private let observer = ChangeObserver()

    /// The cookie store of `dataStore`; `clock` stamps the creation of the cookies read from it.
    public init(dataStore: WKWebsiteDataStore, clock: any CookieClock = SystemCookieClock()) {
        self.dataStore = dataStore
        self.clock = clock
        dataStore.httpCookieStore.add(observer)
    }

    public nonisolated func allCookies() async throws -> [Cookie] {
        await readAll()
    }

    public nonisolated func setCookies(_ cookies: [Cookie]) async throws {
        try await write(cookies, deleting: false)
    }

    public nonisolated func deleteCookies(_ cookies: [Cookie]) async throws {
        try await write(cookies, deleting: true)
    }

    public nonisolated func changeSignals() -> AsyncStream<Void> {
        observer.makeStream()
    }

    public nonisolated var carriedFields: CarriedCookieFields { [.secure, .httpOnly, .sameSiteStrictAndLax] }

    private func readAll() async -> [Cookie] {
        let now = clock.now()
        return await dataStore.httpCookieStore.allCookies().map { Cookie($0, creation: now) }
    }

    /// Sets or deletes the cookies Foundation can represent. A set throws `PlatformCookieStoreRefusal`
    /// with the others; a deletion passes them over (no store holds them). WebKit takes one cookie a call
    /// (but for sets from version 26 on): once the sync gave up waiting (its timeout cancels this task), no
    /// further call is made, lest a late completion resume the loop after the syncs that followed.
    private func write(_ cookies: [Cookie], deleting: Bool) async throws {
        let (httpCookies, refusal) = PlatformCookieStoreRefusal.httpCookies(of: cookies)
        let store = dataStore.httpCookieStore
        if deleting {
            for cookie in httpCookies where !Task.isCancelled { await store.deleteCookie(cookie) }
            return
        }
        if #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) {
            await store.setCookies(httpCookies)
        } else {
            for cookie in httpCookies where !Task.isCancelled { await store.setCookie(cookie) }
        }
        if let refusal { throw refusal }
    }

    /// Turns `cookiesDidChange(in:)` into change signals for every stream made. Conforming to the
    /// `@MainActor` protocol makes the class main-actor isolated; its members are `nonisolated` (they
    /// touch only the `Sendable` broadcast), so that `changeSignals()` makes a stream from any context.
    private final class ChangeObserver: NSObject, WKHTTPCookieStoreObserver, Sendable {
        private let signals = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))

        nonisolated func cookiesDidChange(in cookieStore: WKHTTPCookieStore) {
            signals.yield(())
        }

        nonisolated func makeStream() -> AsyncStream<Void> { signals.makeStream() }
    }
}
#endif
