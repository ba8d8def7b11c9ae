/// The cookies of one site (registrable domain, or host when it has none), kept in the order §5.8.3
/// step 4 sends them: longer paths first, then earlier creation times. Retrieval never sorts.
struct SiteCookies: Sendable {
    private(set) var cookies: [Cookie] = []
    /// No cookie of this site expires before this instant (a lower bound; `.max` when none expires).
    private(set) var earliestExpiry = CookieTime(microsecondsSinceEpoch: .max)
    /// How many of the cookies are partitioned (CHIPS): retrieval works out the request's partition
    /// only when some are.
    private(set) var partitionedCount = 0

    var count: Int { cookies.count }
    var isEmpty: Bool { cookies.isEmpty }

    /// The index of the cookie that `cookie` would replace (§5.7 step 23), if any.
    func indexOfCookie(withIdentityOf cookie: Cookie) -> Int? {
        cookies.firstIndex { $0.hasSameIdentity(as: cookie) }
    }

    /// §5.8.3 step 4: `first` is sent before `second` when its path is longer, or as long and it was
    /// created no later.
    @inline(__always)
    static func precedesInSendOrder(_ first: Cookie, _ second: Cookie) -> Bool {
        let firstLength = first.path.utf8.count
        let secondLength = second.path.utf8.count
        return firstLength > secondLength || (firstLength == secondLength && first.creation <= second.creation)
    }

    /// Inserts `cookie` at its place in send order.
    mutating func insert(_ cookie: Cookie) {
        var low = 0
        var high = cookies.count
        while low < high {
            let middle = (low + high) / 2
            if SiteCookies.precedesInSendOrder(cookies[middle], cookie) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        cookies.insert(cookie, at: low)
        noteAdded(cookie)
    }

    private mutating func noteAdded(_ cookie: Cookie) {
        if let expiry = cookie.expiry, expiry < earliestExpiry { earliestExpiry = expiry }
        if cookie.partitionKey != nil { partitionedCount += 1 }
    }

    private mutating func noteRemoved(_ cookie: Cookie) {
        if cookie.partitionKey != nil { partitionedCount -= 1 }
    }

    /// Adds many cookies of distinct identities at once (loading a file): one sort instead of one
    /// insertion each.
    mutating func load(_ loaded: [Cookie]) {
        cookies += loaded
        // A jar file gives its rows in the order they were written, usually send order already.
        if !cookies.indices.dropFirst().allSatisfy({ SiteCookies.precedesInSendOrder(cookies[$0 - 1], cookies[$0]) }) {
            cookies.sort(by: SiteCookies.precedesInSendOrder)
        }
        for cookie in loaded { noteAdded(cookie) }
    }

    /// Replaces the cookie at `index` with one of the same identity and creation time (same place in order).
    mutating func replace(at index: Int, with cookie: Cookie) {
        noteRemoved(cookies[index])
        cookies[index] = cookie
        noteAdded(cookie)
    }

    @discardableResult
    mutating func remove(at index: Int) -> Cookie {
        let removed = cookies.remove(at: index)
        noteRemoved(removed)
        return removed
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
        for cookie in removed { noteRemoved(cookie) }
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
