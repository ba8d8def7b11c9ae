import Cookies
import CookiesFoundation
import Foundation
import TestBackend
import Testing

/// A hybrid app over real HTTP: a web view (a URLSession storing its own cookies, or headless
/// Chromium) and the native side (the jar through `JarURLSession`) against the backend on 127.0.0.1,
/// kept in sync by `CookieStoreSync`. The scope is the backend's host and example.org, a site of the
/// app's whose cookie must outlive the backend's sign-out; a cookie of ads.test in the web view is out of
/// scope. One scenario at a time: each Chromium is a browser of its own.
@Suite("A web view and the jar kept in sync over real HTTP", .serialized)
struct WebViewSyncTests {
    static let site = "127.0.0.1"
    static let domains = [site, "example.org"]
    static let signedIn = "Signed in as \(Backend.email)"
    static let signedOut = "Sign in first"

    /// The app: its jar (in a file), its native client, its web view and the sync between them.
    struct App {
        var jar: CookieJar
        var native: URLSessionAppClient
        var webView: any WebView
        var sync: CookieStoreSync

        init(jar: CookieJar, webView: any WebView, baseURL: String, record: [Cookie] = []) {
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

        /// Signs in natively (the API's JSON sign-in).
        func nativeSignIn() async throws {
            let reply = try await native.send(
                "POST", "/api/v1/auth", json: ["email": Backend.email, "password": Backend.password])
            #expect(reply.status == 200)
        }
    }

    /// Runs `body` with a fresh app (jar file, web view of `kind`) against a running backend.
    static func withApp(_ kind: WebViewKind, _ body: @Sendable (App, String) async throws -> Void) async throws {
        try await Backend.withRunningServer { baseURL in
            try await withJarFilePath { path in
                let folder = (path as NSString).deletingLastPathComponent
                let webView = try await kind.make(baseURL: baseURL, folder: folder)
                let app = App(jar: try CookieJar(contentsOf: path), webView: webView, baseURL: baseURL)
                do {
                    try await body(app, baseURL)
                } catch {
                    await webView.close()
                    throw error
                }
                await webView.close()
                try? app.jar.close()
            }
        }
    }

    @Test("1: native sign-in, push, then the web view loads the authenticated page with no cookie code of its own",
          arguments: WebViewKind.allCases)
    func nativeSignInThenPush(_ kind: WebViewKind) async throws {
        try await Self.withApp(kind) { app, _ in
            #expect(try await app.webView.load("/account") == Self.signedOut)
            try await app.nativeSignIn()
            #expect(app.jarNames() == ["remember_me", "session"])
            let report = try await app.sync.push()
            #expect(report.copiedToWeb.map(\.name).sorted() == ["remember_me", "session"])
            #expect(try await app.webView.load("/account") == Self.signedIn)
            let session = try #require(app.jar.allCookies().first { $0.name == "session" })
            #expect(try await app.webView.cookie("session") == session.value)
        }
    }

    @Test("2: web sign-in through a form, pull, then native requests are authenticated", arguments: WebViewKind.allCases)
    func webSignInThenPull(_ kind: WebViewKind) async throws {
        try await Self.withApp(kind) { app, _ in
            #expect(try await app.webView.signIn(email: Backend.email, password: Backend.password) == Self.signedIn)
            #expect(try await app.webView.names(domain: Self.site) == ["remember_me", "session"])
            #expect(try await app.native.send("GET", "/me").status == 401)
            let report = try await app.sync.pull()
            #expect(report.copiedToJar.map(\.name).sorted() == ["remember_me", "session"])
            let session = try #require(app.jar.allCookies().first { $0.name == "session" })
            #expect(session.expiry == nil && session.isHTTPOnly && session.isSecure, "a session cookie stays one")
            #expect(app.jar.allCookies().first { $0.name == "remember_me" }?.expiry != nil)
            let me = try await app.native.send("GET", "/me")
            #expect(me.status == 200 && me.json["email"] == Backend.email)
            #expect(Set((me.json["cookies"] ?? "").split(separator: ",")) == ["session", "remember_me"])
        }
    }

    @Test("3: the server rotates the session in a web response; reconcile; native requests carry the new one, the old one is nowhere",
          arguments: WebViewKind.allCases)
    func sessionRotation(_ kind: WebViewKind) async throws {
        try await Self.withApp(kind) { app, _ in
            try await app.nativeSignIn()
            try await app.sync.push()
            let old = try #require(try await app.webView.cookie("session"))
            #expect(try await app.webView.load("/account/rotate") == Self.signedIn)
            let new = try #require(try await app.webView.cookie("session"))
            #expect(new != old)
            let report = try await app.sync.reconcile()
            #expect(report.copiedToJar.map(\.value) == [new] && report.conflicts.isEmpty)
            let me = try await app.native.send("GET", "/me")
            #expect(me.status == 200 && me.json["email"] == Backend.email)
            #expect(app.jar.allCookies().filter { $0.name == "session" }.map(\.value) == [new])
            #expect(try await app.webView.cookies().contains { $0.value == old } == false)
            #expect(app.sync.synchronisedCookies.first { $0.name == "session" }?.value == new)
        }
    }

