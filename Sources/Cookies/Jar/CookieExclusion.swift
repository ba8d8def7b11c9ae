/// Why a stored cookie is not sent on a request (rfc6265bis-22 §5.8.3 step 1), one case per rule.
/// Retrieval checks the request's scheme first (`unsupportedScheme`), then expiry, then the others in the
/// order listed. Inclusion is the absence of a reason.
public enum CookieExclusion: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The cookie had expired.
    case expired
    /// A host-only cookie, and the request goes to another host (even a subdomain).
    case hostOnly = "host-only"
    /// The request host does not domain-match the cookie's domain.
    case domainMismatch = "domain-mismatch"
    /// The request path does not path-match the cookie's path (§5.1.4).
    case pathMismatch = "path-mismatch"
    /// A Secure cookie, and the request does not travel over a secure channel.
    case secureOnly = "secure-only"
    /// An HttpOnly cookie, and the reader is a non-HTTP API.
    case httpOnly = "httponly"
    /// A SameSite Strict, Lax or Default cookie, and the request is cross-site (Lax and Default ones go
    /// only on a top-level navigation with a safe method).
    case sameSite = "samesite"
    /// A partitioned cookie, and the request is made under another top-level site (CHIPS).
    case partition
    /// The request's scheme does not carry cookies.
    case unsupportedScheme = "unsupported-scheme"

    public var description: String { rawValue }

    /// One line saying why, for people.
    public var explanation: String {
        switch self {
        case .expired: return "it has expired"
        case .hostOnly: return "it is host-only, and this request goes to another host"
        case .domainMismatch: return "the request host is not within the cookie's domain"
        case .pathMismatch: return "the request path is not within the cookie's path"
        case .secureOnly: return "it is Secure, and this request is not over https or wss (nor to a loopback host)"
        case .httpOnly: return "it is HttpOnly, and the reader is a non-HTTP API"
        case .sameSite: return "its SameSite mode keeps it off this cross-site request"
        case .partition: return "it is partitioned under another top-level site"
        case .unsupportedScheme: return "only http, https, ws and wss requests carry cookies"
        }
    }
}

/// A stored cookie and whether a request would carry it.
public struct RetrievalDecision: Sendable, Hashable {
    /// The stored cookie.
    public var cookie: Cookie
    /// Why the request would not carry it; nil when it would.
    public var exclusion: CookieExclusion?
}
