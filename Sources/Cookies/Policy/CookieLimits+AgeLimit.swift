extension CookieLimits {
    /// The expiry-time of rfc6265bis-22 §5.7 step 6 for a cookie received at `now`: from the last Max-Age
    /// (zero or negative: the earliest time), else the last Expires, capped at the cookie-age-limit
    /// (§5.5, §5.6.1, §5.6.2: `maxAgeSeconds` after the receive time); neither: nil, a session cookie.
    @inline(__always)
    package func expiryTime(maxAge: Int64?, expires: Int64?, receivedAt now: CookieTime) -> CookieTime? {
        let ageLimit = ageLimit(after: now)
        if let maxAge { return maxAge <= 0 ? .distantPast : min(now.adding(seconds: maxAge), ageLimit) }
        if let expires { return min(CookieTime(secondsSinceEpoch: expires), ageLimit) }
        return nil
    }

    /// The cookie-age-limit of a cookie stored at `now` (rfc6265bis-22 §5.5: "the user agent MUST limit
    /// the maximum age of the cookie"): `maxAgeSeconds` after it.
    @inline(__always)
    package func ageLimit(after now: CookieTime) -> CookieTime {
        now.adding(seconds: maxAgeSeconds)
    }

    /// The attribute whose lifetime the cookie-age-limit shortens for `cookie` received at `now`, as
    /// `expiryTime` applies it (Max-Age wins over Expires); nil when the cookie lives as long as it asks.
    public func cappedLifetime(of cookie: ParsedSetCookie, receivedAt now: CookieTime) -> CappedLifetime? {
        if let maxAge = cookie.maxAge { return maxAge > maxAgeSeconds ? .maxAge(maxAge) : nil }
        if let expires = cookie.expires, CookieTime(secondsSinceEpoch: expires) > ageLimit(after: now) {
            return .expires(expires)
        }
        return nil
    }
}

/// A lifetime attribute that the cookie-age-limit (rfc6265bis-22 §5.5, `CookieLimits.maxAgeSeconds`)
/// shortens: the cookie expires at the limit instead.
public enum CappedLifetime: Sendable, Hashable {
    /// Max-Age asks for this many seconds, more than the limit.
    case maxAge(Int64)
    /// Expires asks for this time (seconds since the Unix epoch), beyond the limit after receipt.
    case expires(Int64)
}