    @Test("4: native sign-out empties the site on both sides, also after a relaunch; another site's cookie survives on both",
          arguments: WebViewKind.allCases)
    func signOut(_ kind: WebViewKind) async throws {
        try await Self.withApp(kind) { app, baseURL in
            var app = app
            let now = CookieTime(Date())
            app.jar.insert(Cookie(name: "prefs", value: "dark", domain: "example.org", expiry: now.adding(seconds: 86_400), creation: now))
            try await app.webView.store(clock: app.jar.clock).setCookies([
                Cookie(name: "tracker", value: "1", domain: "ads.test", expiry: now.adding(seconds: 86_400), creation: now),
            ])
            try await app.nativeSignIn()
            try await app.sync.push()
            #expect(try await app.webView.load("/account") == Self.signedIn)
            #expect(try await app.webView.names(domain: "example.org") == ["prefs"])

            // Sign out natively: the backend expires its cookies in the jar; the sync empties the site.
            #expect(try await app.native.send("DELETE", "/api/v1/auth").status == 200)
            let report = try await app.sync.signOut(site: Self.site)
            #expect(report.deletedFromWeb.map(\.name).sorted() == ["remember_me", "session"])
            try await expectSignedOut(app)
            #expect(try await app.webView.load("/account") == Self.signedOut)

            // Relaunch: the jar reopened from its file, the web view's store read afresh, the sync's
            // record saved and restored. Still signed out on both sides; prefs still on both.
            let record = app.sync.synchronisedCookies
            try await app.native.close()
            let jar = try relaunch(app.jar)
            app = App(jar: jar, webView: try await app.webView.relaunched(), baseURL: baseURL, record: record)
            #expect(try await app.sync.reconcile().changedNothing)
            try await expectSignedOut(app)
            #expect(try await app.webView.load("/account") == Self.signedOut)
            #expect(try await app.native.send("GET", "/me").status == 401)
            try await app.native.close()
            await app.webView.close()
            try app.jar.close()
        }
    }

    /// Nothing of the site on either side; example.org's cookie on both; ads.test's in the web view only.
    func expectSignedOut(_ app: App) async throws {
        #expect(app.jarNames().isEmpty)
        #expect(try await app.webView.names(domain: Self.site) == [])
        #expect(app.jarNames(domain: "example.org") == ["prefs"])
        #expect(try await app.webView.names(domain: "example.org") == ["prefs"])
        #expect(try await app.webView.names(domain: "ads.test") == ["tracker"] && app.jarNames(domain: "ads.test").isEmpty)
    }

    @Test("5a: a web view store that never completes: push times out, nothing is half-copied", arguments: WebViewKind.allCases)
    func storeNeverCompletes(_ kind: WebViewKind) async throws {
        try await Self.withApp(kind) { app, _ in
            try await app.nativeSignIn()
            let stalling = StallingCookieStore(app.webView.store(clock: app.jar.clock), stallsWrites: true)
            let sync = CookieStoreSync(jar: app.jar, store: stalling, domains: Self.domains, timeout: .milliseconds(500))
            await #expect(throws: CookieSyncError.timedOut(call: .setCookies, after: .milliseconds(500))) {
                try await sync.push()
            }
            #expect(sync.synchronisedCookies.isEmpty)
            #expect(try await app.webView.names(domain: Self.site).isEmpty && app.jarNames() == ["remember_me", "session"])
            #expect(try await app.webView.load("/account") == Self.signedOut)
            // The store recovers: the next push copies everything.
            try await app.sync.push()
            #expect(try await app.webView.load("/account") == Self.signedIn)
        }
    }

    @Test("5b: an empty first read of the web view's store (a cold start) deletes nothing", arguments: WebViewKind.allCases)
    func emptyFirstRead(_ kind: WebViewKind) async throws {
        try await Self.withApp(kind) { app, _ in
            #expect(try await app.webView.signIn(email: Backend.email, password: Backend.password) == Self.signedIn)
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

    @Test("a cookie the page's script writes (document.cookie) reaches the jar, without HttpOnly")
    func scriptCookie() async throws {
        try await Self.withApp(.chromium) { app, _ in
            #expect(try await app.webView.load("/settings") == "Settings")
            try await app.sync.pull()
            let theme = try #require(app.jar.allCookies().first { $0.name == "theme" })
            #expect(theme.value == "dark" && !theme.isHTTPOnly && theme.isHostOnly && theme.expiry != nil)
        }
    }
}
