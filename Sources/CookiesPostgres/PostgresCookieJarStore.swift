#if CookiesPostgres
import Cookies
import PostgresNIO

/// The `CookieJarStore` of one jar in PostgreSQL (made by `PostgresCookieJars`): each write is one
/// transaction that increments the jar's version, writes the changes by identity, and enforces the jar's
/// limits over what every instance stored.
///
/// Many instances, one truth: a write holds the lock of the jar's row until it commits, so the writes of
/// one jar are serialised, and each stores its cookies with its version — the one order every instance
/// agrees on. An instance writes only what it changed (upserts and deletes by identity, last-access
/// updates of rows that still exist), never its cached copies, so different cookies are all kept, a
/// deletion is undone only by a later change of that cookie, and for one cookie the change of the last
/// write wins. What a jar lets go on its own (expired, evicted) is deleted only while the row still holds
/// that cookie's value and expiry (`CookieWrite.deleteIfUnchanged`). The store remembers the version its
/// jar was loaded at: when a write finds that another instance wrote in between, the jar is stale and
/// `PostgresCookieJars.jar(_:)` reloads it.
public final class PostgresCookieJarStore: CookieJarStore {
    /// The jar's id (a user, a session).
    public let jarID: String
    private let jars: PostgresCookieJars.Shared
    private let state: CookieLock<State>

    private struct State {
        /// The version the jar's contents were loaded at, moved on by this store's own writes.
        var version: Int64
        /// True when another instance wrote since (or the database evicted cookies the jar holds).
        var isStale = false
        var isClosed = false
    }

    init(jarID: String, version: Int64, jars: PostgresCookieJars.Shared) {
        self.jarID = jarID
        self.jars = jars
        state = CookieLock(State(version: version))
    }

    /// The version the jar's contents are current at, or nil when another instance wrote since.
    var currentVersion: Int64? { state.withLock { $0.isStale ? nil : $0.version } }

    /// True once the jar was closed (evicted from memory, reloaded or shut down).
    var isClosed: Bool { state.withLock { $0.isClosed } }

    public func write(_ changes: CookieJarChanges) throws(PostgresCookieStoreError) -> Int {
        guard !isClosed else { return 0 }
        // Last-access times alone change no cookie that any instance sends: they are written without the
        // jar's version moving (the jar's row locked, as every write locks it, so that the writes of the jar
        // stay one at a time and lock its cookies' rows in one order; then one UPDATE of the rows that still
        // exist), so that each instance's sweep, once a minute, does not make every other instance reload
        // the jar.
        if changes.writes.isEmpty {
            guard !changes.lastAccess.isEmpty else { return 0 }
            return try jars.connections.withConnection(doing: "cannot write jar \(jarID)") { connection in
                try PostgresTransaction.run(on: connection, logger: jars.logger) {
                    _ = try query("SELECT 1 FROM \(jars.schema).cookiejar_jars WHERE jar_id = $1 FOR NO KEY UPDATE", on: connection)
                    return try writeLastAccess(changes.lastAccess, on: connection)
                }
            }
        }
        let (written, changed, evicted) = try jars.connections.withConnection(doing: "cannot write jar \(jarID)") { connection in
            try PostgresTransaction.run(on: connection, logger: jars.logger) {
                let (written, changed) = try writeChanges(changes, on: connection)
                let stored = changes.writes.values.compactMap { if case .upsert(let cookie) = $0 { cookie } else { nil } }
                let evicted = stored.isEmpty ? 0 : try enforceLimits(keeping: stored, on: connection)
                return (written, changed + evicted, evicted)
            }
        }
        state.withLock { state in
            // Current when this write came right after the version the jar knew: the jar's row made by it
            // for a jar read without one (version 0), else the next number.
            let follows = written.madeTheRow ? state.version == 0 : written.version == state.version + 1
            if follows && evicted == 0 { state.version = written.version } else { state.isStale = true }
        }
        return changed
    }

    public func close() {
        state.withLock { $0.isClosed = true }
    }

    /// The version a write gave its jar, and whether the write made the jar's row (there was none).
    private struct WrittenVersion {
        var version: Int64
        var madeTheRow: Bool
    }

