/// One change to a jar's contents, with its cause: enough to keep a mirror (a web view's cookie store, a
/// second jar, a file) in sync by applying the changes in order.
public enum CookieChange: Sendable, Hashable {
    /// A cookie was stored where none of its identity was.
    case added(Cookie)
    /// A cookie replaced `old`, the cookie of the same identity (name, domain, host-only-flag, path,
    /// partition key).
    case replaced(old: Cookie, new: Cookie)
    /// A cookie left the jar.
    case removed(Cookie, cause: RemovalCause)

    /// Why a cookie left the jar.
    public enum RemovalCause: String, Sendable, Hashable, CaseIterable {
        /// Its expiry-time passed, or a server sent it again already expired (rfc6265bis-22 §5.7).
        case expired
        /// The jar was over a limit (`CookieLimits`).
        case evicted
        /// An explicit delete call.
        case deleted
        /// A sign-out cleared its site.
        case signedOut
        /// The session ended (`deleteSessionCookies`): session cookies do not outlive it.
        case sessionEnded
    }

    /// The cookie in the jar after the change, or the one removed.
    public var cookie: Cookie {
        switch self {
        case .added(let cookie), .replaced(_, let cookie), .removed(let cookie, _): return cookie
        }
    }
}
