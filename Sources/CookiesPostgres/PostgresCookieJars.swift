#if CookiesPostgres
import Cookies
import PostgresNIO

/// Many cookie jars in one PostgreSQL database, each under a jar id (a user, a session), for a fleet of
/// servers: every instance opens the jars it serves, and they all see one truth.
///
/// The semantics are the SQLite jar's (`CookieJar(contentsOf:)`): the tables are created and migrated
/// by the first instance (a newer schema is refused); session cookies are kept too, unless
/// `writeOptions.persistsSessionCookies` is turned off (`Configuration.writeOptions`); expired cookies are
/// dropped on load and purged; last-access times are written at most once a minute; changes are written
/// incrementally, coalesced by identity, `writeOptions.flushDelay` after a change and at every `flush`;
/// `flush` returns when the changes are committed.
///
/// Consistency across instances: ask for the jar with `jar(_:)` at every request. It writes the jar's
/// pending changes, then checks the jar's version in the database (one round trip, reading the jar's
/// cookies in the same query when they changed): a change another instance flushed before the request
/// is seen by it. Last-access times written alone leave the version as it is (no instance reloads for
/// them). Writes of one jar are serialised by the database and ordered by the jar's version
/// (`PostgresCookieJarStore`), and limits hold per jar over every instance's cookies.
///
/// Memory: at most `maximumOpenJars` jars are kept; the least recently used one is flushed and let go to
/// make room. Every call blocks its thread for its round trips (as the SQLite jar blocks for its file; up
/// to several times `Configuration.timeout` when the server stops answering): call it from a thread of
/// your own, never on an event loop (a SwiftNIO thread, where the futures it waits for trap), and from
/// async code through a thread pool (SwiftNIO's `NIOThreadPool.runIfActive`), not on the Swift
/// concurrency pool, whose few threads it would hold.
///
/// Requests of one jar at once: a jar another request replaced meanwhile (reloaded after another
/// instance wrote, or let go to make room) keeps writing the changes of the requests that still hold it,
/// and `flush(_:)` commits them too; one that its last request dropped with changes it could not write
/// (the server unreachable) stays in memory until `jar(_:)`, `flush(_:)` or `flushAll()` of its id writes
/// them. Only `close(_:)`, `deleteJar(_:)` and `shutDown()` end a jar's writes.
///
/// Deleting: `deleteJar(_:)` for one jar, `purge(jarsIdleFor:)` for expired cookies and idle jars of the
/// whole fleet.
public final class PostgresCookieJars: Sendable {
    /// What the jars and their stores share.
    final class Shared: Sendable {
        let connections: PostgresConnections
        /// The PostgreSQL schema (namespace) of the tables, quoted: a name that is a reserved word (`user`,
        /// `order`) is a name too.
        let schema: String
        let writeOptions: CookieWriteOptions
        let publicSuffixList: any PublicSuffixList
        let limits: CookieLimits
        let clock: any CookieClock
        let logger: Logger

        init(_ configuration: Configuration, logger: Logger) {
            connections = PostgresConnections(
                configuration: configuration.connection, size: configuration.connections, timeout: configuration.timeout,
                serverName: configuration.serverName, logger: logger)
            schema = "\"" + configuration.schema + "\""
            writeOptions = configuration.writeOptions
            publicSuffixList = configuration.publicSuffixList
            limits = configuration.limits
            clock = configuration.clock
            self.logger = logger
        }
    }

    struct OpenJar {
        var jar: CookieJar
        var store: PostgresCookieJarStore
    }

    let shared: Shared
    private let maximumOpenJars: Int
    let open = CookieLock(LeastRecentlyUsed<String, OpenJar>())
    /// The jars no longer in `open` (replaced by a reload, or let go to make room and written), by id, for
    /// as long as a request holds one or its changes are not written: they are still written, by the jar's
    /// own background flush, and by `jar(_:)`, `flush(_:)` and `flushAll()`. Held here, not by the requests
    /// alone: a jar that its last request dropped with changes it could not write (the server unreachable)
    /// would otherwise lose them, its `deinit` having no one to report the failure to.
    let letGo = CookieLock<[String: [OpenJar]]>([:])
    /// The jars let go to make room whose changes are not written yet, by id, held until they are: moved
    /// here from `open` in the same critical section, so that a jar is always in one of the two while it
    /// has changes to write, and `jar(_:)`, `flush(_:)`, `flushAll()` and `close(_:)` write them (locked
    /// after `open` where both are).
    let evicting = CookieLock<[String: [OpenJar]]>([:])

