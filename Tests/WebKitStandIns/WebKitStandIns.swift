// Stand-ins of the WebKit API that Sources/CookiesFoundation/Sync/WKHTTPCookieStoreCookieStore.swift uses, as
// the SDK declares it (isolation included: WKHTTPCookieStore, WKWebsiteDataStore and the observer protocol are
// @MainActor), so that `.ci/check-webkit-adapter` compiles the adapter where WebKit does not exist. Not part of
// any target.
#if !canImport(WebKit)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor protocol WKHTTPCookieStoreObserver: NSObjectProtocol {
    func cookiesDidChange(in cookieStore: WKHTTPCookieStore)
}

@MainActor final class WKHTTPCookieStore {
    func add(_ observer: any WKHTTPCookieStoreObserver) {}
    func allCookies() async -> [HTTPCookie] { [] }
    func setCookie(_ cookie: HTTPCookie) async {}
    func setCookies(_ cookies: [HTTPCookie]) async {}
    func deleteCookie(_ cookie: HTTPCookie) async {}
}

@MainActor public final class WKWebsiteDataStore {
    let httpCookieStore = WKHTTPCookieStore()
}
#endif
