import Cookies
import CookiesFoundation
import Foundation
import TestBackend
import Testing

/// The reason the jar exists, end to end over real HTTP: a native client signs in, keeps the session
/// across a relaunch, and signs out leaving nothing behind; a second jar kept in sync by the change
/// events follows every step. The backend is `TestBackend` on 127.0.0.1 (its routes and cookies are
/// documented there); 127.0.0.1 is a secure origin to the jar, so its Secure cookies are stored over
/// plain HTTP.
@Suite("Sign-in, relaunch and sign-out over real HTTP")
struct SignInFlowTests {
    @Test(arguments: ClientKind.allCases)
    func signInFlow(_ kind: ClientKind) async throws {
        try await Backend.withRunningServer { baseURL in
            try await withJarFilePath { jarFilePath in
                var jar = try CookieJar(contentsOf: jarFilePath)
                var mirror = ChangeMirror(of: jar)
                var client = kind.makeClient(jar: jar, baseURL: baseURL)
                func names() -> [String] { jar.cookies(forSite: "127.0.0.1").map(\.name).sorted() }

                // Not signed in: 401, and the jar holds nothing for the site.
                #expect(try await client.send("GET", "/me").status == 401)
                #expect(names().isEmpty)

                // Sign in: a bearer token, a session cookie and a 30-day remember-me cookie.
                // The jar reads `SystemCookieClock`, on Linux the coarse wall clock, up to a tick behind
                // Foundation's: the lower bound comes from the jar's clock, the upper one from Foundation's.
                let before = SystemCookieClock().now()
                let signIn = try await client.send(
                    "POST", "/api/v1/auth", json: ["email": Backend.email, "password": Backend.password])
                #expect(signIn.status == 200)
                let token = try #require(signIn.json["token"])
                let stored = Dictionary(jar.cookies(forSite: "127.0.0.1").map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
                let session = try #require(stored["session"])
                #expect(session.expiry == nil && session.isHTTPOnly && session.isSecure && session.sameSite == .lax)
                let rememberMe = try #require(stored["remember_me"])
                let expiry = try #require(rememberMe.expiry)
                #expect(expiry >= before.adding(seconds: 2_592_000) && expiry <= CookieTime(Date()).adding(seconds: 2_592_000))
                #expect(mirror.takeChanges().map(describe) == ["+session", "+remember_me"])
                #expect(mirror.isInSync(with: jar))

                // The cookies authenticate, and so does the bearer token alone.
                let me = try await client.send("GET", "/me")
                #expect(me.status == 200 && me.json["email"] == Backend.email)
                #expect(me.json["cookies"] == "session,remember_me")
                let bearerOnly = try await client.send("GET", "/me", bearer: token, json: nil, cookies: false)
                #expect(bearerOnly.status == 200 && bearerOnly.json["cookies"] == "")
                #expect(mirror.takeChanges().isEmpty)

                // A redirect sets a cookie on the way, and the next hop sends it.
                let redirected = try await client.send("GET", "/redirect")
                #expect(redirected.status == 200)
                #expect(redirected.json["cookies"] == "session,remember_me,visited")
                #expect(mirror.takeChanges().map(describe) == ["+visited"])

                // Relaunch: the jar is reopened from its file. The session cookie is gone, the remember-me
                // cookie is back, still signed in (the backend starts a new session from the remember-me
                // cookie). The web view's store is seeded again from the reopened jar.
                try await client.close()
                jar = try relaunch(jar)
                mirror = ChangeMirror(of: jar)
                client = kind.makeClient(jar: jar, baseURL: baseURL)
                #expect(names() == ["remember_me", "visited"])
                #expect(jar.cookies(forSite: "127.0.0.1").first { $0.name == "remember_me" }?.expiry == expiry)
                #expect(mirror.isInSync(with: jar))
                let resumed = try await client.send("GET", "/me")
                #expect(resumed.status == 200 && resumed.json["email"] == Backend.email)
                #expect(resumed.json["cookies"] == "remember_me,visited")
                #expect(names() == ["remember_me", "session", "visited"])
                #expect(mirror.takeChanges().map(describe) == ["+session"])
                #expect(mirror.isInSync(with: jar))

                // Sign out: the backend expires its cookies (Max-Age=0), the app clears the rest of the site.
                let signOut = try await client.send("DELETE", "/api/v1/auth")
                #expect(signOut.status == 200)
                #expect(names() == ["visited"])
                #expect(mirror.takeChanges().map(describe) == ["-session(expired)", "-remember_me(expired)"])
                #expect(jar.signOut(from: CookieURL(baseURL + "/")!) == 1)
                #expect(names().isEmpty)
                #expect(mirror.takeChanges().map(describe) == ["-visited(signedOut)"])
                #expect(mirror.isInSync(with: jar) && mirror.copy.count == 0)

                // Signed out everywhere: neither cookies nor the old bearer token work.
                #expect(try await client.send("GET", "/me").status == 401)
                #expect(try await client.send("GET", "/me", bearer: token, json: nil, cookies: false).status == 401)
                try await client.close()
                // The file agrees: nothing is left for the site after a last relaunch.
                jar = try relaunch(jar)
                #expect(names().isEmpty)
                try jar.close()
            }
        }
    }

    /// A change in one word: `+name` added, `~name` replaced, `-name(cause)` removed.
    func describe(_ change: CookieChange) -> String {
        switch change {
        case .added(let cookie): return "+\(cookie.name)"
        case .replaced(_, let cookie): return "~\(cookie.name)"
        case .removed(let cookie, let cause): return "-\(cookie.name)(\(cause.rawValue))"
        }
    }
}
