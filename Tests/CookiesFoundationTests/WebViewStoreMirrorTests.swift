import Cookies
import Foundation
import Testing

@testable import CookiesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A web view's cookie store (a dictionary of `HTTPCookie`s by name, domain and path, as
/// WKHTTPCookieStore and HTTPCookieStorage key them) kept in sync with the jar by applying its change
/// events, converted with `HTTPCookie.init(_:)`.
@Suite("A web view's HTTPCookie store kept in sync by change events")
struct WebViewStoreMirrorTests {
    final class Store: Sendable {
        let cookies = CookieLock<[String: HTTPCookie]>([:])

        static func key(_ name: String, _ domain: String, _ path: String) -> String { "\(name)|\(domain)|\(path)" }

        func apply(_ change: CookieChange) {
            cookies.withLock { cookies in
                switch change {
                case .added(let cookie), .replaced(_, let cookie):
                    let httpCookie = HTTPCookie(cookie)
                    cookies[Store.key(cookie.name, httpCookie?.domain ?? "", cookie.path)] = httpCookie
                case .removed(let cookie, _):
                    cookies[Store.key(cookie.name, (cookie.isHostOnly ? "" : ".") + cookie.domain, cookie.path)] = nil
                }
            }
        }

        var contents: Set<String> {
            cookies.withLock { Set($0.values.map(Store.fields)) }
        }

        /// Every field of a Foundation cookie the jar's cookies carry over: the store must hold each as the
        /// jar's cookie converts.
        static func fields(_ cookie: HTTPCookie) -> String {
            "\(cookie.name)=\(cookie.value)|\(cookie.domain)|\(cookie.path)|secure \(cookie.isSecure)|httpOnly \(cookie.isHTTPOnly)"
                + "|session \(cookie.isSessionOnly)|expires \(cookie.expiresDate?.timeIntervalSince1970 ?? 0)"
        }
    }

    /// What the jar holds, as the store should hold it; every cookie of the jar converts.
    func expected(_ jar: CookieJar) -> Set<String> {
        let converted = jar.allCookies().compactMap(HTTPCookie.init)
        #expect(converted.count == jar.count, "a cookie of the jar that HTTPCookie refuses")
        return Set(converted.map(Store.fields))
    }

    @Test("every step of a sign-in's life: added, replaced, expired, signed out")
    func mirror() {
        let clock = ManualCookieClock(testEpoch)
        let jar = CookieJar(publicSuffixList: testPublicSuffixList, clock: clock)
        let store = Store()
        jar.addObserver { store.apply($0) }
        let auth = url("https://www.example.com/api/v1/auth")
        let steps: [(String, () -> Void)] = [
            ("sign in", { jar.receive(["session=1; Path=/; Secure; HttpOnly", "remember=1; Domain=example.com; Path=/; Max-Age=60"], from: auth) }),
            ("rotate the session", { jar.setCookie("session=2; Path=/; Secure; HttpOnly", from: auth) }),
            ("a host-only and a domain cookie of one name", { jar.setCookie("remember=host; Path=/", from: auth) }),
            ("the remember-me cookie expires", {
                clock.advance(seconds: 61)
                jar.deleteExpiredCookies()
            }),
            ("relaunch", { jar.deleteSessionCookies() }),
            ("sign in again, then sign out", {
                jar.setCookie("session=3; Path=/; Secure", from: auth)
                jar.signOut(from: auth)
            }),
        ]
        for (step, run) in steps {
            run()
            #expect(store.contents == expected(jar), "after: \(step)")
        }
        #expect(store.contents.isEmpty)
    }
}
