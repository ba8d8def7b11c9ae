
/// The file behind a persistent `CookieJar`: it learns what changed from the jar's change events,
/// remembers the changed identities (cheaply, under a lock, on the thread that made the change), and
/// writes them in one transaction per batch — after `options.flushDelay`, on `flush()` and on
/// `close()`. A `Set-Cookie` rewrites one row, never the file.
///
/// Last-access times change on retrieval without a change event (§5.8.3 step 5). Like browsers, the
/// file keeps them only roughly: a flush at least `lastAccessWriteInterval` after the previous
/// last-access sweep writes the time of every cookie used since, so a stored time lags the jar's by at
/// most that interval plus the time to the next flush (`close()` always sweeps).
///
/// Two jars (in one process or two) may share a file: SQLite's locks and the busy timeout serialise
/// their transactions, and since each writes only the rows it changed (upserts and deletes by
/// identity), their writes merge — for one cookie, the last flush wins. A jar does not see another's
/// changes until it is reopened.
final class CookieJarFile: Sendable {
    /// How stale a stored last-access time may get: Chromium and Firefox write last-access updates at
    /// most once a minute (Chromium `kLastAccessThreshold`, 60 s).
    static let lastAccessWriteInterval: Int64 = 60

    let path: String
    let options: CookieFileOptions
    /// The open file; nil once closed.
    private let database: CookieLock<CookieDatabase?>
    private let pending: CookieLock<Pending>

    private struct Pending {
        /// The latest change of each identity not yet written.
        var rows: [CookieIdentity: CookieDatabase.Row] = [:]
        /// True while a background flush is scheduled.
        var isFlushScheduled = false
        /// True while the jar enforces its limits on the file's cookies: the evictions are written at the
        /// next flush, without scheduling one.
        var isLoading = true
        /// When the last last-access sweep ran; cookies used after it have unwritten last-access times.
        var lastAccessSweep: CookieTime
        var observer: Int?
    }

    private init(path: String, options: CookieFileOptions, database: sending CookieDatabase, now: CookieTime) {
        self.path = path
        self.options = options
        self.database = CookieLock(database)
        self.pending = CookieLock(Pending(lastAccessSweep: now))
    }

    /// Opens the file at `path` and reads its cookies into the empty `store`, for the jar that
    /// `attach(to:)` then follows.
    static func open(
        _ path: String, options: CookieFileOptions, now: CookieTime, into store: CookieStore
    ) throws(CookieFileError) -> (CookieJarFile, CookieStore) {
        let (database, loaded) = try CookieDatabase.open(path, options: options, now: now, into: store)
        return (CookieJarFile(path: path, options: options, database: database, now: now), loaded)
    }

    /// Starts following `jar`'s changes (a jar made with the store `open` filled), then enforces its
    /// limits. Cookies the jar evicts then are removed from the file at the next flush.
    func attach(to jar: CookieJar) {
        let token = jar.addObserver { [weak self, weak jar] change in
            guard let self, let jar else { return }
            self.record(change, jar: jar)
        }
        pending.withLock { $0.observer = token }
        jar.enforceLimitsAfterLoading()
        pending.withLock { $0.isLoading = false }
    }

    private func isWritten(_ cookie: Cookie) -> Bool {
        cookie.isPersistent || options.persistsSessionCookies
    }

    /// Remembers one change; schedules a background flush if none is scheduled.
    private func record(_ change: CookieChange, jar: CookieJar) {
        let row: CookieDatabase.Row?
        switch change {
        case .added(let cookie):
            row = isWritten(cookie) ? .upsert(cookie) : nil
        case .replaced(let old, let cookie):
            // A session cookie that replaced a persistent one removes the persistent one's row.
            row = isWritten(cookie) ? .upsert(cookie) : isWritten(old) ? .delete(CookieIdentity(old)) : nil
        case .removed(let cookie, _):
            row = isWritten(cookie) ? .delete(CookieIdentity(cookie)) : nil
        }
        guard let row else { return }
        let identity = CookieIdentity(change.cookie)
        let schedule: Duration? = pending.withLock { pending in
            pending.rows[identity] = row
            guard let delay = options.flushDelay, !pending.isFlushScheduled, !pending.isLoading else { return nil }
            pending.isFlushScheduled = true
            return delay
        }
        if let schedule {
            options.scheduler.schedule(after: schedule) { [weak jar] in
                // A failed background flush keeps its rows pending: the next flush retries and throws.
                _ = try? jar?.flush()
            }
        }
    }

    /// Writes every pending change, and the last-access times when a sweep is due (or `sweep`), in one
    /// transaction. Returns how many rows changed. When it throws, the changes stay pending and the
    /// file keeps its last good state.
    func flush(_ jar: CookieJar, sweepingLastAccess sweep: Bool = false) throws(CookieFileError) -> Int {
        let result: Result<Int, CookieFileError> = database.withLock { database in
            guard let database else { return .success(0) }
            return Result { () throws(CookieFileError) in try write(to: database, from: jar, sweep: sweep) }
        }
        return try result.get()
    }

    /// `flush`, with the database's lock held.
    private func write(to database: CookieDatabase, from jar: CookieJar, sweep: Bool) throws(CookieFileError) -> Int {
        let now = jar.clock.now()
        let (rows, lastSweep) = pending.withLock { pending in
            let rows = pending.rows
            pending.rows.removeAll()
            pending.isFlushScheduled = false
            return (rows, pending.lastAccessSweep)
        }
        let sweeps = sweep || now >= lastSweep.adding(seconds: Self.lastAccessWriteInterval)
        let accessed =
            sweeps ? jar.cookies(accessedAfter: lastSweep).filter { isWritten($0) && rows[CookieIdentity($0)] == nil } : []
        var changed = 0
        if !rows.isEmpty || !accessed.isEmpty {
            do {
                changed = try database.write(rows.values, lastAccess: accessed)
            } catch {
                // Changes made since the snapshot are newer than the ones that failed.
                pending.withLock { $0.rows.merge(rows) { newer, _ in newer } }
                throw error
            }
        }
        if sweeps { pending.withLock { $0.lastAccessSweep = now } }
        return changed
    }

    /// Flushes with a last-access sweep, stops following the jar and closes the file. The jar keeps
    /// its cookies in memory; later changes are not written. When the flush throws, the file stays
    /// open (call `close` again after fixing the cause).
    func close(_ jar: CookieJar) throws(CookieFileError) {
        _ = try flush(jar, sweepingLastAccess: true)
        if let token = pending.withLock({ $0.observer }) { jar.removeObserver(token) }
        // What changed between the flush and the observer's removal.
        _ = try flush(jar)
        database.withLock { $0 = nil }
    }

    /// A jar dropped without `close()` still writes its pending changes (errors cannot be reported
    /// here: `close()` reports them).
    deinit {
        let rows = pending.withLock { $0.rows }
        database.withLock { database in
            if let database, !rows.isEmpty { _ = try? database.write(rows.values, lastAccess: []) }
        }
    }

    /// True until `close` succeeds.
    var isOpen: Bool { database.withLock { $0 != nil } }
}
