/// What receiving one `Set-Cookie` line did to the jar.
public enum SetCookieOutcome: Sendable, Hashable {
    /// A new cookie was stored.
    case stored(Cookie)
    /// The cookie replaced `previous` (same name, domain, host-only-flag, path and partition), keeping its
    /// creation time (rfc6265bis-22 §5.7 step 23).
    case replaced(Cookie, previous: Cookie)
    /// The cookie had already expired; it removed `previous`, the cookie it would have replaced.
    case deleted(previous: Cookie)
    /// The cookie had already expired and there was nothing to remove.
    case expired
    /// The line or the cookie was ignored, for this reason.
    case rejected(CookieRejection)

    /// The cookie now in the jar, if the line stored one.
    public var cookie: Cookie? {
        switch self {
        case .stored(let cookie), .replaced(let cookie, _): return cookie
        case .deleted, .expired, .rejected: return nil
        }
    }

    /// The reason the line was ignored, if it was.
    public var rejection: CookieRejection? {
        if case .rejected(let reason) = self { return reason }
        return nil
    }
}

extension SetCookieOutcome {
    /// The change to the jar this outcome reports, nil when it made none (an expired old cookie that a
    /// receipt removed first is a change of its own).
    var change: CookieChange? {
        switch self {
        case .stored(let cookie): .added(cookie)
        case .replaced(let cookie, let previous): .replaced(old: previous, new: cookie)
        case .deleted(let previous): .removed(previous, cause: .expired)
        case .expired, .rejected: nil
        }
    }
}
