/// Reads the cookies Firefox keeps in a profile's `cookies.sqlite` (table `moz_cookies`), so that an
/// app can load what a browser or a GeckoView stored. Read-only: the file is opened `immutable=1`
/// (https://sqlite.org/uri.html#uriimmutable), so a running Firefox's lock does not matter and nothing
/// is written — not even a WAL checkpoint (what a running Firefox has only in its WAL is not seen).
///
/// Mapping (Firefox's `netwerk/cookie`, schema versions read from `PRAGMA user_version`):
/// - `host` with a leading dot is a domain cookie (host-only-flag false) for the host without it.
/// - `expiry` is seconds since 1970 up to schema 15 and milliseconds from schema 16 (Firefox 142);
///   `creationTime` and `lastAccessed` are microseconds.
/// - `sameSite`: 0 None, 1 Lax, 2 Strict, 256 unset (schema 15+). Before schema 15 an unset
///   attribute was stored as the enforced default with `rawSameSite` 0: that reads as unset too.
/// - `schemeMap` bit 2 (HTTPS) is the source scheme.
/// - `originAttributes`: `partitionKey=(https,example.com)` (percent-encoded) becomes the partition
///   key `https://example.com`. Cookies of containers or private browsing (`userContextId`,
///   `privateBrowsingId`, `firstPartyDomain`, `geckoViewSessionContextId`) are not the default
///   jar's: they are left out, and counted by attribute (`CookieFileContents.leftOut`).
public enum FirefoxCookies {
    /// Every cookie of the default container in the Firefox cookie database at `path`, expired ones
    /// included (a jar drops them on `insert`), and how many of other containers were left out. A row
    /// that is no cookie (text that is not UTF-8, a domain, path, name or value no cookie has) throws,
    /// or with `lenient` is skipped and listed (`CookieFileContents.skipped`).
    public static func read(contentsOf path: String, lenient: Bool = false) throws(CookieFileError) -> CookieFileContents {
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
        // Origin attribute → how many cookies it put outside the default jar.
        var leftOut: [String: Int] = [:]
        do {
            let version = try connection.integer("PRAGMA user_version") ?? 0
            let hasRawSameSite = try connection.integer(
                "SELECT count(*) FROM pragma_table_info('moz_cookies') WHERE name = 'rawSameSite'") == 1
            let hasSchemeMap = try connection.integer(
                "SELECT count(*) FROM pragma_table_info('moz_cookies') WHERE name = 'schemeMap'") == 1
            let select = try connection.prepare(
                """
                SELECT name, value, host, path, expiry, creationTime, lastAccessed, isSecure, isHttpOnly, sameSite,
                    \(hasRawSameSite ? "rawSameSite" : "0"), \(hasSchemeMap ? "schemeMap" : "0"), originAttributes
                FROM moz_cookies
                """)
            while try select.step() {
                let origin: Origin
                do {
                    origin = self.origin(ofAttributes: try text(of: select, at: 12, field: "originAttributes"))
                } catch {
                    rows.append(.failure(error))
                    continue
                }
                switch origin {
                case .defaultJar(let partition):
                    rows.append(Result { () throws(CookieFileError) in try cookie(in: select, partition: partition, schemaVersion: version) })
                case .otherJar(let attribute):
                    leftOut[attribute, default: 0] += 1
                }
            }
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot read moz_cookies")
        }
        var problems = ImportProblems(lenient: lenient)
        var cookies: [Cookie] = []
        for (index, row) in rows.enumerated() {
            switch row {
            case .success(let cookie): cookies.append(cookie)
            case .failure(let error):
                try problems.skip(CookieFileError(error.code, path: path, detail: "moz_cookies, cookie \(index + 1): \(error.detail)"))
            }
        }
        return CookieFileContents(
            format: .firefox, cookies: cookies, skipped: problems.skipped,
            leftOut: leftOut.sorted { $0.key < $1.key }.map { .init(count: $0.value, reason: reason(leavingOut: $0.key)) })
    }