    /// The two statements of a write: the jar's version incremented (its row locked until commit; made
    /// when there is none, `PostgresCookieSchema.firstVersion`), then the deletions, the upserts and the
    /// last-access updates. Returns the new version and how many rows changed.
    ///
    /// An upsert that replaces a stored cookie keeps the row's creation time (rfc6265bis-22 §5.7 step
    /// 23.3: "Update the creation-time of the newly-created cookie to match the creation-time of the
    /// old-cookie"), which orders the Cookie header (§5.8.3 step 2): the row may be one another instance
    /// stored after this jar was loaded, whose creation time the jar never saw. A row expired by the
    /// jar's clock is replaced as new, as a jar takes a cookie whose expired namesake it drops; so is any
    /// row under a cookie set after a removal of its identity (`CookieJarChanges.insertedAfterRemoval`),
    /// which keeps its own creation time: the removal took the row, whoever stored it, and the cookie
    /// replaces no old-cookie (§5.7 step 24); and a row that still holds the version a cookie took the
    /// place of (`CookieJarChanges.insertedInPlaceOf`: the jar let it go, or an insertion replaced it),
    /// by its value and expiry, as a removal of the jar's own accord tells it (`.deleteIfUnchanged`).
    ///
    /// Two statements, not one: every part of a statement reads the snapshot taken at its start, before
    /// the lock was waited for, and would not see the rows another instance's write inserted while this
    /// one waited (a deletion here, the later write, would leave the cookie that write set anew). The
    /// second statement's snapshot, taken with the lock held, sees every write before this one.
    private func writeChanges(_ changes: CookieJarChanges, on connection: PostgresConnection) throws -> (WrittenVersion, Int) {
        var deleted = IdentityColumns()
        // Deleted only while unchanged: their value, whether they persist, and their expiry.
        var letGo = IdentityColumns()
        var letGoValues: [String] = [], letGoPersistent: [Bool] = [], letGoExpiries: [Int64] = []
        var upserted = IdentityColumns()
        var values: [String] = [], expiries: [Int64] = [], persistent: [Bool] = [], creations: [Int64] = []
        var lastAccesses: [Int64] = [], secure: [Bool] = [], httpOnly: [Bool] = [], sameSites: [Int16] = []
        var sourceSecure: [Bool] = [], ports: [Int32] = [], hasPort: [Bool] = []
        // Whether each upserted cookie is set after a removal of its identity (a new cookie), or in place of
        // a version the store may still hold: that version's value, whether it persists, and its expiry.
        var anew: [Bool] = [], inPlace: [Bool] = []
        var baseValues: [String] = [], basePersistent: [Bool] = [], baseExpiries: [Int64] = []
        for write in changes.writes.values {
            switch write {
            case .delete(let identity):
                deleted.append(identity)
            case .deleteIfUnchanged(let cookie):
                letGo.append(CookieIdentity(cookie))
                letGoValues.append(cookie.value)
                letGoPersistent.append(cookie.expiry != nil)
                letGoExpiries.append(cookie.expiry?.microsecondsSinceEpoch ?? 0)
            case .upsert(let cookie):
                anew.append(changes.insertedAfterRemoval.contains(write.identity))
                let base = changes.insertedInPlaceOf[write.identity]
                inPlace.append(base != nil)
                baseValues.append(base?.value ?? "")
                basePersistent.append(base?.expiry != nil)
                baseExpiries.append(base?.expiry?.microsecondsSinceEpoch ?? 0)
                upserted.append(CookieIdentity(cookie))
                values.append(cookie.value)
                persistent.append(cookie.expiry != nil)
                expiries.append(cookie.expiry?.microsecondsSinceEpoch ?? 0)
                creations.append(cookie.creation.microsecondsSinceEpoch)
                lastAccesses.append(cookie.lastAccess.microsecondsSinceEpoch)
                secure.append(cookie.isSecure)
                httpOnly.append(cookie.isHTTPOnly)
                sameSites.append(PostgresCookieRows.code(of: cookie.sameSite))
                sourceSecure.append(cookie.isSourceSecure)
                hasPort.append(cookie.sourcePort != nil)
                ports.append(Int32(clamping: cookie.sourcePort ?? 0))
            }
        }
        var touched = IdentityColumns()
        var touchTimes: [Int64] = []
        for cookie in changes.lastAccess {
            touched.append(CookieIdentity(cookie))
            touchTimes.append(cookie.lastAccess.microsecondsSinceEpoch)
        }
        let s = jars.schema
        let identity = Self.identity
        let matches = Self.matches
        let now = jars.clock.now().microsecondsSinceEpoch
        let bindColumns = { (binds: inout PostgresBindings) in
            deleted.bind(to: &binds)  // $2-$6
            upserted.bind(to: &binds)  // $7-$11
            binds.append(values)  // $12
            binds.append(persistent)  // $13
            binds.append(expiries)  // $14
            binds.append(creations)  // $15
            binds.append(lastAccesses)  // $16
            binds.append(secure)  // $17
            binds.append(httpOnly)  // $18
            binds.append(sameSites)  // $19
            binds.append(sourceSecure)  // $20
            binds.append(hasPort)  // $21
            binds.append(ports)  // $22
            touched.bind(to: &binds)  // $23-$27
            binds.append(touchTimes)  // $28
            letGo.bind(to: &binds)  // $29-$33
            binds.append(letGoValues)  // $34
            binds.append(letGoPersistent)  // $35
            binds.append(letGoExpiries)  // $36
            binds.append(now)  // $37
            binds.append(anew)  // $38
            binds.append(inPlace)  // $39
            binds.append(baseValues)  // $40
            binds.append(basePersistent)  // $41
            binds.append(baseExpiries)  // $42
        }
        // Whether the row was made: `xmax` (https://www.postgresql.org/docs/current/ddl-system-columns.html)
        // is 0 in a row version the statement inserted, and holds this transaction's id in one that ON
        // CONFLICT locked and updated. The manual defines `xmax` but not this use of it; it is PostgreSQL's
        // row versioning (an updated row keeps its updater's lock), the same in every version since ON
        // CONFLICT (9.5), and the tests of a jar's first write check it.
        guard let jarRow = try query(
            """
            INSERT INTO \(s).cookiejar_jars (jar_id, version) VALUES ($1, \(PostgresCookieSchema.firstVersion))
            ON CONFLICT (jar_id) DO UPDATE SET version = \(s).cookiejar_jars.version + 1
            RETURNING version, xmax = 0
            """, on: connection).first
        else { throw PostgresCookieStoreError(.server, action: "cannot write jar \(jarID)", detail: "the jar's row was not returned") }
        let (version, madeTheRow) = try jarRow.decode((Int64, Bool).self)
        let sql = """
            WITH jar AS (
                SELECT version FROM \(s).cookiejar_jars WHERE jar_id = $1
            ), deleted AS (
                \(deleteIdentities) RETURNING 1
            ), let_go AS (
                DELETE FROM \(s).cookiejar_cookies c
                USING unnest($29::text[], $30::text[], $31::boolean[], $32::text[], $33::text[], $34::text[],
                    $35::boolean[], $36::bigint[]) AS d(\(identity), value, persistent, expiry)
                WHERE \(matches) AND c.value = d.value
                    AND c.expiry IS NOT DISTINCT FROM (CASE WHEN d.persistent THEN d.expiry END)
                RETURNING 1
            ), own_creation AS (
                SELECT \(PostgresCookieSchema.identityDigest(of: "o")) AS identity, o.after_removal, o.in_place, o.base_value,
                    CASE WHEN o.base_persistent THEN o.base_expiry END AS base_expiry
                FROM unnest($7::text[], $8::text[], $9::boolean[], $10::text[], $11::text[], $38::boolean[],
                    $39::boolean[], $40::text[], $41::boolean[], $42::bigint[])
                    AS o(\(identity), after_removal, in_place, base_value, base_persistent, base_expiry)
                WHERE o.after_removal OR o.in_place
            ), upserted AS (
                INSERT INTO \(s).cookiejar_cookies (jar_id, \(PostgresCookieSchema.columns), version, identity)
                SELECT $1, u.name, u.value, u.domain, u.host_only, u.path, u.partition_key,
                    CASE WHEN u.persistent THEN u.expiry END, u.creation, u.last_access, u.secure, u.http_only,
                    u.same_site, u.source_secure, CASE WHEN u.has_port THEN u.port END, (SELECT version FROM jar),
                    \(PostgresCookieSchema.identityDigest(of: "u"))
                FROM unnest($7::text[], $8::text[], $9::boolean[], $10::text[], $11::text[], $12::text[],
                    $13::boolean[], $14::bigint[], $15::bigint[], $16::bigint[], $17::boolean[], $18::boolean[],
                    $19::smallint[], $20::boolean[], $21::boolean[], $22::integer[])
                    AS u(\(identity), value, persistent, expiry, creation, last_access, secure, http_only, same_site,
                        source_secure, has_port, port)
                ON CONFLICT (jar_id, identity) DO UPDATE SET
                    value = excluded.value, expiry = excluded.expiry,
                    creation = CASE WHEN \(s).cookiejar_cookies.expiry <= $37
                            OR \(s).cookiejar_cookies.identity IN (SELECT identity FROM own_creation WHERE after_removal)
                            OR (\(s).cookiejar_cookies.identity, \(s).cookiejar_cookies.value,
                                \(s).cookiejar_cookies.expiry IS NULL, coalesce(\(s).cookiejar_cookies.expiry, 0))
                                IN (SELECT identity, base_value, base_expiry IS NULL, coalesce(base_expiry, 0)
                                    FROM own_creation WHERE in_place)
                        THEN excluded.creation ELSE \(s).cookiejar_cookies.creation END,
                    last_access = excluded.last_access, secure = excluded.secure, http_only = excluded.http_only,
                    same_site = excluded.same_site, source_secure = excluded.source_secure,
                    source_port = excluded.source_port, version = excluded.version
                RETURNING 1
            ), touched AS (
                \(lastAccessUpdate(binding: 23))
            )
            SELECT (SELECT count(*) FROM deleted) + (SELECT count(*) FROM let_go) + (SELECT count(*) FROM upserted)
                    + (SELECT count(*) FROM touched)
            """
        guard let result = try query(sql, on: connection, binding: bindColumns).first?.makeRandomAccess() else {
            return (WrittenVersion(version: version, madeTheRow: madeTheRow), 0)
        }
        return (WrittenVersion(version: version, madeTheRow: madeTheRow), Int(try result[0].decode(Int64.self)))
    }

