/// The seam between a jar and the persistent store it is kept in: the SQLite jar file
/// (`CookieJar(contentsOf:)`), or a store of another library (CookiesPostgres keeps jars in a PostgreSQL
/// database).
///
/// The jar does the bookkeeping every store needs, so that a store only reads and writes:
/// - Loading: the store reads its cookies and makes the jar with `CookieJar(loading:into:options:…)`,
///   which drops expired cookies (and session cookies unless they are kept), enforces the limits, and
///   records the dropped and evicted cookies as deletions for the first write.
/// - Recording: from then on the jar records every change of a cookie the store keeps, coalesced by
///   identity (the latest change of each wins; a cookie stored after a removal of its identity is named in
///   `CookieJarChanges.insertedAfterRemoval`, a new cookie, and one that took the place of a version the
///   jar let go or an insertion replaced, in `CookieJarChanges.insertedInPlaceOf`), and the cookies used
///   since the last last-access sweep (at most once a minute, and at every close).
/// - Writing: at each flush (`CookieJar.flush(to:)`, a background flush after
///   `CookieWriteOptions.flushDelay`, `CookieJar.close(_:)`), the jar hands the pending changes to
///   `write(_:)`, one flush at a time. When `write` throws, the changes go back to the pending ones
///   (those made since are newer and win), to be written by the next flush.
public protocol CookieJarStore: AnyObject, Sendable {
    /// How a write fails.
    associatedtype Failure: Error

    /// Writes `changes` all at once (a transaction): all of them or, when it throws, none. When it
    /// returns, they are durable. Returns how many stored cookies changed.
    func write(_ changes: CookieJarChanges) throws(Failure) -> Int

    /// Releases what the store holds for the jar, after the jar's last write.
    func close()
}
