/// rfc6265bis-22 §5.8.3 step 2: the order cookies go on a request, longer paths first, then earlier
/// creation. The one statement of that rule: a site keeps its cookies in it (`SiteCookies`), and a jar
/// file writes its new rows in it (`CookieDatabase.write`), so that they load in it.
struct SendOrder: Comparable {
    /// The length of the cookie's path, in bytes.
    let pathLength: Int
    let creation: CookieTime

    /// True when a cookie at `first` goes before one at `second` (the spec orders cookies of equal keys
    /// no further).
    @inline(__always)
    static func < (first: SendOrder, second: SendOrder) -> Bool {
        first.pathLength != second.pathLength ? first.pathLength > second.pathLength : first.creation < second.creation
    }
}