    /// Enforces the jar's limits (`CookieLimits`: per site and per jar) on the cookies every instance
    /// stored, inside the write's transaction: when a site or the jar is over its limit, the jar's
    /// cookies are loaded into a jar of the same limits, whose evictions (the rules of rfc6265bis-22
    /// §5.7 step 24, as one instance applies them) are deleted. The cookies this write stored, `kept`, are
    /// never evicted, as a jar never evicts the cookie it just stored. Returns how many cookies were
    /// evicted.
    private func enforceLimits(keeping kept: [Cookie], on connection: PostgresConnection) throws -> Int {
        let s = jars.schema
        // A site's limit holds for each of its partitions apart (`CookieLimits.maxCookiesPerSite`).
        let counts = try query(
            "SELECT domain, partition_key, count(*) FROM \(s).cookiejar_cookies WHERE jar_id = $1 GROUP BY domain, partition_key",
            on: connection)
        var total = 0
        var perSite: [String: Int] = [:]
        for row in counts {
            let (domain, partition, count) = try row.decode((String, String, Int64).self)
            total += Int(count)
            // A cookie's domain is canonical, but may be an IP address or end in a dot.
            perSite[(jars.publicSuffixList.registrableDomain(ofCanonicalDomain: domain) ?? domain) + " " + partition, default: 0] += Int(count)
        }
        guard total > jars.limits.maxCookies || perSite.values.contains(where: { $0 > jars.limits.maxCookiesPerSite }) else {
            return 0
        }
        let rows = try query("SELECT \(PostgresCookieSchema.columns) FROM \(s).cookiejar_cookies WHERE jar_id = $1", on: connection)
        let cookies = try rows.compactMap { try PostgresCookieRows.cookie(in: $0.makeRandomAccess(), from: 0) }
        let evictions = EvictionRecorder()
        var options = jars.writeOptions
        options.flushDelay = nil
        let jar = CookieJar(
            loading: cookies, into: evictions, options: options, publicSuffixList: jars.publicSuffixList,
            limits: jars.limits, clock: jars.clock, keeping: kept)
        jar.flush(to: evictions)
        // Decided in this transaction on what every instance stored: deleted as they are.
        var deleted = IdentityColumns()
        for write in evictions.writes {
            if case .upsert = write { continue }
            deleted.append(write.identity)
        }
        let result = try query(deleteIdentities, on: connection) { deleted.bind(to: &$0) }
        return result.metadata.rows ?? deleted.count
    }

