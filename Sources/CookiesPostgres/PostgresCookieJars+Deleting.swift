#if CookiesPostgres
import Cookies
import PostgresNIO

/// Deleting jars: one on request (an account closed, a user's data erased), and the garbage of a fleet
/// (cookies whose expiry passed in jars no instance opens again, jars of users who never came back).
///
/// A deleted jar has no row: every instance's next `jar(_:)` finds version 0 where it knew another and
/// reads it anew, empty (`PostgresCookieSchema.firstVersion` keeps a jar made anew from being taken for
/// the one deleted). Changes an instance still holds for it and writes later make it anew with those
/// changes only, as any write after a deletion of its cookies would.
extension PostgresCookieJars {
    /// Deletes jar `id` and its cookies from the database, and drops this instance's copies of it, their
    /// unwritten changes with them (a request still holding one writes nothing more; one that asks for
    /// the jar while it is being deleted may make it anew with its changes, as another instance may).
    /// Returns how many cookies were deleted. A write of the jar another instance is committing meanwhile
    /// is waited for and deleted with the rest.
    @discardableResult
    public func deleteJar(_ id: String) throws(PostgresCookieStoreError) -> Int {
        for entry in dropCopies(of: id) { entry.store.close() }
        let s = shared.schema
        return try shared.connections.withConnection(doing: "cannot delete jar \(id)") { [shared] connection in
            try PostgresTransaction.run(on: connection, logger: shared.logger) {
                var binds = PostgresBindings()
                binds.append(id)
                // The row's lock first, so that a write committing now is waited for and its cookies counted.
                _ = try connection.run(
                    "SELECT 1 FROM \(s).cookiejar_jars WHERE jar_id = $1 FOR UPDATE", binding: binds, logger: shared.logger)
                let deleted = try connection.run(
                    "DELETE FROM \(s).cookiejar_cookies WHERE jar_id = $1", binding: binds, logger: shared.logger
                ).metadata.rows ?? 0
                _ = try connection.run("DELETE FROM \(s).cookiejar_jars WHERE jar_id = $1", binding: binds, logger: shared.logger)
                return deleted
            }
        }
    }

    /// Deletes, in every jar of the database, the cookies whose expiry passed (by the configuration's
    /// clock), and with `idle` the jars none of whose cookies was set or sent within `idle` before now
    /// (whole seconds) and the jars that hold no cookie. A jar's last-access times are written a minute
    /// after a request used it at the latest (`jar(_:)` at every request writes them), so a jar in use is
    /// never idle for longer than that. This instance's copies of the jars deleted read them anew at the
    /// next `jar(_:)`, as every other instance's do.
    ///
    /// The jars are gone through in the order of their ids, in batches of `purgeBatchSize`, each batch one
    /// transaction that locks its jars' rows first, as a write does: a jar another instance is writing is
    /// passed over (the next purge looks at it again), and no write waits for the purge longer than one
    /// batch takes. Run it from one instance now and then (a daily job): expired cookies are otherwise
    /// purged only by a write of their jar, and a jar nobody opens again is never written.
    public func purge(jarsIdleFor idle: Duration? = nil) throws(PostgresCookieStoreError) -> PostgresPurgeReport {
        if let idle, idle < .zero {
            throw PostgresCookieStoreError(.invalidConfiguration, action: "cannot purge the jars", detail: "the idle time \(idle) is negative")
        }
        let now = shared.clock.now()
        let cutoff = idle.map { now.adding(seconds: -$0.components.seconds).microsecondsSinceEpoch }
        var report = PostgresPurgeReport()
        var after: String?
        repeat {
            let (batch, expired, idleJars) = try shared.connections.withConnection(doing: "cannot purge the jars") {
                [shared] connection in
                try PostgresTransaction.run(on: connection, logger: shared.logger) {
                    try Self.purgeBatch(after: after, now: now, idleBefore: cutoff, schema: shared.schema, on: connection, logger: shared.logger)
                }
            }
            report.expiredCookies += expired
            report.idleJars += idleJars
            after = batch.count == Self.purgeBatchSize ? batch.last : nil
        } while after != nil
        return report
    }

    /// One batch of `purge(jarsIdleFor:)`, in its transaction: the rows of the next `purgeBatchSize` jars
    /// after `after` (from the first without), those a write holds passed over, locked; then, in
    /// statements whose snapshots are taken with the locks held (so they see every write committed
    /// before), their expired cookies deleted and, with `idleBefore`, the jars idle since then or
    /// holding no cookie. Returns the ids of the jars locked, how many cookies and jars were deleted.
    private static func purgeBatch(
        after: String?, now: CookieTime, idleBefore cutoff: Int64?, schema s: String, on connection: PostgresConnection,
        logger: Logger
    ) throws -> (ids: [String], expired: Int, idleJars: Int) {
        var binds = PostgresBindings()
        if let after { binds.append(after) }
        let ids = try connection.run(
            """
            SELECT jar_id FROM \(s).cookiejar_jars \(after == nil ? "" : "WHERE jar_id > $1")
            ORDER BY jar_id LIMIT \(purgeBatchSize) FOR UPDATE SKIP LOCKED
            """,
            binding: binds, logger: logger
        ).map { try $0.decode(String.self) }
        guard !ids.isEmpty else { return ([], 0, 0) }
        var expiring = PostgresBindings()
        expiring.append(ids)
        expiring.append(now.microsecondsSinceEpoch)
        let expired = try connection.run(
            "DELETE FROM \(s).cookiejar_cookies WHERE jar_id = ANY($1) AND expiry <= $2", binding: expiring, logger: logger
        ).metadata.rows ?? 0
        guard let cutoff else { return (ids, expired, 0) }
        var idling = PostgresBindings()
        idling.append(ids)
        idling.append(cutoff)
        let idleJars = try connection.run(
            """
            DELETE FROM \(s).cookiejar_jars j WHERE j.jar_id = ANY($1) AND NOT EXISTS (
                SELECT 1 FROM \(s).cookiejar_cookies c
                WHERE c.jar_id = j.jar_id AND (c.last_access >= $2 OR c.creation >= $2))
            """,
            binding: idling, logger: logger
        ).metadata.rows ?? 0
        return (ids, expired, idleJars)
    }

    /// How many jars one transaction of `purge(jarsIdleFor:)` goes through.
    static let purgeBatchSize = 500

    /// Removes every copy of jar `id` this instance holds (open, let go while a request holds it, let go
    /// to make room), and returns them.
    private func dropCopies(of id: String) -> [OpenJar] {
        // `open` and `evicting` in one critical section (in the order `install` locks them), so that a
        // copy moved from one to the other meanwhile is not missed.
        var copies = open.withLock { open in
            let evicted = evicting.withLock { $0.removeValue(forKey: id) ?? [] }
            return evicted + (open.remove(id).map { [$0] } ?? [])
        }
        copies += letGoJars(id)
        letGo.withLock { _ = $0.removeValue(forKey: id) }
        return copies
    }
}
#endif
