import Cookies

/// What one sync call did: the cookies it copied and deleted on each side, the conflicts it resolved,
/// the empty reads it did not believe at once, and the error that stopped it, if one did.
public struct CookieSyncReport: Sendable, Hashable {
    /// The calls of a `CookieStoreSync`.
    public enum Operation: String, Sendable, Hashable {
        case push, pull, reconcile, signOut
    }

    /// The call that made this report.
    public let operation: Operation
    /// Cookies written to the platform store (added or changed in the jar).
    public internal(set) var copiedToWeb: [Cookie] = []
    /// Cookies deleted from the platform store (deleted from the jar, or signed out).
    public internal(set) var deletedFromWeb: [Cookie] = []
    /// Cookies written to the jar (added or changed in the platform store).
    public internal(set) var copiedToJar: [Cookie] = []
    /// Cookies deleted from the jar (deleted from the platform store, or signed out).
    public internal(set) var deletedFromJar: [Cookie] = []
    /// Cookies of the platform store the jar refused (`CookieJar.insert(_:)`: one no `Set-Cookie` line
    /// could have given a jar, e.g. a name and value over 4,096 bytes together, a control character in
    /// them, SameSite=None or a `__Host-` name without Secure): neither side changed, and every sync
    /// reports them again until the platform store changes them.
    public internal(set) var refusedByJar: [Cookie] = []
    /// Cookies of the jar the platform store refused (`PlatformCookieStoreRefusal`: `HTTPCookie` cannot
    /// represent them) or did not keep (the set completed, but reading the store back does not find
    /// them): not copied, and not offered again until the jar changes them, but reported by every sync
    /// that would copy them.
    public internal(set) var refusedByStore: [Cookie] = []
    /// Cookies changed on both sides, and which side won.
    public internal(set) var conflicts: [CookieSyncConflict] = []
    /// How many times an empty read of the platform store was read again before it was believed.
    public internal(set) var emptyReadsRetried = 0
    /// True when the platform store read empty after the re-reads, where the record says it held cookies,
    /// before any read of this sync found it holding one (a store not loaded yet): nothing was deleted from
    /// the jar for it, and the jar's cookies were copied to the store.
    public internal(set) var emptyStoreDoubted = false
    /// What stopped the call; nil when it completed. Everything listed above was confirmed by both sides.
    public internal(set) var error: CookieSyncError?

    init(operation: Operation) { self.operation = operation }

    /// True when the call changed nothing on either side.
    public var changedNothing: Bool {
        copiedToWeb.isEmpty && deletedFromWeb.isEmpty && copiedToJar.isEmpty && deletedFromJar.isEmpty
    }
}
