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
// - an empty name: a nameless cookie makes no `HTTPCookie` (nil), since Foundation sends it as "=value",
//   where §5.8.3 step 4.1 sends the value alone (a server reads a cookie named "" or none at all);
// - SameSite on Linux (swift-corelibs-foundation has no `sameSitePolicy`, checked with Swift 6.3.1), and
//   everywhere the difference between `SameSite=None` and no SameSite (`.default`): `HTTPCookie` only
//   knows Strict and Lax, so both come back as `.default`;
// - where the cookie came from (`isSourceSecure` comes back as `isSecure`, `sourcePort` as nil).
//
// What `Cookie` cannot hold, so `HTTPCookie → Cookie → HTTPCookie` drops it:
// - the version (RFC 2965 version 1 is obsolete; the jar keeps RFC 6265bis cookies, version 0);
// - the port list (RFC 6265bis has no Port attribute: the cookie is sent to every port);
// - the comment and comment URL;
// - a cookie that is neither session-only nor has an expiry becomes a session cookie. (Its expiry is read
//   from the `Max-Age` and `Expires` texts Foundation keeps where it keeps them, as the jar reads a
//   `Set-Cookie` line's, rather than from `expiresDate` and `isSessionOnly`: see `HTTPCookie.expiryTime`.)

/// Foundation's cookie made from a jar's cookie (what a web view's cookie store or `HTTPCookieStorage` takes).
extension HTTPCookie {
    /// The Foundation cookie holding what `cookie` holds (see the list above for what it cannot); nil for
    /// a partitioned cookie (CHIPS), which `HTTPCookie` cannot keep in its partition, for a nameless one,
    /// which Foundation would send as "=value", and when Foundation refuses the properties.
    public convenience init?(_ cookie: Cookie) {
        guard cookie.partitionKey == nil, !cookie.name.isEmpty else { return nil }
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
    /// The cookie's expiry-time (nil: a session cookie), decided as the jar decides it for a `Set-Cookie`
    /// line (rfc6265bis-22 §5.7 step 6) from the attribute texts Foundation keeps in `properties`
    /// (swift-corelibs-foundation keeps a response's `Max-Age` and `Expires` as they came): a Max-Age that
    /// §5.6.2 accepts (an optional "-" and DIGITs) wins, counted from when Foundation made the cookie (its
    /// `Created` property), else an Expires that §5.6.1 accepts (a cookie-date, §5.1.1), either capped at the
    /// cookie-age-limit (§5.5: 400 days, `CookieLimits.default`); a text the algorithm ignores is no
    /// attribute. Foundation's `isSessionOnly` is not consulted then: swift-corelibs-foundation sets it for a
    /// `Discard` attribute and for `Version=1` without Max-Age, which §5.6 ignores. Nor is its
    /// `expiresDate`: swift-corelibs-foundation (Swift 6.3.1) drops a version-0 cookie's Max-Age, and its
    /// Expires with it, whenever `Int` reads the Max-Age (`+60` too, which §5.6.2 ignores, so that Expires
    /// applies), takes Expires when `Int` does not (a Max-Age past Int64, which §5.6.2 saturates), and reads
    /// Expires by three date formats of its own.
    ///
    /// Where Foundation keeps no such text, its expiry is taken as it is: none for a session-only cookie,
    /// else the `Expires` date of the properties (a cookie made from properties with a date, as
    /// `HTTPCookie(_: Cookie)` makes one), else `expiresDate` (what Apple's Foundation made of a response's
    /// cookie, where it keeps no text).
    var expiryTime: CookieTime? {
        let properties = properties ?? [:]
        let maxAge = (properties[.maximumAge] as? String).flatMap(ParsedSetCookie.maxAge(parsing:))
        let expires = properties[.expires] as? String
        if maxAge != nil || expires != nil, let created = properties[.creationTime] as? Double {
            return CookieLimits.default.expiryTime(
                maxAge: maxAge, expires: expires.flatMap(ParsedSetCookie.expires(parsing:)),
                receivedAt: CookieTime(Date(timeIntervalSinceReferenceDate: created)))
        }
        if isSessionOnly { return nil }
        return ((properties[.expires] as? Date) ?? expiresDate).map(CookieTime.init)
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
    /// last accessed at `creation`. Its expiry is the one the jar gives the `Max-Age` and `Expires`
    /// attributes Foundation kept as texts (rfc6265bis-22 §5.6.1, §5.6.2: Max-Age first, capped at 400
    /// days after Foundation made the cookie), where it kept them, else Foundation's own.
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
            expiry: cookie.expiryTime,
            creation: creation, isSecure: cookie.isSecure, isHTTPOnly: cookie.isHTTPOnly, sameSite: sameSite,
            isSourceSecure: cookie.isSecure)
    }
}
