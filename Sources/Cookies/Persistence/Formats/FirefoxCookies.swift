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
///   jar's and are skipped.
public enum FirefoxCookies {
    /// Every cookie of the default container in the Firefox cookie database at `path`, expired ones
    /// included (a jar drops them on `insert`).
    public static func read(contentsOf path: String) throws(CookieFileError) -> [Cookie] {
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
        var cookies: [Cookie] = []
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
                guard let partition = partitionKey(originAttributes: select.string(at: 12)) else { continue }
                let host = select.string(at: 2)
                let isDomain = host.hasPrefix(".")
                let rawExpiry = select.int64(at: 4)
                let (micros, overflow) = rawExpiry.multipliedReportingOverflow(by: 1000)
                let expiry = ImportChecks.time(
                    version >= 16
                    ? CookieTime(microsecondsSinceEpoch: overflow ? (rawExpiry < 0 ? .min : .max) : micros)
                    : CookieTime(secondsSinceEpoch: rawExpiry))
                cookies.append(
                    Cookie(
                        name: select.string(at: 0), value: select.string(at: 1),
                        domain: isDomain ? String(host.dropFirst()) : host, isHostOnly: !isDomain,
                        path: select.string(at: 3), expiry: expiry,
                        creation: ImportChecks.time(CookieTime(microsecondsSinceEpoch: select.int64(at: 5))),
                        lastAccess: ImportChecks.time(CookieTime(microsecondsSinceEpoch: select.int64(at: 6))),
                        isSecure: select.int64(at: 7) != 0, isHTTPOnly: select.int64(at: 8) != 0,
                        sameSite: sameSite(select.int64(at: 9), raw: select.int64(at: 10), schemaVersion: version),
                        partitionKey: partition.isEmpty ? nil : partition,
                        isSourceSecure: select.int64(at: 11) & 2 != 0))
            }
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot read moz_cookies")
        }
        // The checks every reader applies (`ImportChecks`): Firefox's file is outside input too.
        for index in cookies.indices {
            do {
                cookies[index].domain = try ImportChecks.canonicalDomain(cookies[index].domain)
                try ImportChecks.checkPath(cookies[index].path)
                try ImportChecks.checkPair(name: cookies[index].name, value: cookies[index].value)
            } catch {
                throw CookieFileError(error.code, path: path, detail: "moz_cookies, cookie \(index + 1): \(error.detail)")
            }
        }
        return cookies
    }

    static func sameSite(_ value: Int64, raw: Int64, schemaVersion: Int64) -> SameSite {
        if schemaVersion < 15 && raw == 0 && value != 0 { return .default }
        switch value {
        case 0: return SameSite.none
        case 1: return .lax
        case 2: return .strict
        default: return .default
        }
    }

    /// The partition key of `originAttributes` ("" when unpartitioned), or nil for a cookie outside the
    /// default jar. The format is Firefox's `OriginAttributes::CreateSuffix`: `^key=value&key=value`.
    static func partitionKey(originAttributes: String) -> String? {
        var key = ""
        for pair in originAttributes.drop(while: { $0 == "^" }).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            guard parts[0] == "partitionKey" else { return nil }
            // (scheme,host[,port][,f]) → scheme://host
            let fields = percentDecoded(parts[1]).trimmingPrefix("(").split(separator: ",")
            guard fields.count >= 2 else { return nil }
            key = "\(fields[0])://\(fields[1].hasSuffix(")") ? fields[1].dropLast() : fields[1])"
        }
        return key
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
