/// What `CookieJar.insert(contentsOf:)` did: the cookies it stored, those whose expiry it brought to the
/// cookie-age-limit, those a later one of the same identity replaced, those it dropped as expired or refused, and the cookies the jar's limits evicted meanwhile —
/// inserted ones or ones the jar held before.
public struct CookieInsertionReport: Sendable, Hashable {
    /// Cookies stored, new or replacing a cookie of the same identity. A later cookie of the same call
    /// may have evicted some of them again (`evictions`), or replaced them (`superseded`).
    public var stored: Int
    /// Cookies stored with an earlier expiry than the file gave them: one later than the jar's
    /// `CookieLimits.maxAgeSeconds` after the import (rfc6265bis-22 §5.5, 400 days by default) expires at
    /// that instant instead. Counted in `stored`.
    public var capped: Int
    /// Cookies stored, then replaced or deleted by a later cookie of the same call with the same identity
    /// (name, domain, host-only flag, path and partition key, `CookieIdentity`): a file holding one cookie
    /// twice. Counted in `stored`; the jar keeps the later one, as §5.7 step 23 replaces a cookie, or none
    /// when the later one had expired.
    public var superseded: Int
    /// Cookies not stored because they had already expired (each removed the cookie of its identity the
    /// jar held, if any).
    public var expired: Int
    /// Cookies not stored because no `Set-Cookie` line could have given a jar them (`CookieJar.insert(_:)`),
    /// by reason: a name and value over 4,096 bytes together, a control character in them, a source port
    /// outside 0–65535, a partition key that names no top-level site, SameSite=None, a `__Secure-` or
    /// `__Host-` name or a partition without Secure, and the other rules of a cookie's own attributes. The
    /// file readers refuse the first ones first, each with its own error.
    public var rejections: [CookieRejection: Int]
    /// The evictions by site and limit, one entry for each pair, in the order of the sites, then of the
    /// limits.
    public var evictions: [CookieEviction]

    /// A report of `stored`, `capped`, `superseded`, `expired` and rejected cookies and `evictions`
    /// (merged by site and limit, and sorted).
    public init(
        stored: Int, capped: Int = 0, superseded: Int = 0, expired: Int, rejections: [CookieRejection: Int] = [:],
        evictions: some Sequence<CookieEviction>
    ) {
        self.stored = stored
        self.capped = capped
        self.superseded = superseded
        self.expired = expired
        self.rejections = rejections
        var merged: [CookieEviction] = []
        for eviction in evictions.sorted(by: { ($0.site, $0.limit) < ($1.site, $1.limit) }) {
            if let last = merged.last, last.site == eviction.site, last.limit == eviction.limit {
                merged[merged.count - 1].count += eviction.count
            } else {
                merged.append(eviction)
            }
        }
        self.evictions = merged
    }

    /// How many cookies the limits evicted in all.
    public var evictedCount: Int { evictions.reduce(0) { $0 + $1.count } }

    /// How many cookies `limit` evicted, over every site.
    public func evictedCount(by limit: CookieEviction.Limit) -> Int {
        evictions.reduce(0) { $0 + ($1.limit == limit ? $1.count : 0) }
    }
}
