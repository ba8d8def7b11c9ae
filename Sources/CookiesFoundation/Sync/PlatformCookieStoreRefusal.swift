import Cookies

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
