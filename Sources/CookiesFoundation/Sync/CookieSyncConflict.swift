import Cookies

/// One side of a sync: the jar, or the platform's cookie store (the web view).
public enum CookieSyncSide: String, Sendable, Hashable {
    case jar, web
}

/// A cookie changed on both sides since the last sync, differently: which version wins is the sync's
/// `CookieConflictPolicy`. Every conflict is reported.
public struct CookieSyncConflict: Sendable, Hashable {
    /// The cookie's identity (name, domain, host-only-flag, path).
    public let identity: CookieIdentity
    /// The jar's version; nil when the jar deleted it.
    public let jar: Cookie?
    /// The platform store's version; nil when the store deleted it.
    public let web: Cookie?
    /// The version both sides held after the last sync; nil when neither did.
    public let recorded: Cookie?
    /// The side whose version was kept.
    public let winner: CookieSyncSide
}

/// Which version of a cookie changed on both sides a sync keeps.
public enum CookieConflictPolicy: Sendable {
    /// The platform store's (the default): the server's newest `Set-Cookie` to a web view lands there.
    case preferWeb
    /// The jar's.
    case preferJar
    /// The side the closure names, given the jar's and the store's versions (nil for deleted).
    case decide(@Sendable (_ jar: Cookie?, _ web: Cookie?) -> CookieSyncSide)

    func winner(jar: Cookie?, web: Cookie?) -> CookieSyncSide {
        switch self {
        case .preferWeb: return .web
        case .preferJar: return .jar
        case .decide(let decide): return decide(jar, web)
        }
    }
}
