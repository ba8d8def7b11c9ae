import Cookies
import CookiesFoundation
import Foundation
import TestBackend
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A hybrid app over real HTTP: a web view (`WebViewSession`, a URLSession storing its own cookies)
/// and the native side (the jar through `JarURLSession`) against the backend on 127.0.0.1, kept in sync
/// by `CookieStoreSync`. The scope is the backend's host and example.org, a site of the app's whose
/// cookie must outlive the backend's sign-out; a cookie of ads.test in the web view is out of scope.
@Suite("A web view and the jar kept in sync over real HTTP")
struct WebViewSyncTests {
    static let site = "127.0.0.1"
    static let domains = [site, "example.org"]

    /// The app: its jar (in a file), its native client, its web view and the sync between them.
    struct App {
        var jar: CookieJar
        var native: URLSessionAppClient
        var webView: WebViewSession
        var sync: CookieStoreSync

        init(jar: CookieJar, webView: WebViewSession, baseURL: String, record: [Cookie] = []) {
            self.jar = jar
            self.native = URLSessionAppClient(jar: jar, baseURL: baseURL)
            self.webView = webView
            self.sync = CookieStoreSync(
                jar: jar, store: webView.store(clock: jar.clock), domains: WebViewSyncTests.domains, record: record)
        }

        /// The names of the jar's cookies of `domain`, sorted.
        func jarNames(domain: String = WebViewSyncTests.site) -> [String] {
            jar.allCookies().filter { $0.domain == domain }.map(\.name).sorted()
        }
    }

    /// Runs `body` with a fresh app (jar file, web view) against a running backend.
    static func withApp(_ body: @Sendable (App, String) async throws -> Void) async throws {
        try await Backend.withRunningServer { baseURL in
            try await withJarFilePath { path in
                let app = App(jar: try CookieJar(contentsOf: path), webView: WebViewSession(baseURL: baseURL), baseURL: baseURL)
                try await body(app, baseURL)
                try? app.jar.close()
            }
        }
    }

    static let signedIn = Backend.pageText("Signed in as \(Backend.email)")

    @Test("1: native sign-in, push, then the web view loads the authenticated page with no cookie code of its own")
    func nativeSignInThenPush() async throws {
        try await Self.withApp { app, _ in
            #expect(try await app.webView.load("/account").status == 401)
            let signIn = try await app.native.send(
                "POST", "/api/v1/auth", json: ["email": Backend.email, "password": Backend.password])
            #expect(signIn.status == 200 && app.jarNames() == ["remember_me", "session"])
            let report = try await app.sync.push()
            #expect(report.copiedToWeb.map(\.name).sorted() == ["remember_me", "session"])
            let page = try await app.webView.load("/account")
            #expect(page.status == 200 && page.text == Self.signedIn)
            #expect(app.webView.cookie("session") == app.jar.allCookies().first { $0.name == "session" }?.value)
        }
    }

    @Test("2: web sign-in through a form, pull, then native requests are authenticated")
    func webSignInThenPull() async throws {
        try await Self.withApp { app, _ in
            let page = try await app.webView.submit("/login", ["email": Backend.email, "password": Backend.password])
            #expect(page.status == 200 && page.text == Self.signedIn)
            #expect(app.webView.names(domain: Self.site) == ["remember_me", "session"])
            #expect(try await app.native.send("GET", "/me").status == 401)
            let report = try await app.sync.pull()
            #expect(report.copiedToJar.map(\.name).sorted() == ["remember_me", "session"])
            let session = try #require(app.jar.allCookies().first { $0.name == "session" })
            #expect(session.expiry == nil, "the session cookie stays a session cookie")
            #expect(app.jar.allCookies().first { $0.name == "remember_me" }?.expiry != nil)
            let me = try await app.native.send("GET", "/me")
            #expect(me.status == 200 && me.json["email"] == Backend.email)
            #expect(Set((me.json["cookies"] ?? "").split(separator: ",")) == ["session", "remember_me"])
        }
    }

    @Test("3: the server rotates the session in a web response; reconcile; native requests carry the new one, the old one is nowhere")
    func sessionRotation() async throws {
        try await Self.withApp { app, _ in
            _ = try await app.native.send("POST", "/api/v1/auth", json: ["email": Backend.email, "password": Backend.password])
            try await app.sync.push()
            let old = try #require(app.webView.cookie("session"))
            let rotated = try await app.webView.load("/account/rotate")
            #expect(rotated.status == 200)
            let new = try #require(app.webView.cookie("session"))
            #expect(new != old)
            let report = try await app.sync.reconcile()
            #expect(report.copiedToJar.map(\.value) == [new] && report.conflicts.isEmpty)
            let me = try await app.native.send("GET", "/me")
            #expect(me.status == 200 && me.json["email"] == Backend.email)
            let sessions = app.jar.allCookies().filter { $0.name == "session" }.map(\.value)
            #expect(sessions == [new])
            #expect(app.webView.storage.cookies?.contains { $0.value == old } == false)
            #expect(app.sync.synchronisedCookies.first { $0.name == "session" }?.value == new)
        }
    }

