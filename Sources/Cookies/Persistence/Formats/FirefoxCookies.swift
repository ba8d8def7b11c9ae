/// Reads the cookies Firefox keeps in a profile's `cookies.sqlite` (table `moz_cookies`), so that an
/// app can load what a browser or a GeckoView stored. Read-only: the file is opened `immutable=1`
/// (https://sqlite.org/uri.html#uriimmutable), so a running Firefox's lock does not matter and nothing
/// is written — not even a WAL checkpoint (what a running Firefox has only in its WAL is not seen).
///
/// Mapping (Firefox's `netwerk/cookie`, schema versions read from `PRAGMA user_version`; the columns a
/// schema added, as `CookiePersistentStorage::TryInitDB` adds them, are looked for, not assumed):
/// - `host` with a leading dot is a domain cookie (host-only-flag false) for the host without it.
/// - `expiry` is seconds since 1970 up to schema 15 and milliseconds from schema 16 (Firefox 142);
///   `creationTime` and `lastAccessed` are microseconds.
/// - `sameSite` (schema 9 on; without it, unset): 0 None, 1 Lax, 2 Strict, 256 unset (schema 15+).
///   From schema 10 to 14 an unset attribute was stored as the enforced default with `rawSameSite` 0:
///   that reads as unset too; schema 9 stored the attribute as received.
/// - `schemeMap` (schema 12 on) bit 2 (HTTPS) is the source scheme.
/// - `originAttributes`: `partitionKey=(https,example.com)` (percent-encoded, ":" written "+") partitions
///   the cookie under `https://example.com`. Firefox partitions every cookie set in a third-party
///   context so (Total Cookie Protection); `isPartitionedAttributeSet` (schema 13 on) tells the CHIPS
///   cookies, set with the `Partitioned` attribute, which this jar keeps partitioned. The others are left
///   out: this jar partitions CHIPS cookies alone, and would send such a cookie under every top-level
///   site. So are the cookies of partitions this jar has none of, under a site with a port or a
///   cross-site ancestor (`(https,example.com,8443)`, `(https,example.com,f)`), and the cookies of
///   containers or private browsing (`userContextId`, `privateBrowsingId`, `firstPartyDomain`,
///   `geckoViewSessionContextId`), which are not the default jar's. Each is counted by reason
///   (`CookieFileContents.leftOut`).
/// - A row whose `isPartitionedAttributeSet` is set but whose origin attributes hold no partition key
///   (one Firefox had not moved to its own site's partition yet) is read unpartitioned, as the Firefox that
///   wrote it, without CHIPS, kept it.
public enum FirefoxCookies {
    /// Every cookie of the default container in the Firefox cookie database at `path`, expired ones
    /// included (a jar drops them on `insert`), and how many were left out, by reason. A row that is no
    /// cookie (text that is not UTF-8, a domain, path, name or value no cookie has) throws, or with
    /// `lenient` is skipped and listed (`CookieFileContents.skipped`), named by its `id`, host and name.
    ///
    /// Read without a lock, the file may be changed meanwhile by a Firefox that checkpoints its WAL into it
    /// (on closing, or once the WAL has grown): the reading is made again when the file or its `-wal` changed
    /// during it, and throws `.busy` after three such readings.
    public static func read(contentsOf path: String, lenient: Bool = false) throws(CookieFileError) -> CookieFileContents {
        // SQLite opens the target of a symbolic link, and keeps the -wal beside it.
        let file = CookieFileSystem.resolvedPath(path)
        return try UnlockedReading.read(
            path: path, doing: "cannot read the Firefox cookie database",
            files: { [CookieFileSystem.state(file), CookieFileSystem.state(file + "-wal")] }
        ) { _ throws(CookieFileError) in try readOnce(contentsOf: path, lenient: lenient) }
    }

