/// A cookie as the jar keeps it: the fields of rfc6265bis-22 §5.7 after every check passed, plus the
/// CHIPS partition key and where the cookie came from.
public struct Cookie: Sendable, Hashable {
    /// The cookie's name; empty for a nameless cookie (a `Set-Cookie` line without "=", §5.6).
    public var name: String
    /// The cookie's value, as the server sent it (DQUOTEs included).
    public var value: String
    /// The canonical request-host (host-only cookies) or the Domain attribute (§5.7 step 10).
    public var domain: String
    /// True when only the host named by `domain` gets the cookie (§5.7 step 10).
    public var isHostOnly: Bool
    /// The cookie-path (§5.7 step 11).
    public var path: String
    /// When the cookie expires; nil for a session cookie, which lasts until the session ends (rfc6265bis-22
    /// §5.7: step 6 leaves it non-persistent, and a store removes such cookies when the session is over).
    public var expiry: CookieTime?
    /// When the cookie was first stored; a replacement keeps the old cookie's creation time (§5.7 step 23).
    public var creation: CookieTime
    /// When the cookie was last sent (§5.8.3 step 3).
    public var lastAccess: CookieTime
    /// Secure: sent only over secure channels (§5.7 step 12).
    public var isSecure: Bool
    /// HttpOnly: invisible to non-HTTP APIs (§5.7 step 14).
    public var isHTTPOnly: Bool
    /// The same-site-flag (§5.7 step 17).
    public var sameSite: SameSite
    /// The CHIPS partition key (the top-level site, `scheme://registrable-domain`) of a Partitioned
    /// cookie; nil for an unpartitioned one.
    public var partitionKey: String?
    /// True when the cookie was set from a secure origin.
    public var isSourceSecure: Bool
    /// The port of the URL that set the cookie, if it named one.
    public var sourcePort: Int?

    /// True for a persistent cookie (one with an expiry), false for a session cookie.
    public var isPersistent: Bool { expiry != nil }

    /// True when the cookie has expired at `now` (§5.7: expired cookies are evicted).
    @inline(__always)
    public func isExpired(at now: CookieTime) -> Bool {
        if let expiry { return expiry <= now }
        return false
    }

    /// The identity of §5.7 step 23: a new cookie with the same name, domain, host-only-flag and path
    /// (and, for CHIPS, partition key) replaces the old one.
    @inline(__always)
    func hasSameIdentity(as other: Cookie) -> Bool {
        CookieIdentity(self) == CookieIdentity(other)
    }

    /// `name=value`, or the value alone for a nameless cookie (§5.8.3 step 4).
    public var pair: CookiePair { CookiePair(name: name, value: value) }
}

// The public initialiser lives in an extension so that the struct keeps its memberwise initialiser: the
// jar builds cookies through that one, which the optimiser turns into stores straight into the result,
// where an initialiser assigning each property builds a temporary, copies it and destroys it (Swift 6.3).
extension Cookie {
    /// A cookie with these fields, as a file or the app itself describes it (no §5.7 check is made:
    /// `CookieJar.insert(_:)` stores it as it is). `lastAccess` defaults to `creation`; no `expiry` makes
    /// a session cookie.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
        expiry: CookieTime? = nil, creation: CookieTime, lastAccess: CookieTime? = nil, isSecure: Bool = false,
        isHTTPOnly: Bool = false, sameSite: SameSite = .default, partitionKey: String? = nil,
        isSourceSecure: Bool = false, sourcePort: Int? = nil
    ) {
        self.init(
            name: name, value: value, domain: domain, isHostOnly: isHostOnly, path: path, expiry: expiry,
            creation: creation, lastAccess: lastAccess ?? creation, isSecure: isSecure, isHTTPOnly: isHTTPOnly,
            sameSite: sameSite, partitionKey: partitionKey, isSourceSecure: isSourceSecure, sourcePort: sourcePort)
    }
}