    /// The UPDATE of the last-access times bound from $`first` on (`IdentityColumns`, then the times) of the
    /// jar's ($1) rows that still exist, never moving one back.
    private func lastAccessUpdate(binding first: Int) -> String {
        let p = (first..<first + 6).map { "$\($0)" }
        return """
            UPDATE \(jars.schema).cookiejar_cookies c SET last_access = d.last_access
            FROM unnest(\(p[0])::text[], \(p[1])::text[], \(p[2])::boolean[], \(p[3])::text[], \(p[4])::text[], \(p[5])::bigint[])
                AS d(\(Self.identity), last_access)
            WHERE \(Self.matches) AND c.last_access < d.last_access
            RETURNING 1
            """
    }

    /// Writes the last-access times of `cookies` alone (`write(_:)`); returns how many rows moved.
    private func writeLastAccess(_ cookies: [Cookie], on connection: PostgresConnection) throws -> Int {
        var touched = IdentityColumns()
        var times: [Int64] = []
        for cookie in cookies {
            touched.append(CookieIdentity(cookie))
            times.append(cookie.lastAccess.microsecondsSinceEpoch)
        }
        let result = try query("WITH touched AS (\(lastAccessUpdate(binding: 2))) SELECT count(*) FROM touched", on: connection) {
            touched.bind(to: &$0)  // $2-$6
            $0.append(times)  // $7
        }
        return Int(try result.first?.decode(Int64.self) ?? 0)
    }