    /// Connects to the server and creates (or migrates, or checks) the tables. Throws when the server
    /// cannot be reached (`.unreachable`: never a silent empty jar), the tables are of a newer version
    /// (`.newerSchema`) or another application's (`.foreign`), and when the configuration cannot be used
    /// (`.invalidConfiguration`): before connecting, for the schema's name, a timeout that is not positive
    /// or is over `Configuration.longestTimeout`, a `PGPORT` or `PGHOST` that `Configuration.environment(from:)`
    /// could not use, or TLS that `PGSSLMODE` asks for and `connection.tls` does not enforce; and when the
    /// server refuses the credentials or the database (`PostgresCookieStoreError.Code.invalidConfiguration`).
    public init(_ configuration: Configuration) throws(PostgresCookieStoreError) {
        guard configuration.timeout > .zero, configuration.timeout <= Configuration.longestTimeout else {
            throw PostgresCookieStoreError(
                .invalidConfiguration, action: "cannot use the timeout \(configuration.timeout)",
                detail: "a timeout is more than zero and at most \(Configuration.longestTimeout) "
                    + "(PostgreSQL's timeouts are milliseconds up to 2^31 - 1)")
        }
        if let problem = configuration.environmentProblem {
            throw PostgresCookieStoreError(.invalidConfiguration, action: "cannot use the server that PGHOST and PGPORT name", detail: problem)
        }
        if let mode = configuration.tlsModeAskedFor, !configuration.connection.tls.isEnforced {
            throw PostgresCookieStoreError(
                .invalidConfiguration, action: "cannot connect to \(configuration.serverName)",
                detail: "PGSSLMODE=\(mode) asks for TLS, which the configuration does not enforce: set connection.tls "
                    + "to .require(…) or unset PGSSLMODE")
        }
        guard configuration.schema.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }),
            let first = configuration.schema.utf8.first, !(0x30...0x39).contains(first)
        else {
            throw PostgresCookieStoreError(
                .invalidConfiguration, action: "cannot use schema \(configuration.schema)",
                detail: "a schema name is lower-case letters, digits and _, not starting with a digit")
        }
        var logger = Logger(label: "swift-cookiejar.postgres")
        logger.logLevel = .warning
        shared = Shared(configuration, logger: logger)
        maximumOpenJars = max(1, configuration.maximumOpenJars)
        try shared.connections.withConnection(doing: "cannot open the cookie jars at \(configuration.serverName)") {
            [shared] connection in
            try PostgresCookieSchema.prepare(shared.schema, on: connection, logger: shared.logger)
        }
    }

    /// The jar `id`, current as of this call: its pending changes written, and reloaded when another
    /// instance wrote it since (a jar never written is empty). Use the jar returned for this request
    /// only; ask again at the next. Opening a jar not in memory is one round trip. A minute after the
    /// last-access times were last written, the times of the cookies used since are written too, so
    /// that the database knows which jars are in use (`purge(jarsIdleFor:)`).
    public func jar(_ id: String) throws(PostgresCookieStoreError) -> CookieJar {
        // The changes of the jars of `id` let go come first: the jar read below holds them.
        try flushEvicted(id)
        // Each is flushed, pending changes or not: a flush waits for a write under way (a background flush
        // of a jar let go, whose changes are no longer pending once it started), which the read must follow.
        for entry in letGoJars(id) { try entry.jar.flush(to: entry.store) }
        let cached = open.withLock { $0.use(id) }
        var known: Int64 = -1
        if let cached, !cached.store.isClosed {
            let hasChanges = cached.jar.hasPendingChanges
            // Flushed, pending changes or not, as the jars let go above: the flush waits for a write under
            // way (a background flush, whose changes are no longer pending once it started), which the
            // version read below must follow; with nothing to write and no sweep due, it costs no round trip.
            try cached.jar.flush(to: cached.store)
            // Written right after the version it knew: no other instance wrote in between.
            if hasChanges, cached.store.currentVersion != nil { return cached.jar }
            known = cached.store.currentVersion ?? -1
        }
        let (version, cookies) = try load(id, unlessAt: known)
        if let cached, cookies == nil { return cached.jar }
        return try install(id, version: version, cookies: cookies ?? [], replacing: cached)
    }

    /// Reads the version of jar `id` and, when it is not `known`, its cookies (nil when it is): one round
    /// trip.
    private func load(_ id: String, unlessAt known: Int64) throws(PostgresCookieStoreError) -> (Int64, [Cookie]?) {
        let s = shared.schema
        return try shared.connections.withConnection(doing: "cannot read jar \(id)") { [shared] connection in
            var binds = PostgresBindings()
            binds.append(id)
            binds.append(known)
            let rows = try connection.run(
                """
                SELECT j.version, \(PostgresCookieSchema.columns.split(separator: ", ").map { "c.\($0)" }.joined(separator: ", "))
                FROM (SELECT coalesce((SELECT version FROM \(s).cookiejar_jars WHERE jar_id = $1), 0) AS version) j
                LEFT JOIN \(s).cookiejar_cookies c ON c.jar_id = $1 AND j.version <> $2
                """,
                binding: binds, logger: shared.logger)
            var version: Int64 = 0
            var cookies: [Cookie] = []
            cookies.reserveCapacity(rows.count)
            for row in rows {
                let row = row.makeRandomAccess()
                version = try row[0].decode(Int64.self)
                if let cookie = try PostgresCookieRows.cookie(in: row, from: 1) { cookies.append(cookie) }
            }
            return (version, version == known ? nil : cookies)
        }
    }

    /// Makes the jar of `cookies` read at `version` the open jar `id` in place of `old` (let go, not
    /// closed: a request may still hold it), unless another request made a jar of `id` at least as current
    /// meanwhile, which is then returned instead; makes room by letting the least recently used jar go.
    private func install(
        _ id: String, version: Int64, cookies: [Cookie], replacing old: OpenJar?
    ) throws(PostgresCookieStoreError) -> CookieJar {
        let store = PostgresCookieJarStore(jarID: id, version: version, jars: shared)
        let jar = CookieJar(
            loading: cookies, into: store, options: shared.writeOptions, publicSuffixList: shared.publicSuffixList,
            limits: shared.limits, clock: shared.clock)
        let entry = OpenJar(jar: jar, store: store)
        let (current, replaced, evicted) = open.withLock { open -> (OpenJar, OpenJar?, String?) in
            // A jar at a version as high stays, but not for a jar read without a row (version 0, a deleted
            // jar): versions only grow until a jar is deleted.
            let cached = open.peek(id)
            if let cached, cached.store !== old?.store, !cached.store.isClosed,
                let cachedVersion = cached.store.currentVersion, version == 0 ? cachedVersion == 0 : cachedVersion >= version
            {
                return (cached, nil, nil)
            }
            open.set(entry, for: id)
            guard open.count > maximumOpenJars, let evicted = open.removeLeastRecentlyUsed() else { return (entry, cached, nil) }
            evicting.withLock { $0[evicted.key, default: []].append(evicted.value) }
            return (entry, cached, evicted.key)
        }
        if let replaced { keepWriting(replaced) }
        // Written now; when that fails, the jar stays in `evicting` with its changes, for the next
        // `jar(_:)`, `flush(_:)` or `flushAll()` of its id to write (and throw while they cannot).
        if let evicted { _ = try? flushEvicted(evicted) }
        return current.jar
    }

    /// Lets `entry` go from `open`, its writes going on for the requests that hold it (`letGo`); forgets
    /// the let-go jars of every id that are done with.
    private func keepWriting(_ entry: OpenJar) {
        letGo.withLock { letGo in
            letGo[entry.store.jarID, default: []].append(entry)
            Self.forgetDone(in: &letGo, ids: Array(letGo.keys))
        }
    }

    /// Drops from `letGo` the jars of `ids` that no request holds any more and that have no change left to
    /// write (their `deinit` then has nothing to write). Each id's jars are moved out of the dictionary
    /// first, so that the one reference `isKnownUniquelyReferenced` finds, when no request holds a jar, is
    /// that of the list.
    private static func forgetDone(in letGo: inout [String: [OpenJar]], ids: [String]) {
        for id in ids {
            guard var jars = letGo.removeValue(forKey: id) else { continue }
            var index = 0
            while index < jars.count {
                if isKnownUniquelyReferenced(&jars[index].jar), !jars[index].jar.hasPendingChanges {
                    jars.remove(at: index)
                } else {
                    index += 1
                }
            }
            if !jars.isEmpty { letGo[id] = jars }
        }
    }

    /// Writes the changes of the jars of `id` let go to make room (`evicting`), each then let go as any
    /// other (`keepWriting`); returns how many stored cookies changed. Throws the first failure, the jars
    /// not written staying in `evicting`.
    @discardableResult
    private func flushEvicted(_ id: String) throws(PostgresCookieStoreError) -> Int {
        var changed = 0
        while let entry = evicting.withLock({ $0[id]?.first }) {
            changed += try entry.jar.flush(to: entry.store)
            // Another call may have written the same jar meanwhile (the eviction's own flush, and a request
            // of the id): the one that takes it out of `evicting` lets it go, once.
            let isTakenOut = evicting.withLock { evicting -> Bool in
                guard let index = evicting[id]?.firstIndex(where: { $0.store === entry.store }) else { return false }
                evicting[id]?.remove(at: index)
                if evicting[id]?.isEmpty == true { evicting[id] = nil }
                return true
            }
            if isTakenOut { keepWriting(entry) }
        }
        return changed
    }

    /// The jars of `id` let go that a request still holds or whose changes are not written, forgetting the
    /// others.
    func letGoJars(_ id: String) -> [OpenJar] {
        letGo.withLock { letGo in
            Self.forgetDone(in: &letGo, ids: [id])
            return letGo[id] ?? []
        }
    }

    /// Writes the pending changes of jar `id` in one transaction (and those of any jar of `id` a request
    /// still holds after it was replaced, in one each); returns how many stored cookies changed. When it
    /// returns, the changes are committed; when it throws (the connection was lost, the server is down),
    /// they stay pending for the next flush.
    @discardableResult
    public func flush(_ id: String) throws(PostgresCookieStoreError) -> Int {
        var changed = try flushEvicted(id)
        for entry in letGoJars(id) { changed += try entry.jar.flush(to: entry.store) }
        guard let entry = open.withLock({ $0.peek(id) }) else { return changed }
        return try changed + entry.jar.flush(to: entry.store)
    }

    /// Flushes every jar in memory; throws the first failure after trying them all.
    public func flushAll() throws(PostgresCookieStoreError) {
        var failure: PostgresCookieStoreError?
        for id in idsInMemory {
            do { try flush(id) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// Flushes jar `id` (last-access times included) and drops it from memory; a jar of `id` a request
    /// still holds writes nothing more.
    public func close(_ id: String) throws(PostgresCookieStoreError) {
        try flushEvicted(id)
        for entry in letGoJars(id) { try entry.jar.close(entry.store) }
        letGo.withLock { _ = $0.removeValue(forKey: id) }
        guard let entry = open.withLock({ $0.peek(id) }) else { return }
        try entry.jar.close(entry.store)
        open.withLock { open in
            if open.peek(id)?.store === entry.store { open.remove(id) }
        }
    }

    /// How many jars are open (at most `maximumOpenJars`).
    public var openJarCount: Int { open.withLock { $0.count } }

    /// How many jars are in memory, the open ones and those let go that a request still holds or whose
    /// changes are not written yet (the memory this instance's jars take, jars it is done with forgotten).
    public var inMemoryJarCount: Int {
        let open = openJarCount
        let letGo = letGo.withLock { letGo in
            Self.forgetDone(in: &letGo, ids: Array(letGo.keys))
            return letGo.values.reduce(0) { $0 + $1.count }
        }
        return open + letGo + evicting.withLock { $0.values.reduce(0) { $0 + $1.count } }
    }

    /// The ids of every jar in memory: open, let go while a request holds it, or let go to make room with
    /// changes to write.
    private var idsInMemory: Set<String> {
        Set(open.withLock { $0.keys }).union(letGo.withLock { Array($0.keys) }).union(evicting.withLock { Array($0.keys) })
    }

    /// Closes every jar (flushing it) and the connections. When a flush throws, the jars not yet closed
    /// stay open and the connections too.
    public func shutDown() throws(PostgresCookieStoreError) {
        for id in idsInMemory { try close(id) }
        shared.connections.shutDown()
    }
}
#endif
