import Cookies

/// A platform's cookie store that a `CookieStoreSync` keeps in step with a jar: a web view's
/// (`WKHTTPCookieStore`), a URL session's (`HTTPCookieStorage`), a headless browser's.
///
/// Four calls, each of which may take long or never complete (the sync puts a timeout on every one):
/// read everything, set a batch, delete a batch, and a signal that something changed. A store speaks the
/// jar's `Cookie`; what it cannot carry (`carriedFields`) the sync neither compares nor overwrites.
public protocol PlatformCookieStore: Sendable {
    /// Every cookie the store holds. An empty answer may be a store not yet loaded (WKHTTPCookieStore at
    /// a cold start): the sync reads again before it believes it.
    func allCookies() async throws -> [Cookie]
    /// Stores `cookies`, each replacing the one of its identity (name, domain, host-only-flag, path).
    /// Returns when every one is stored.
    func setCookies(_ cookies: [Cookie]) async throws
    /// Deletes the cookies of the identities of `cookies`. Returns when every one is gone.
    func deleteCookies(_ cookies: [Cookie]) async throws
    /// A new sequence of change signals: an element each time the store's contents may have changed.
    /// A signal says nothing of what changed, may stand for several changes, may come for none, and
    /// comes for the sync's own writes too.
    func changeSignals() -> AsyncStream<Void>
    /// The fields of a cookie the store keeps as given; the others it drops or changes.
    var carriedFields: CarriedCookieFields { get }
}

/// The fields beyond name, value, domain, host-only-flag, path and expiry (to the second) that a platform's
/// cookie store keeps as the jar gave them.
public struct CarriedCookieFields: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    /// A raw set of fields.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// HttpOnly (`HTTPCookie.isHTTPOnly`).
    public static let httpOnly = CarriedCookieFields(rawValue: 1 << 0)
    /// Secure (`HTTPCookie.isSecure`).
    public static let secure = CarriedCookieFields(rawValue: 1 << 3)
    /// SameSite Strict and Lax (Apple's `HTTPCookie.sameSitePolicy`; swift-corelibs-foundation has none).
    public static let sameSiteStrictAndLax = CarriedCookieFields(rawValue: 1 << 1)
    /// SameSite None apart from no SameSite attribute (`HTTPCookie` knows neither).
    public static let sameSiteNone = CarriedCookieFields(rawValue: 1 << 2)

    /// Every field the jar keeps that a sync compares.
    public static let all: CarriedCookieFields = [.secure, .httpOnly, .sameSiteStrictAndLax, .sameSiteNone]
}
