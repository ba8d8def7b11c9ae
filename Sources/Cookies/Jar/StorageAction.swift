/// What steps 23–24 of rfc6265bis-22 §5.7 did with one received line, without the cookies they stored or
/// removed: what `CookieJar.receive(_:from:context:)` needs, for which no cookie is read out of its site
/// (`SetCookieOutcome` is the same with the cookies).
enum StorageAction: Equatable, ReceiptReport {
    /// A new cookie was inserted (step 24).
    case stored
    /// The cookie replaced an old one of the same identity (step 23).
    case replaced
    /// The cookie had already expired; it removed the old cookie it would have replaced.
    case deleted
    /// The cookie had already expired and there was nothing to remove.
    case expired
    /// The cookie was ignored, for this reason.
    case rejected(CookieRejection)

    static func stored(_ cookie: () -> Cookie) -> StorageAction { .stored }
    static func replaced(_ cookie: () -> Cookie, previous: Void) -> StorageAction { .replaced }
    static func deleted(previous: Void) -> StorageAction { .deleted }
    static func previous(_ cookie: () -> Cookie) {}
}
