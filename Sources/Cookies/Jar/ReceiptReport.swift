/// What the store reports of one received line (steps 23–24 of rfc6265bis-22 §5.7, or the rule that
/// ignored it): `SetCookieOutcome`, which carries the cookies stored and removed, or `StorageAction`,
/// which does not. The cookies are handed over as closures that read them out of the site, so that a
/// report without them costs nothing.
protocol ReceiptReport {
    /// The cookie a line replaced or deleted, as the report keeps it: read before the site changes.
    associatedtype Previous

    /// The cookie a line is about to replace or delete (`cookie` reads it out of the site).
    static func previous(_ cookie: () -> Cookie) -> Previous
    /// A new cookie was inserted (step 24); `cookie` reads it.
    static func stored(_ cookie: () -> Cookie) -> Self
    /// The cookie `cookie` reads replaced `previous` (step 23).
    static func replaced(_ cookie: () -> Cookie, previous: Previous) -> Self
    /// The cookie had already expired; it removed `previous`, the cookie it would have replaced.
    static func deleted(previous: Previous) -> Self
    /// The cookie had already expired and there was nothing to remove.
    static var expired: Self { get }
    /// The line or the cookie was ignored, for this reason.
    static func rejected(_ reason: CookieRejection) -> Self
}