    /// Runs `sql` with the jar's id as $1 and the binds `more` appends.
    private func query(
        _ sql: String, on connection: PostgresConnection, binding more: (inout PostgresBindings) -> Void = { _ in }
    ) throws -> PostgresQueryResult {
        var binds = PostgresBindings()
        binds.append(jarID)
        more(&binds)
        return try connection.run(sql, binding: binds, logger: jars.logger)
    }

    /// The identity columns, the key of a cookie within a jar.
    private static let identity = "name, domain, host_only, path, partition_key"
    /// A stored cookie `c` of the jar ($1) has the identity `d` (found by the table's key).
    private static let matches = "c.jar_id = $1 AND c.identity = \(PostgresCookieSchema.identityDigest(of: "d"))"

    /// Deletes the jar's ($1) cookies of the identities bound as $2…$6 (`IdentityColumns`).
    private var deleteIdentities: String {
        """
        DELETE FROM \(jars.schema).cookiejar_cookies c
        USING unnest($2::text[], $3::text[], $4::boolean[], $5::text[], $6::text[]) AS d(\(Self.identity))
        WHERE \(Self.matches)
        """
    }
}

/// The identity columns of a list of cookies, as arrays to bind (partition key '' for none).
struct IdentityColumns {
    var names: [String] = [], domains: [String] = [], hostOnly: [Bool] = [], paths: [String] = [], partitions: [String] = []

    var count: Int { names.count }

    mutating func append(_ identity: CookieIdentity) {
        names.append(identity.name)
        domains.append(identity.domain)
        hostOnly.append(identity.isHostOnly)
        paths.append(identity.path)
        partitions.append(identity.partitionKey ?? "")
    }

    func bind(to binds: inout PostgresBindings) {
        binds.append(names)
        binds.append(domains)
        binds.append(hostOnly)
        binds.append(paths)
        binds.append(partitions)
    }
}

/// A store that keeps what it is handed: the evictions of a jar made to enforce the limits.
private final class EvictionRecorder: CookieJarStore {
    private let recorded = CookieLock<[CookieWrite]>([])

    var writes: [CookieWrite] { recorded.withLock { $0 } }

    func write(_ changes: CookieJarChanges) -> Int {
        recorded.withLock { $0.append(contentsOf: changes.writes.values) }
        return changes.writes.count
    }

    func close() {}
}
#endif
