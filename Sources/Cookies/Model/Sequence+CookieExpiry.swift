extension Sequence<Cookie> {
    /// The cookies not expired at `now`, in order: those a jar would store or send at that instant
    /// (§5.7: expired cookies are evicted; §5.8.3 sends only what the store holds).
    public func unexpired(at now: CookieTime) -> [Cookie] {
        filter { !$0.isExpired(at: now) }
    }

    /// The cookies expired at `now`, in order: those a jar would drop (`Cookie.isExpired(at:)`).
    public func expired(at now: CookieTime) -> [Cookie] {
        filter { $0.isExpired(at: now) }
    }
}