    /// The cookie of the current row of the `SELECT` of `read`, held to the checks every reader applies
    /// (`ImportChecks`: Firefox's file is outside input too).
    private static func cookie(in select: SQLiteStatement, partition: String, schemaVersion version: Int64) throws(CookieFileError) -> Cookie {
        let host = try text(of: select, at: 2, field: "host")
        let isDomain = host.hasPrefix(".")
        let rawExpiry = select.int64(at: 4)
        let (micros, overflow) = rawExpiry.multipliedReportingOverflow(by: 1000)
        let expiry = ImportChecks.time(
            version >= 16
            ? CookieTime(microsecondsSinceEpoch: overflow ? (rawExpiry < 0 ? .min : .max) : micros)
            : CookieTime(secondsSinceEpoch: rawExpiry))
        let cookie = Cookie(
            name: try text(of: select, at: 0, field: "name"), value: try text(of: select, at: 1, field: "value"),
            domain: try ImportChecks.canonicalDomain(isDomain ? String(host.dropFirst()) : host), isHostOnly: !isDomain,
            path: try text(of: select, at: 3, field: "path"), expiry: expiry,
            creation: ImportChecks.time(CookieTime(microsecondsSinceEpoch: select.int64(at: 5))),
            lastAccess: ImportChecks.time(CookieTime(microsecondsSinceEpoch: select.int64(at: 6))),
            isSecure: select.int64(at: 7) != 0, isHTTPOnly: select.int64(at: 8) != 0,
            sameSite: sameSite(select.int64(at: 9), raw: select.int64(at: 10), schemaVersion: version, isSecure: select.int64(at: 7) != 0),
            partitionKey: partition.isEmpty ? nil : partition,
            isSourceSecure: select.int64(at: 11) & 2 != 0)
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

    /// Why a cookie whose origin attributes hold `attribute` is not the default jar's.
    static func reason(leavingOut attribute: String) -> String {
        let what = switch attribute {
        case "userContextId": "of a Firefox container"
        case "privateBrowsingId": "of private browsing"
        case "firstPartyDomain": "of first-party isolation"
        case "geckoViewSessionContextId": "of a GeckoView session context"
        case "partitionKey": "whose partition key cannot be read"
        default: "of another jar than the default one"
        }
        return "\(what) (originAttributes \(attribute))"
    }

    /// Which jar `originAttributes` puts a cookie in (the format is Firefox's
    /// `OriginAttributes::CreateSuffix`: `^key=value&key=value`).
    enum Origin: Equatable {
        /// The default jar, partitioned under `partitionKey` ("" when unpartitioned).
        case defaultJar(partitionKey: String)
        /// Another jar, as `attribute` says (a container's `userContextId`, ...).
        case otherJar(attribute: String)
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
    /// (not `(scheme,host…)`, or escaping bytes that are not UTF-8) puts it in another jar, counted as such.
    static func origin(ofAttributes attributes: String) -> Origin {
        var key = ""
        for pair in attributes.drop(while: { $0 == "^" }).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            guard parts[0] == "partitionKey" else { return .otherJar(attribute: String(parts[0])) }
            // (scheme,host[,port][,f]) → scheme://host
            guard let decoded = percentDecoded(parts[1]) else { return .otherJar(attribute: "partitionKey") }
            let fields = decoded.trimmingPrefix("(").split(separator: ",")
            guard fields.count >= 2 else { return .otherJar(attribute: "partitionKey") }
            key = "\(fields[0])://\(fields[1].hasSuffix(")") ? fields[1].dropLast() : fields[1])"
        }
        return .defaultJar(partitionKey: key)
    }

    /// `text` with its `%XX` escapes decoded, or nil when a "%" is not followed by two hex digits, or the
    /// bytes they give are not UTF-8 (a String made of them would hold U+FFFD instead, another partition key).
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            // "%" and two HEXDIGs (RFC 3986 §2.1), as Firefox writes them; anything else is no escape this
            // reader can undo, and no key it can read.
            guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes.withUnsafeBufferPointer { String(validatingUTF8Bytes: $0) }
    }
}
