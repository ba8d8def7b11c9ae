/// Why a sync call failed. After any of them both sides and the sync's record are consistent: nothing
/// the platform store did not confirm is recorded as done, so the next sync picks up where this stopped.
public enum CookieSyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A call on the platform store did not complete within the timeout (its effect may still land
    /// later; the next sync reads it back).
    case timedOut(call: PlatformCall, after: Duration)
    /// A call on the platform store threw.
    case storeFailed(call: PlatformCall, reason: String)
    /// `signOut(site:)` was asked for a site outside the sync's scope.
    case siteOutOfScope(String)
    /// A domain of the sync's scope, or the site given to `signOut(site:)`, is no host name or IP address
    /// (`CanonicalHost` cannot canonicalise it: empty, a forbidden character, a label IDNA refuses, an
    /// IPv4 address out of range): compared as written, it would match no cookie the jar holds.
    case invalidDomain(String)
    /// After `signOut(site:)` deleted the site's cookies on both sides, a read still found some (they
    /// kept arriving from the other side); the record is kept so that the next sync deletes them.
    case signOutUnconfirmed(site: String, remaining: [String])

    /// The calls a sync makes on a platform store.
    public enum PlatformCall: String, Sendable, Hashable {
        case allCookies, setCookies, deleteCookies
    }

    public var description: String {
        switch self {
        case .timedOut(let call, let after): return "the platform store's \(call.rawValue) did not complete in \(after)"
        case .storeFailed(let call, let reason): return "the platform store's \(call.rawValue) failed: \(reason)"
        case .siteOutOfScope(let site): return "\(site) is not within the sync's domains"
        case .invalidDomain(let domain): return "\(domain) is no host name or IP address"
        case .signOutUnconfirmed(let site, let remaining):
            return "sign-out of \(site) unconfirmed: still present: \(remaining.joined(separator: ", "))"
        }
    }
}
