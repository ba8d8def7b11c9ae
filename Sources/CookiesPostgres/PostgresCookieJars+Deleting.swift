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
    /// unwritten changes with them (a request still holding one writes nothing more). Returns how many
    /// cookies were deleted. A write of the jar another instance is committing meanwhile is waited for and
    /// deleted with the rest.
    @discardableResult
    public func deleteJar(_ id: String) throws(PostgresCookieStoreError) -> Int {
        for entry in dropCopies(of: id) { entry.store.close() }
        let s = shared.schema
        return try shared.connections.withConnection(doing: "cannot delete jar \(id)") { [shared] connection in
            try PostgresTransaction.run(on: connection, logger: shared.logger) {
                var binds = PostgresBindings()
                binds.append(id)
                // The row's lock first, so that a write committing now is waited for and its cookies counted.
                _ = try connection.query(
                    PostgresQuery(unsafeSQL: "SELECT 1 FROM \(s).cookiejar_jars WHERE jar_id = $1 FOR UPDATE", binds: binds),
                    logger: shared.logger
                ).wait()
                let deleted = try connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(s).cookiejar_cookies WHERE jar_id = $1", binds: binds),
                    logger: shared.logger
                ).wait().metadata.rows ?? 0
                _ = try connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(s).cookiejar_jars WHERE jar_id = $1", binds: binds),
                    logger: shared.logger
                ).wait()
                return deleted
            }
        }
    }

    /// Deletes, in every jar of the database, the cookies whose expiry passed (by the configuration's
    /// clock), and with `idle` the jars none of whose cookies was set or sent within `idle` before now
    /// (whole seconds; last-access times are written at most once a minute, so a jar in use is never older
    /// than that),
    /// and the jars that hold no cookie. This instance's copies of the jars deleted read them anew at the
    /// next `jar(_:)`, as every other instance's do. A jar another instance is writing is passed over
    /// (its row is locked; the next purge looks at it again), and no jar's writes wait for the purge
    /// longer than it takes to delete one batch of jars.
    ///
    /// Run it from one instance now and then (a daily job): expired cookies are otherwise purged only by
    /// a write of their jar, and a jar nobody opens again is never written.
    public func purge(jarsIdleFor idle: Duration? = nil) throws(PostgresCookieStoreError) -> PostgresPurgeReport {
        if let idle, idle < .zero {
            throw PostgresCookieStoreError(.invalidConfiguration, action: "cannot purge the jars", detail: "the idle time \(idle) is negative")
        }
        let now = shared.clock.now()
        let s = shared.schema
        var report = PostgresPurgeReport()
        try shared.connections.withConnection(doing: "cannot purge the jars") { [shared] connection in
            var binds = PostgresBindings()
            binds.append(now.microsecondsSinceEpoch)
            // One statement: a row locked by a write that refreshes it is read again once the write
            // commits, and kept when its new expiry has not passed.
            report.expiredCookies = try connection.query(
                PostgresQuery(unsafeSQL: "DELETE FROM \(s).cookiejar_cookies WHERE expiry <= $1", binds: binds),
                logger: shared.logger
            ).wait().metadata.rows ?? 0
        }
        guard let idle else { return report }
        let cutoff = now.adding(seconds: -idle.components.seconds).microsecondsSinceEpoch
        let isIdle = """
            NOT EXISTS (SELECT 1 FROM \(s).cookiejar_cookies c
                WHERE c.jar_id = j.jar_id AND (c.last_access >= $1 OR c.creation >= $1))
            """
        // In batches of jars, in the order of their ids, each batch one transaction: its jars' rows locked
        // first (those a write holds passed over), then deleted by a second statement, whose snapshot,
        // taken with the locks held, sees every write committed before them.
        var after = ""
        while true {
            let (batch, deleted) = try shared.connections.withConnection(doing: "cannot purge the jars") { [shared] connection in
                try PostgresTransaction.run(on: connection, logger: shared.logger) { () throws -> ([String], Int) in
                    var binds = PostgresBindings()
                    binds.append(cutoff)
                    binds.append(after)
                    let ids = try connection.query(
                        PostgresQuery(
                            unsafeSQL: """
                                SELECT j.jar_id FROM \(s).cookiejar_jars j WHERE j.jar_id > $2 AND \(isIdle)
                                ORDER BY j.jar_id LIMIT \(Self.purgeBatch) FOR UPDATE SKIP LOCKED
                                """,
                            binds: binds),
                        logger: shared.logger
                    ).wait().map { try $0.decode(String.self) }
                    guard !ids.isEmpty else { return ([], 0) }
                    var deleting = PostgresBindings()
                    deleting.append(cutoff)
                    deleting.append(ids)
                    let deleted = try connection.query(
                        PostgresQuery(
                            unsafeSQL: "DELETE FROM \(s).cookiejar_jars j WHERE j.jar_id = ANY($2) AND \(isIdle)",
                            binds: deleting),
                        logger: shared.logger
                    ).wait().metadata.rows ?? 0
                    return (ids, deleted)
                }
            }
            report.idleJars += deleted
            guard let last = batch.last, batch.count == Self.purgeBatch else { break }
            after = last
        }
        return report
    }

    /// How many jars one transaction of `purge(jarsIdleFor:)` deletes at most.
    static let purgeBatch = 500

    /// Removes every copy of jar `id` this instance holds (open, let go while a request holds it, let go
    /// to make room), and returns them.
    private func dropCopies(of id: String) -> [OpenJar] {
        var copies = evicting.withLock { $0.removeValue(forKey: id) ?? [] }
        copies += letGo.withLock { letGo in
            (letGo.removeValue(forKey: id) ?? []).compactMap { box in box.jar.map { OpenJar(jar: $0, store: box.store) } }
        }
        if let entry = open.withLock({ $0.remove(id) }) { copies.append(entry) }
        return copies
    }
}
#endif
