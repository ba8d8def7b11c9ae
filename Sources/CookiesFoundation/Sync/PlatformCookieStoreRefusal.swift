import Cookies
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a `PlatformCookieStore`'s `setCookies(_:)` throws when it stored every cookie of the batch but
/// `cookies`, which it cannot hold (`HTTPCookie(_:)` refuses a cookie Foundation cannot represent). The
/// sync records the others as stored and reports these (`CookieSyncReport.refusedByStore`) rather than
/// failing the whole batch: one such cookie would otherwise stop every later push.
public struct PlatformCookieStoreRefusal: Error, Sendable, Hashable {
    /// The cookies of the batch the store did not store.
    public let cookies: [Cookie]

    /// A refusal of `cookies`.
    public init(cookies: [Cookie]) {
        self.cookies = cookies
    }
}

extension PlatformCookieStoreRefusal {
    /// `cookies` as Foundation cookies (`HTTPCookie(_:)`, each converted once), and the refusal of those
    /// Foundation cannot represent, nil when it represents them all: what a store built on `HTTPCookie`
    /// writes, and what its `setCookies(_:)` throws after writing it.
    static func httpCookies(of cookies: [Cookie]) -> (httpCookies: [HTTPCookie], refusal: PlatformCookieStoreRefusal?) {
        var httpCookies: [HTTPCookie] = []
        var refused: [Cookie] = []
        for cookie in cookies {
            if let httpCookie = HTTPCookie(cookie) { httpCookies.append(httpCookie) } else { refused.append(cookie) }
        }
        return (httpCookies, refused.isEmpty ? nil : PlatformCookieStoreRefusal(cookies: refused))
    }
}
