/// What a jar hands its store at a flush (`CookieJarStore.write(_:)`): the changes since the last
/// successful write, one per identity, and the cookies whose last-access time is due to be stored.
public struct CookieJarChanges: Sendable {
    /// The latest change of each identity changed since the last write.
    public var writes: [CookieIdentity: CookieWrite]
    /// Cookies sent since the last last-access sweep and not in `writes`: the store updates the
    /// last-access time of the stored cookie of the same identity, if there is one and its time is older
    /// (a cookie deleted meanwhile stays deleted).
    public var lastAccess: [Cookie]
    /// The identities of `writes` whose `.upsert` stores a cookie set after the store was told to remove
    /// the cookie of that identity (a deletion, a sign-out, a `Max-Age=0`, a session cookie taking a
    /// persistent one's place, then the cookie set again, before the write): that removal took whatever
    /// the store holds, whoever wrote it, so the cookie replaces no old-cookie (rfc6265bis-22 §5.7 step 24)
    /// and keeps its own creation time. Only a store that keeps the stored cookie's creation time on an
    /// upsert (the PostgreSQL store) reads it.
    public var insertedAfterRemoval: Set<CookieIdentity>
    /// The identities of `writes` whose `.upsert` stores a cookie that took the place of the version the
    /// store was last handed without replacing it, with that version: the jar let the version go on its
    /// own (it expired, or the limits evicted it) and the cookie was set again, or `CookieJar.insert(_:)`
    /// put a cookie of another creation time in its place (an import, a web view's cookie), before the
    /// write. Where the store still holds that version (its value and expiry, as `.deleteIfUnchanged`
    /// tells), the cookie keeps its own creation time, as the jar does; where another writer stored a
    /// version since, the cookie replaces that one (rfc6265bis-22 §5.7 step 23.3). Only a store that keeps
    /// the stored cookie's creation time on an upsert (the PostgreSQL store) reads it.
    public var insertedInPlaceOf: [CookieIdentity: Cookie]

    public init(
        writes: [CookieIdentity: CookieWrite] = [:], lastAccess: [Cookie] = [], insertedAfterRemoval: Set<CookieIdentity> = [],
        insertedInPlaceOf: [CookieIdentity: Cookie] = [:]
    ) {
        self.writes = writes
        self.lastAccess = lastAccess
        self.insertedAfterRemoval = insertedAfterRemoval
        self.insertedInPlaceOf = insertedInPlaceOf
    }

    /// True when there is nothing to write.
    public var isEmpty: Bool { writes.isEmpty && lastAccess.isEmpty }
}

/// One change for a store to write: the cookie now stored under an identity, or the identity's removal.
public enum CookieWrite: Sendable, Hashable {
    /// Store `cookie`, replacing the stored cookie of its identity. A store shared by writers that do not see
    /// each other's cookies (the instances of a fleet) may keep the stored one's creation time unless it has
    /// expired (rfc6265bis-22 §5.7 step 23.3: "Update the creation-time of the newly-created cookie to match
    /// the creation-time of the old-cookie"), as the PostgreSQL store does: the stored one may be a version
    /// the jar never saw; except for the identities of `CookieJarChanges.insertedAfterRemoval`, and of
    /// `CookieJarChanges.insertedInPlaceOf` while the store holds the version named there. The jar file
    /// stores `cookie`'s, the creation time the jar holds; one the jar replaced is already in it.
    case upsert(Cookie)
    /// Remove the stored cookie of this identity: a removal someone asked for (a deletion, a sign-out, a
    /// `Max-Age=0`), which wins over what the store holds.
    case delete(CookieIdentity)
    /// Remove the stored cookie of `cookie`'s identity only while it has `cookie`'s value and expiry: the
    /// jar let it go on its own (it expired, or the limits evicted it), and a version of it another
    /// writer stored since (an instance of a fleet, another process on the same file: a session
    /// refreshed meanwhile) stays.
    case deleteIfUnchanged(Cookie)

    /// The identity the write is for.
    public var identity: CookieIdentity {
        switch self {
        case .upsert(let cookie), .deleteIfUnchanged(let cookie): CookieIdentity(cookie)
        case .delete(let identity): identity
        }
    }
}
