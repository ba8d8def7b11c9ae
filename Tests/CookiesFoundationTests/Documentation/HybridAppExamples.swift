import Cookies
import CookiesFoundation
import Foundation
import HTTPTypes
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

    @Test func signInWebViewRelaunchSignOut() async throws {
        // Missing, as at an app's first launch.
        let appSupport = directory.path + "/Library/Application Support"
        // Stands in for the web view's store: a URL session's own HTTPCookieStorage, through the same
        // PlatformCookieStore seam as WKHTTPCookieStoreCookieStore.
        let webViewStore = HTTPCookieStorageCookieStore(URLSessionConfiguration.ephemeral.httpCookieStorage!)
        func webViewCookies() -> [String: String] {
            Dictionary(uniqueKeysWithValues: (webViewStore.storage.cookies ?? []).map { ($0.name, $0.value) })
        }
        var fields = HTTPFields()
        fields.append(HTTPField(name: .setCookie, value: "session=7f3c9a; Path=/; Secure; HttpOnly; SameSite=Lax"))
        fields.append(HTTPField(name: .setCookie, value: "remember_me=b41d; Domain=example.com; Path=/; Max-Age=2592000; Secure"))
        let response = HTTPResponse(status: .ok, headerFields: fields)

        // Launch.
        try FileManager.default.createDirectory(atPath: appSupport, withIntermediateDirectories: true)   // none at the first launch
        let jar = try CookieJar(contentsOf: appSupport + "/cookies.sqlite")   // the last launch's persistent cookies

        // Native sign-in.
        var request = HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: "/api/v1/login")
        request.addCookies(from: jar)                           // none yet
        jar.receive(response, to: request)                      // every Set-Cookie field on its own
        try jar.flush()                                         // signed in, on disk
        #expect(request.headerFields[.cookie] == nil)
        #expect(jar.count == 2)

        // The web view.
        let sync = CookieStoreSync(jar: jar, store: webViewStore, domains: ["example.com"])
        try await sync.push()                                   // every write confirmed: load the web view now
        let syncing = Task { await sync.run() }                 // then after changes on either side
        #expect(webViewCookies() == ["session": "7f3c9a", "remember_me": "b41d"])

        // Relaunch: the persistent cookie is back, the session cookie is not, in the jar nor, once
        // reconciled, in the web view.
        syncing.cancel()
        let recordURL = URL(fileURLWithPath: appSupport + "/sync-record.json")
        let record = try await sync.synchronisedCookiesWithJarFlushed()
        try Data(CookieJSON.serializedBytes(record)).write(to: recordURL, options: [.atomic, .completeFileProtection])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: recordURL.path)   // as the jar's file
        let permissions = try FileManager.default.attributesOfItem(atPath: recordURL.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "the record, which holds the session token, is readable by its owner alone")
        try jar.close()
        let relaunched = try CookieJar(contentsOf: appSupport + "/cookies.sqlite")
        let names = relaunched.allCookies().map(\.name)         // ["remember_me"]
        let saved = try CookieJSON.parse(Data(contentsOf: recordURL)).cookies
        #expect(Set(saved.map(\.name)) == ["session", "remember_me"], "the record keeps the session cookie")
        let resumed = CookieStoreSync(jar: relaunched, store: webViewStore, domains: ["example.com"], record: saved)
        try await resumed.reconcile()                           // the ended session leaves the web view too
        #expect(names == ["remember_me"])
        #expect(webViewCookies() == ["remember_me": "b41d"])

        // Sign-out.
        try await resumed.signOut(site: "example.com")          // both sides, cookies arriving meanwhile too
        try relaunched.flush()
        #expect(try CookieJar(contentsOf: appSupport + "/cookies.sqlite").count == 0)
        #expect(webViewCookies().isEmpty)
    }
}
