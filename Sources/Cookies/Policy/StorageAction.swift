/// What the storage model (rfc6265bis-22 §5.7) did with one received line, without the cookies it
/// stored or removed: the changes recorded beside it carry those, when someone records them
/// (`SetCookieOutcome` is this action with its cookies).
enum StorageAction: Equatable {
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
}
