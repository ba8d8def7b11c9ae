extension CookieJar {
    /// Puts cookies read from a file into the jar through `insert(_:)`: no §5.7 checks (the readers check
    /// what a file can get wrong, `ImportedCookie`), a cookie replaces one of the same identity, limits
    /// apply, and cookies already expired are dropped.
    ///
    /// - Returns: how many cookies were stored.
    @discardableResult
    public func insert(contentsOf cookies: some Sequence<Cookie>) -> Int {
        var stored = 0
        for cookie in cookies {
            switch insert(cookie) {
            case .stored, .replaced: stored += 1
            case .deleted, .expired, .rejected: break
            }
        }
        return stored
    }
}
