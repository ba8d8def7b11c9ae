extension CookieStore {
    /// rfc6265bis-22 §5.7 for one `Set-Cookie` line whose UTF-8 is `line` and whose parts (§5.6) are
    /// `parts`, received from `url` in `context` at `now`: the receive rules (steps 1–22,
    /// `CookieReceivingRules`) validate the cookie, and the store replaces or inserts it (steps 23–24,
    /// `store(_:now:)`). `Report` says what the caller learns: `StorageAction`, or `SetCookieOutcome`
    /// with the cookies.
    @inline(__always)
    mutating func receive<Report: ReceiptReport>(
        _ parts: CookieParts, line: UnsafeBufferPointer<UInt8>, from url: CookieURL, context: CookieRequestContext,
        now: CookieTime
    ) -> Report {
        let result = CookieReceivingRules.validate(
            parts, line: line, from: url, context: context, now: now, limits: limits, store: &self
        ) { store, cookie -> Report in
            store.store(cookie, now: now)
        }
        switch result {
        case .success(let report): return report
        case .failure(let rejection): return .rejected(rejection)
        }
    }
}