    @Test("4: native sign-out empties the site on both sides, also after a relaunch; another site's cookie survives on both")
    func signOut() async throws {
        try await Self.withApp { app, baseURL in
            var app = app
            let prefs = Cookie(
                name: "prefs", value: "dark", domain: "example.org", expiry: CookieTime(Date()).adding(seconds: 86_400),
                creation: CookieTime(Date()))
            app.jar.insert(prefs)
            app.webView.storage.setCookie(HTTPCookie(properties: [
                .name: "tracker", .value: "1", .domain: "ads.test", .path: "/",
                .expires: Date().addingTimeInterval(86_400),
            ])!)
            _ = try await app.native.send("POST", "/api/v1/auth", json: ["email": Backend.email, "password": Backend.password])
            try await app.sync.push()
            #expect(try await app.webView.load("/account").status == 200)
            #expect(app.webView.names(domain: "example.org") == ["prefs"])

            // Sign out natively: the backend expires its cookies in the jar; the sync empties the site.
            #expect(try await app.native.send("DELETE", "/api/v1/auth").status == 200)
            let report = try await app.sync.signOut(site: Self.site)
            #expect(report.deletedFromWeb.map(\.name).sorted() == ["remember_me", "session"])
            #expect(app.jarNames().isEmpty && app.webView.names(domain: Self.site).isEmpty)
            #expect(app.jarNames(domain: "example.org") == ["prefs"] && app.webView.names(domain: "example.org") == ["prefs"])
            #expect(app.webView.names(domain: "ads.test") == ["tracker"] && app.jarNames(domain: "ads.test").isEmpty)
            #expect(try await app.webView.load("/account").status == 401)

            // Relaunch: the jar reopened from its file, the web view's store read afresh, the sync's
            // record saved and restored. Still signed out on both sides; prefs still on both.
            let record = app.sync.synchronisedCookies
            try await app.native.close()
            let jar = try relaunch(app.jar)
            app = App(jar: jar, webView: app.webView.relaunched(), baseURL: baseURL, record: record)
            let afterRelaunch = try await app.sync.reconcile()
            #expect(afterRelaunch.changedNothing)
            #expect(app.jarNames().isEmpty && app.webView.names(domain: Self.site).isEmpty)
            #expect(app.jarNames(domain: "example.org") == ["prefs"] && app.webView.names(domain: "example.org") == ["prefs"])
            #expect(try await app.webView.load("/account").status == 401)
            #expect(try await app.native.send("GET", "/me").status == 401)
            try await app.native.close()
            try app.jar.close()
        }
    }

    @Test("5a: a web view store that never completes: push times out, nothing is half-copied")
    func storeNeverCompletes() async throws {
        try await Self.withApp { app, _ in
            _ = try await app.native.send("POST", "/api/v1/auth", json: ["email": Backend.email, "password": Backend.password])
            let stalling = StallingCookieStore(app.webView.store(clock: app.jar.clock), stallsWrites: true)
            let sync = CookieStoreSync(jar: app.jar, store: stalling, domains: Self.domains, timeout: .milliseconds(500))
            await #expect(throws: CookieSyncError.timedOut(call: .setCookies, after: .milliseconds(500))) {
                try await sync.push()
            }
            #expect(sync.synchronisedCookies.isEmpty)
            #expect(app.webView.names(domain: Self.site).isEmpty && app.jarNames() == ["remember_me", "session"])
            #expect(try await app.webView.load("/account").status == 401)
            // The store recovers: the next push copies everything.
            try await app.sync.push()
            #expect(try await app.webView.load("/account").status == 200)
        }
    }

    @Test("5b: an empty first read of the web view's store (a cold start) deletes nothing")
    func emptyFirstRead() async throws {
        try await Self.withApp { app, _ in
            _ = try await app.webView.submit("/login", ["email": Backend.email, "password": Backend.password])
            try await app.sync.pull()
            let record = app.sync.synchronisedCookies
            #expect(record.count == 2)
            let coldStart = StallingCookieStore(app.webView.store(clock: app.jar.clock), emptyReads: 1)
            let sync = CookieStoreSync(
                jar: app.jar, store: coldStart, domains: Self.domains, emptyReadDelay: .milliseconds(50), record: record)
            let report = try await sync.reconcile()
            #expect(report.emptyReadsRetried == 1 && report.changedNothing)
            #expect(app.jarNames() == ["remember_me", "session"])
            #expect(try await app.native.send("GET", "/me").status == 200)
        }
    }
}
