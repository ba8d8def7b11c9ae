import Cookies
import CookiesFoundation
import Foundation
import HTTPTypes
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The code of the article "Signing in and out in a hybrid app"
/// (Sources/CookiesFoundation/CookiesFoundation.docc/HybridAppSignIn.md), compiled and run
/// (DocumentationCodeTests checks that every block of the article is here, in order): the flow of the
/// end-to-end sign-in tests (Tests/EndToEnd), with the server's response made here and a stand-in for
/// the web view's cookie store.
struct HybridAppExamples {
    let directory = TemporaryDirectory()

    /// Stands in for `WKWebsiteDataStore.default().httpCookieStore` (or `HTTPCookieStorage`): cookies by
    /// name, domain and path.
    final class WebViewCookieStore: Sendable {
        private let cookies = Mutex<[String: String]>([:])
        func setCookie(_ cookie: HTTPCookie) { cookies.withLock { $0["\(cookie.name)|\(cookie.domain)|\(cookie.path)"] = cookie.value } }
        func deleteCookie(_ cookie: HTTPCookie) { cookies.withLock { $0["\(cookie.name)|\(cookie.domain)|\(cookie.path)"] = nil } }
        func deleteAllCookies() { cookies.withLock { $0.removeAll() } }
        var contents: [String: String] { cookies.withLock { $0 } }
    }

    @Test func signInWebViewRelaunchSignOut() throws {
        let appSupport = directory.path
        let webViewStore = WebViewCookieStore()
        var fields = HTTPFields()
        fields.append(HTTPField(name: .setCookie, value: "session=7f3c9a; Path=/; Secure; HttpOnly; SameSite=Lax"))
        fields.append(HTTPField(name: .setCookie, value: "remember_me=b41d; Domain=example.com; Path=/; Max-Age=2592000; Secure"))
        let response = HTTPResponse(status: .ok, headerFields: fields)

        // Launch.
        let jar = try CookieJar(contentsOf: appSupport + "/cookies.sqlite")   // the last launch's persistent cookies

        // Native sign-in.
        var request = HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: "/api/v1/login")
        request.addCookies(from: jar)                           // none yet
        jar.receive(response, to: request)                      // every Set-Cookie field on its own
        try jar.flush()                                         // signed in, on disk
        #expect(request.headerFields[.cookie] == nil)
        #expect(jar.count == 2)

        // The web view: at every launch, its store gets the jar's cookies, then the jar's changes.
        func connectWebView(to jar: CookieJar) -> Int {
            webViewStore.deleteAllCookies()                     // what an earlier launch left there
            for cookie in jar.allCookies() {
                if let cookie = HTTPCookie(cookie) { webViewStore.setCookie(cookie) }
            }
            return jar.addObserver { change in
                switch change {
                case .added(let cookie), .replaced(_, let cookie):
                    if let cookie = HTTPCookie(cookie) { webViewStore.setCookie(cookie) }
                case .removed(let cookie, _):
                    if let cookie = HTTPCookie(cookie) { webViewStore.deleteCookie(cookie) }
                }
            }
        }
        let token = connectWebView(to: jar)
        #expect(webViewStore.contents == ["session|api.example.com|/": "7f3c9a", "remember_me|.example.com|/": "b41d"])

        // Relaunch: the persistent cookie is back, the session cookie is not.
        jar.removeObserver(token)
        try jar.close()
        let relaunched = try CookieJar(contentsOf: appSupport + "/cookies.sqlite")
        let names = relaunched.allCookies().map(\.name)         // ["remember_me"]
        _ = connectWebView(to: relaunched)
        #expect(names == ["remember_me"])
        #expect(webViewStore.contents == ["remember_me|.example.com|/": "b41d"])

        // Sign-out.
        relaunched.signOut(from: CookieURL("https://api.example.com/")!)    // all example.com stored, partitions under it too
        try relaunched.flush()
        #expect(try CookieJar(contentsOf: appSupport + "/cookies.sqlite").count == 0)
        #expect(webViewStore.contents.isEmpty)
    }
}
