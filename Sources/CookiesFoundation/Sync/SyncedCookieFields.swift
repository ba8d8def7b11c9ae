import Cookies

/// What a sync compares of a cookie: the fields both sides carry. A platform store that drops HttpOnly,
/// SameSite or Secure (swift-corelibs-foundation's `HTTPCookie` has no SameSite, its storage's file loses
/// HttpOnly and Secure; Apple's knows no SameSite `None`) gives back cookies that differ from the jar's only
/// in those, which is no change; the expiry compares
/// to the second, as `Date` and WebKit round it; creation and last-access times are the jar's own.
struct SyncedCookieFields: Hashable {
    let name: String
    let value: String
    let domain: String
    let isHostOnly: Bool
    let path: String
    let expirySecond: Int64?
    let isSecure: Bool?
    let isHTTPOnly: Bool?
    let sameSite: SameSite?

    init(_ cookie: Cookie, carried: CarriedCookieFields) {
        name = cookie.name
        value = cookie.value
        domain = cookie.domain
        isHostOnly = cookie.isHostOnly
        path = cookie.path
        expirySecond = cookie.expiry.map { $0.microsecondsSinceEpoch.roundedToSeconds }
        isSecure = carried.contains(.secure) ? cookie.isSecure : nil
        isHTTPOnly = carried.contains(.httpOnly) ? cookie.isHTTPOnly : nil
        sameSite = Self.sameSite(cookie.sameSite, carried: carried)
    }

    /// SameSite as a store that carries `carried` gives it back.
    static func sameSite(_ sameSite: SameSite, carried: CarriedCookieFields) -> SameSite? {
        guard carried.contains(.sameSiteStrictAndLax) else { return nil }
        if sameSite == .none && !carried.contains(.sameSiteNone) { return .default }
        return sameSite
    }
}

extension Cookie {
    /// The platform store's version `self` of a cookie as the jar should hold it: the fields the store
    /// cannot carry come from `base` (the jar's or the last synchronised version), as do the creation
    /// and last-access times.
    func filling(uncarried carried: CarriedCookieFields, from base: Cookie?) -> Cookie {
        guard let base else { return self }
        var cookie = self
        cookie.creation = base.creation
        cookie.lastAccess = base.lastAccess
        if !carried.contains(.secure) { cookie.isSecure = base.isSecure }
        if !carried.contains(.httpOnly) { cookie.isHTTPOnly = base.isHTTPOnly }
        // SameSite as the store gave it back: the base's when the store could not tell them apart.
        let carriedSameSite = SyncedCookieFields.sameSite(sameSite, carried: carried)
        if SyncedCookieFields.sameSite(base.sameSite, carried: carried) == carriedSameSite {
            cookie.sameSite = base.sameSite
        }
        return cookie
    }
}

extension Int64 {
    /// Microseconds to the nearest second (halves up; the top half-second saturates).
    fileprivate var roundedToSeconds: Int64 {
        let (shifted, overflow) = addingReportingOverflow(500_000)
        let (quotient, remainder) = (overflow ? self : shifted).quotientAndRemainder(dividingBy: 1_000_000)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