    /// `read(contentsOf:lenient:)`, made once.
    private static func readOnce(contentsOf path: String, lenient: Bool) throws(CookieFileError) -> CookieFileContents {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(immutableFileAt: path)
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot open the Firefox cookie database")
        }
        let hasTable: Bool
        do {
            hasTable = try connection.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'moz_cookies'") == 1
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot read the Firefox cookie database")
        }
        guard hasTable else {
            throw CookieFileError(.foreign, path: path, detail: "an SQLite database without a moz_cookies table, not Firefox's cookies.sqlite")
        }
        // Each row's cookie, or why it is none.
        var rows: [Result<Cookie, CookieFileError>] = []
        var leftOut: [LeftOutReason: Int] = [:]
        do {
            let version = try connection.integer("PRAGMA user_version") ?? 0
            func hasColumn(_ name: String) throws(SQLiteError) -> Bool {
                try connection.integer("SELECT count(*) FROM pragma_table_info('moz_cookies') WHERE name = '\(name)'") == 1
            }
            // A column a schema added reads as its absence meant before: SameSite unset (nsICookie
            // SAMESITE_UNSET, 256), the attribute as received where `sameSite` held it (before schema 10,
            // whose migration copies it into `rawSameSite`; from 15, where it is unset as 256), no scheme,
            // no Partitioned attribute.
            let sameSiteColumn = try hasColumn("sameSite") ? "sameSite" : "256"
            let select = try connection.prepare(
                """
                SELECT id, name, value, host, path, expiry, creationTime, lastAccessed, isSecure, isHttpOnly,
                    \(sameSiteColumn), \(try hasColumn("rawSameSite") ? "rawSameSite" : sameSiteColumn),
                    \(try hasColumn("schemeMap") ? "schemeMap" : "0"),
                    \(try hasColumn("isPartitionedAttributeSet") ? "isPartitionedAttributeSet" : "0"), originAttributes
                FROM moz_cookies
                """)
            while try select.step() {
                let origin: Origin
                do {
                    origin = self.origin(ofAttributes: try text(of: select, at: 14, field: "originAttributes"))
                } catch {
                    rows.append(.failure(rowError(error, in: select, path: path)))
                    continue
                }
                if let reason = origin.leftOutReason(isPartitionedAttributeSet: select.int64(at: 13) != 0) {
                    leftOut[reason, default: 0] += 1
                    continue
                }
                do throws(CookieFileError) {
                    rows.append(.success(try cookie(in: select, partition: origin.partitionKey, schemaVersion: version)))
                } catch {
                    rows.append(.failure(rowError(error, in: select, path: path)))
                }
            }
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot read moz_cookies")
        }
        var problems = ImportProblems(lenient: lenient)
        var cookies: [Cookie] = []
        for row in rows {
            switch row {
            case .success(let cookie): cookies.append(cookie)
            case .failure(let error): try problems.skip(error)
            }
        }
        return CookieFileContents(
            format: .firefox, cookies: cookies, skipped: problems.skipped,
            leftOut: leftOut.sorted { $0.key < $1.key }.map { .init(count: $0.value, reason: $0.key.description) })
    }

    /// `error`, of the current row of the `SELECT` of `read`, naming the row by its `id` (Firefox's own key,
    /// which every row has, where a count of the rows read would skip those left out), and its host and
    /// name when they are text (never its value).
    private static func rowError(_ error: CookieFileError, in select: SQLiteStatement, path: String) -> CookieFileError {
        var row = "moz_cookies row id \(select.int64(at: 0))"
        let named = [("host", 3), ("name", 1)].compactMap { field, column -> String? in
            guard case .text(let bytes) = select.column(Int32(column)), let text = String(validatingUTF8Bytes: bytes) else {
                return nil
            }
            return "\(field) \(text)"
        }
        if !named.isEmpty { row += " (\(named.joined(separator: ", ")))" }
        return CookieFileError(error.code, path: path, detail: "\(row): \(error.detail)")
    }

    /// The cookie of the current row of the `SELECT` of `read`, held to the checks every reader applies
    /// (`ImportChecks`: Firefox's file is outside input too).
    private static func cookie(
        in select: SQLiteStatement, partition: String?, schemaVersion version: Int64
    ) throws(CookieFileError) -> Cookie {
        let host = try text(of: select, at: 3, field: "host")
        let isDomain = host.hasPrefix(".")
        let rawExpiry = select.int64(at: 5)
        let (micros, overflow) = rawExpiry.multipliedReportingOverflow(by: 1000)
        let expiry = ImportChecks.time(
            version >= 16
            ? CookieTime(microsecondsSinceEpoch: overflow ? (rawExpiry < 0 ? .min : .max) : micros)
            : CookieTime(secondsSinceEpoch: rawExpiry))
        let isSecure = select.int64(at: 8) != 0
        let cookie = Cookie(
            name: try text(of: select, at: 1, field: "name"), value: try text(of: select, at: 2, field: "value"),
            domain: try ImportChecks.canonicalDomain(isDomain ? String(host.dropFirst()) : host), isHostOnly: !isDomain,
            path: try text(of: select, at: 4, field: "path"), expiry: expiry,
            creation: ImportChecks.time(CookieTime(microsecondsSinceEpoch: select.int64(at: 6))),
            lastAccess: ImportChecks.time(CookieTime(microsecondsSinceEpoch: select.int64(at: 7))),
            isSecure: isSecure, isHTTPOnly: select.int64(at: 9) != 0,
            sameSite: sameSite(select.int64(at: 10), raw: select.int64(at: 11), schemaVersion: version, isSecure: isSecure),
            partitionKey: partition, isSourceSecure: select.int64(at: 12) & 2 != 0)
        try ImportChecks.checkPath(cookie.path)
        try ImportChecks.checkPair(name: cookie.name, value: cookie.value)
        return cookie
    }

    /// A text column of the current row (NULL as ""), or `invalidUTF8` naming `field` when its bytes are
    /// not UTF-8 (SQLite hands them as stored: read as they are, they would be changed to U+FFFD).
    private static func text(of select: SQLiteStatement, at column: Int32, field: StaticString) throws(CookieFileError) -> String {
        switch select.column(column) {
        case .text(let bytes): try ImportChecks.string(bytes, field: field)
        case .integer(let value): String(value)
        case .null, .other: ""
        }
    }

    /// Why a row is left out.
    enum LeftOutReason: Hashable, Comparable, CustomStringConvertible {
        /// Its origin attributes hold `attribute`, which puts it in another jar than the default one.
        case otherJar(attribute: String)
        /// Its partition key cannot be read (not `(scheme,host…)`, or escaping bytes that are not UTF-8).
        case unreadablePartitionKey
        /// It is partitioned, but not set with the Partitioned attribute (`isPartitionedAttributeSet` 0):
        /// partitioned by Total Cookie Protection, as Firefox keeps every cookie of a third-party context.
        case partitionedWithoutAttribute
        /// Its partition's top-level site has a port (`(scheme,host,port)`).
        case partitionWithPort
        /// Its partition is one of a frame with a cross-site ancestor (`(scheme,host,f)`).
        case partitionWithCrossSiteAncestor

        var description: String {
            switch self {
            case .otherJar(let attribute):
                let what = switch attribute {
                case "userContextId": "of a Firefox container"
                case "privateBrowsingId": "of private browsing"
                case "firstPartyDomain": "of first-party isolation"
                case "geckoViewSessionContextId": "of a GeckoView session context"
                default: "of another jar than the default one"
                }
                return "\(what) (originAttributes \(attribute))"
            case .unreadablePartitionKey:
                return "whose partition key cannot be read (originAttributes partitionKey)"
            case .partitionedWithoutAttribute:
                return "partitioned by Total Cookie Protection, not set with the Partitioned attribute "
                    + "(isPartitionedAttributeSet 0): this jar partitions only CHIPS cookies, "
                    + "and would send it under every top-level site"
            case .partitionWithPort:
                return "partitioned under a top-level site with a port "
                    + "(originAttributes partitionKey (scheme,host,port)): this jar keys a partition by scheme and site alone"
            case .partitionWithCrossSiteAncestor:
                return "partitioned for a frame with a cross-site ancestor "
                    + "(originAttributes partitionKey (scheme,host,f)): this jar has no such partitions"
            }
        }
    }

    /// Which jar `originAttributes` puts a cookie in (the format is Firefox's
    /// `OriginAttributes::CreateSuffix`: `^key=value&key=value`).
    enum Origin: Equatable {
        /// The default jar, unpartitioned (nil) or in `partition`.
        case defaultJar(partition: Partition?)
        /// Left out, for `reason`: another jar, or a partition key that cannot be read.
        case leftOut(LeftOutReason)

        /// Why a row of this origin whose `isPartitionedAttributeSet` is as given is left out, or nil when
        /// it is the default jar's, unpartitioned or in a partition this jar has (`partitionKey`).
        func leftOutReason(isPartitionedAttributeSet: Bool) -> LeftOutReason? {
            switch self {
            case .leftOut(let reason): reason
            case .defaultJar(nil): nil
            case .defaultJar(let partition?):
                if !isPartitionedAttributeSet {
                    .partitionedWithoutAttribute
                } else if partition.hasPort {
                    .partitionWithPort
                } else if partition.hasCrossSiteAncestor {
                    .partitionWithCrossSiteAncestor
                } else {
                    nil
                }
            }
        }

        /// The partition key of a row of this origin that is not left out: `scheme://host`, nil when
        /// unpartitioned.
        var partitionKey: String? {
            if case .defaultJar(let partition) = self { partition?.site } else { nil }
        }
    }

    /// A partition key of Firefox (`OriginAttributes::ParsePartitionKey`: `(scheme,host[,port][,f])`).
    struct Partition: Equatable {
        /// `scheme://host`.
        var site: String
        /// Whether the top-level site has a port.
        var hasPort = false
        /// Whether the frame has a cross-site ancestor ("f", foreign by ancestor context).
        var hasCrossSiteAncestor = false
    }

    /// The SameSite of a row: `value` (`sameSite`, the one Firefox enforces: 0 None, 1 Lax, 2 Strict, 256
    /// no attribute from schema 15 on) and `raw` (`rawSameSite`, the attribute as received). Before schema
    /// 15, a cookie without the attribute was stored as the Lax Firefox enforced with `raw` 0, or, with
    /// Lax by default turned off (release Firefox), as None (0, 0), as were the rows the migration to 15
    /// carried over. A None that is not Secure is one of those: Firefox refuses SameSite=None without
    /// Secure (`network.cookie.sameSite.noneRequiresSecure`), as §5.7 step 19 does.
    static func sameSite(_ value: Int64, raw: Int64, schemaVersion: Int64, isSecure: Bool) -> SameSite {
        if schemaVersion < 15 && raw == 0 && value != 0 { return .default }
        if value == 0 && raw == 0 && !isSecure { return .default }
        switch value {
        case 0: return SameSite.none
        case 1: return .lax
        case 2: return .strict
        default: return .default
        }
    }

    /// The jar of a cookie whose origin attributes are `attributes`; a partition key that cannot be read
    /// (not `(scheme,host[,port][,f])`, or escaping bytes that are not UTF-8) leaves it out, counted as such.
    static func origin(ofAttributes attributes: String) -> Origin {
        var partition: Partition?
        for pair in attributes.drop(while: { $0 == "^" }).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            guard parts[0] == "partitionKey" else { return .leftOut(.otherJar(attribute: String(parts[0]))) }
            // Firefox writes ":" as "+" in a partition key (an IPv6 host's), and reads it back so.
            guard let decoded = PercentDecoding.decoded(parts[1].utf8).map({ String($0.map { $0 == "+" ? ":" : $0 }) }),
                decoded.hasPrefix("("), decoded.hasSuffix(")")
            else { return .leftOut(.unreadablePartitionKey) }
            let fields = decoded.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 2, !fields.contains(where: \.isEmpty) else {
                return .leftOut(.unreadablePartitionKey)
            }
            var read = Partition(site: "\(fields[0])://\(fields[1])")
            // Then a port, "f" (foreign by ancestor context), or both in that order.
            var rest = fields.dropFirst(2)
            if let port = rest.first, port.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                read.hasPort = true
                rest = rest.dropFirst()
            }
            if rest.first == "f" {
                read.hasCrossSiteAncestor = true
                rest = rest.dropFirst()
            }
            guard rest.isEmpty else { return .leftOut(.unreadablePartitionKey) }
            partition = read
        }
        return .defaultJar(partition: partition)
    }
}
