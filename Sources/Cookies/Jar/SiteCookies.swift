/// The cookies of one site (registrable domain, or host when it has none), kept in the order §5.8.3
/// step 4 sends them: longer paths first, then earlier creation times. Retrieval never sorts.
struct SiteCookies: Sendable {
    private(set) var cookies: [Cookie] = []
    /// No cookie of this site expires before this instant (a lower bound; `.max` when none expires).
    private(set) var earliestExpiry = CookieTime(microsecondsSinceEpoch: .max)

    var count: Int { cookies.count }
    var isEmpty: Bool { cookies.isEmpty }

    /// The index of the cookie that `cookie` would replace (§5.7 step 23), if any.
    func indexOfCookie(withIdentityOf cookie: Cookie) -> Int? {
        cookies.firstIndex { $0.hasSameIdentity(as: cookie) }
    }

    /// Inserts `cookie` at its place in send order.
    mutating func insert(_ cookie: Cookie) {
        let length = cookie.path.utf8.count
        var low = 0
        var high = cookies.count
        while low < high {
            let middle = (low + high) / 2
            let other = cookies[middle]
            let otherLength = other.path.utf8.count
            if otherLength > length || (otherLength == length && other.creation <= cookie.creation) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        cookies.insert(cookie, at: low)
        if let expiry = cookie.expiry, expiry < earliestExpiry { earliestExpiry = expiry }
    }

    /// Replaces the cookie at `index` with one of the same identity and creation time (same place in order).
    mutating func replace(at index: Int, with cookie: Cookie) {
        cookies[index] = cookie
        if let expiry = cookie.expiry, expiry < earliestExpiry { earliestExpiry = expiry }
    }

    @discardableResult
    mutating func remove(at index: Int) -> Cookie {
        cookies.remove(at: index)
    }

    /// Removes the cookies for which `shouldRemove` is true; returns them.
    mutating func removeAll(where shouldRemove: (Cookie) -> Bool) -> [Cookie] {
        var removed: [Cookie] = []
        cookies.removeAll { cookie in
            if shouldRemove(cookie) {
                removed.append(cookie)
                return true
            }
            return false
        }
        return removed
    }

    /// True when some cookie may have expired at `now`.
    @inline(__always)
    func mayHaveExpired(at now: CookieTime) -> Bool { earliestExpiry <= now }

    /// Removes every cookie expired at `now` and recomputes `earliestExpiry`; returns the removed ones.
    mutating func purgeExpired(at now: CookieTime) -> [Cookie] {
        let removed = removeAll { $0.isExpired(at: now) }
        earliestExpiry = cookies.lazy.compactMap(\.expiry).min() ?? CookieTime(microsecondsSinceEpoch: .max)
        return removed
    }

    /// Sets the last-access time of the cookies at `indices` (§5.8.3 step 5).
    @inline(__always)
    mutating func touch(_ indices: UnsafeBufferPointer<Int>, now: CookieTime) {
        cookies.withUnsafeMutableBufferPointer { cookies in
            for index in indices { cookies[index].lastAccess = now }
        }
    }

    /// Calls `body` with the cookies in send order, without copying them.
    @inline(__always)
    func withCookies<R>(_ body: (UnsafeBufferPointer<Cookie>) -> R) -> R {
        cookies.withUnsafeBufferPointer(body)
    }
}
