import Cookies
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Conversions between the jar's `Cookie` and Foundation's `HTTPCookie`, e.g. to copy the jar into an
// `HTTPCookieStorage` or a web view's cookie store and back.
//
// Lossless for what both sides hold: name, value, domain and host-only-flag (a domain cookie's domain
// gets the leading "." that `HTTPCookie` expects; a host-only cookie's has none; an IPv6 address is
// written without its brackets, as `URL.host` gives it to Foundation's matching), path, expiry (to the
// microsecond within about 70 years of 2001, see `Date.init(_: CookieTime)`) or session, Secure,
// HttpOnly, and on Apple platforms SameSite Strict and Lax.
//
// What `HTTPCookie` cannot hold, so `Cookie → HTTPCookie → Cookie` gives back what the caller passes:
// - the creation and last-access times (`HTTPCookie` stamps its own creation time when it is made);
// - the CHIPS partition key: a partitioned cookie makes no `HTTPCookie` at all (nil), since unpartitioned
//   it would go on every request to its host, in every context, and replace the host's own cookie of the
//   same name, domain and path;
// - SameSite on Linux (swift-corelibs-foundation has no `sameSitePolicy`, checked with Swift 6.3.1), and
//   everywhere the difference between `SameSite=None` and no SameSite (`.default`): `HTTPCookie` only
//   knows Strict and Lax, so both come back as `.default`;
// - where the cookie came from (`isSourceSecure` comes back as `isSecure`, `sourcePort` as nil).
//
// What `Cookie` cannot hold, so `HTTPCookie → Cookie → HTTPCookie` drops it:
// - the version (RFC 2965 version 1 is obsolete; the jar keeps RFC 6265bis cookies, version 0);
// - the port list (RFC 6265bis has no Port attribute: the cookie is sent to every port);
// - the comment and comment URL;
// - a cookie that is neither session-only nor has an expiry date becomes a session cookie. (swift-corelibs-
//   foundation makes one from a version-0 `Max-Age`: its expiry is read back from the `Max-Age` and
//   `Created` properties it keeps, checked with Swift 6.3.1.)

/// Foundation's cookie made from a jar's cookie (what a web view's cookie store or `HTTPCookieStorage` takes).
extension HTTPCookie {
    /// The Foundation cookie holding what `cookie` holds (see the list above for what it cannot); nil for
    /// a partitioned cookie (CHIPS), which `HTTPCookie` cannot keep in its partition, and when Foundation
    /// refuses the properties.
    public convenience init?(_ cookie: Cookie) {
        guard cookie.partitionKey == nil else { return nil }
        // An IPv6 address as `URL.host` gives it, without brackets: Foundation matches cookies against it.
        let domain = cookie.domain.hasPrefix("[") ? String(cookie.domain.dropFirst().dropLast()) : cookie.domain
        var properties: [HTTPCookiePropertyKey: Any] = [
            .name: cookie.name,
            .value: cookie.value,
            .domain: cookie.isHostOnly ? domain : "." + domain,
            .path: cookie.path,
            .version: "0",
        ]
        if let expiry = cookie.expiry {
            properties[.expires] = Date(expiry)
        } else {
            properties[.discard] = "TRUE"
        }
        // Both Foundations read any non-empty Secure value as true: leave it out for false.
        if cookie.isSecure { properties[.secure] = "TRUE" }
        if cookie.isHTTPOnly { properties[.httpOnly] = "TRUE" }
        #if canImport(Darwin)
        switch cookie.sameSite {
        case .strict: properties[.sameSitePolicy] = HTTPCookieStringPolicy.sameSiteStrict
        case .lax: properties[.sameSitePolicy] = HTTPCookieStringPolicy.sameSiteLax
        case .none, .default: break
        }
        #endif
        self.init(properties: properties)
    }
}

extension HTTPCookie {
    /// The expiry of a cookie swift-corelibs-foundation made from a `Max-Age` attribute without setting
    /// its `expiresDate`: its creation plus the Max-Age (rfc6265bis-22 §5.6.2, a non-positive Max-Age
    /// expires it at once), the value read by §5.6.2 as the jar reads it (an optional "-" and digits, a
    /// value past Int64 saturating; "+60" is no Max-Age).
    var maxAgeExpiry: CookieTime? {
        guard let properties, let text = properties[.maximumAge] as? String,
            let maxAge = (try? ParsedSetCookie(parsing: "x=; Max-Age=" + text))?.maxAge,
            let created = properties[.creationTime] as? Double
        else { return nil }
        let creation = CookieTime(Date(timeIntervalSinceReferenceDate: created))
        return maxAge > 0 ? creation.adding(seconds: maxAge) : creation
    }
}

extension HTTPCookiePropertyKey {
    /// The HttpOnly flag: a key both Foundations read, though only Apple's declares it.
    static let httpOnly = HTTPCookiePropertyKey("HttpOnly")
    /// When the cookie was made, in seconds since 2001 (`Date.timeIntervalSinceReferenceDate`): a key both
    /// Foundations write, though neither declares it publicly.
    static let creationTime = HTTPCookiePropertyKey("Created")
}

/// A jar's cookie made from Foundation's.
extension Cookie {
    /// The jar's cookie holding what `cookie` holds (see the list above for what it cannot), created and
    /// last accessed at `creation`.
    public init(_ cookie: HTTPCookie, creation: CookieTime) {
        let isDomainCookie = cookie.domain.hasPrefix(".")
        let domain = isDomainCookie ? String(cookie.domain.dropFirst()) : cookie.domain
        var sameSite = SameSite.default
        #if canImport(Darwin)
        switch cookie.sameSitePolicy {
        case .sameSiteStrict?: sameSite = .strict
        case .sameSiteLax?: sameSite = .lax
        default: break
        }
        #endif
        self.init(
            name: cookie.name, value: cookie.value,
            // An IPv6 address (Foundation's, without brackets) as the jar keeps a host, inside them.
            domain: domain.contains(":") && !domain.hasPrefix("[") ? "[" + domain + "]" : domain,
            isHostOnly: !isDomainCookie, path: cookie.path,
            expiry: cookie.isSessionOnly ? nil : cookie.expiresDate.map(CookieTime.init) ?? cookie.maxAgeExpiry,
            creation: creation, isSecure: cookie.isSecure, isHTTPOnly: cookie.isHTTPOnly, sameSite: sameSite,
            isSourceSecure: cookie.isSecure)
    }
}
