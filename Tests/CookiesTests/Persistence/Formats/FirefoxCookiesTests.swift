import Foundation
import TestSupport
import Testing

@testable import Cookies

/// Importing Firefox's cookies.sqlite (issue 4, "Interchange formats"). The tables are Firefox's
/// `moz_cookies` as Firefox 91+ creates it (columns as in netwerk/cookie/CookiePersistentStorage.cpp;
/// older schemas in `everySchemaIsRead`); schema 16 (Firefox 142) stores expiry in milliseconds, earlier
/// schemas in seconds.
@Suite struct FirefoxCookiesTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    static let createTable = """
        CREATE TABLE moz_cookies (
            id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '', name TEXT, value TEXT, host TEXT,
            path TEXT, expiry INTEGER, lastAccessed INTEGER, creationTime INTEGER, isSecure INTEGER,
            isHttpOnly INTEGER, inBrowserElement INTEGER DEFAULT 0, sameSite INTEGER DEFAULT 0,
            rawSameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0, isPartitionedAttributeSet INTEGER DEFAULT 0,
            CONSTRAINT moz_uniqueid UNIQUE (name, host, path, originAttributes));
        """

    /// 2026-01-01T00:00:00Z in the unit of `schema`, and the cookies written with it.
    func writeDatabase(schema: Int64) throws {
        let expiry: Int64 = schema >= 16 ? 1_767_225_600_000 : 1_767_225_600
        let expired: Int64 = schema >= 16 ? 1_600_000_000_000 : 1_600_000_000
        let unset = schema >= 15 ? 256 : 1  // before 15: the enforced Lax with rawSameSite 0
        try runSQL(
            """
            PRAGMA user_version = \(schema);
            \(Self.createTable)
            INSERT INTO moz_cookies (originAttributes, name, value, host, path, expiry, lastAccessed, creationTime,
                isSecure, isHttpOnly, sameSite, rawSameSite, schemeMap) VALUES
              ('', 'sid', 'abc', '.example.com', '/', \(expiry), 1735689700000000, 1735689600000000, 1, 1, 2, 2, 2),
              ('', 'theme', 'dark', 'www.example.org', '/app', \(expiry), 1735689600000001, 1735689600000001, 0, 0, \(unset), 0, 1),
              ('^userContextId=2', 'container', '1', 'example.com', '/', \(expiry), 1735689600000003, 1735689600000003, 0, 0, 1, 1, 2),
              ('^userContextId=3', 'other-container', '1', 'example.com', '/', \(expiry), 1735689600000003, 1735689600000003, 0, 0, 1, 1, 2),
              ('^privateBrowsingId=1', 'private', '1', 'example.com', '/', \(expiry), 1735689600000003, 1735689600000003, 0, 0, 1, 1, 2),
              ('', 'old', '1', 'example.com', '/', \(expired), 1600000000000000, 1600000000000000, 0, 0, 1, 1, 2),
              ('^partitionKey=%28https%2Ctop.example%29', 'third-party', '1', 'embed.example', '/', \(expiry), 1735689600000004, 1735689600000004, 0, 0, 0, 0, 1);
            INSERT INTO moz_cookies (originAttributes, name, value, host, path, expiry, lastAccessed, creationTime,
                isSecure, isHttpOnly, sameSite, rawSameSite, schemeMap, isPartitionedAttributeSet) VALUES
              ('^partitionKey=%28https%2Ctop.example%29', 'chip', '1', 'embed.example', '/', \(expiry), 1735689600000002, 1735689600000002, 1, 0, 0, 0, 2, 1),
              ('^partitionKey=%28https%2Ctop.example%2Cf%29', 'chip', '2', 'embed.example', '/', \(expiry), 1735689600000002, 1735689600000002, 1, 0, 0, 0, 2, 1),
              ('^partitionKey=%28http%2Clocalhost%2C8080%29', 'chip', '3', 'embed.example', '/', \(expiry), 1735689600000002, 1735689600000002, 1, 0, 0, 0, 2, 1);
            """, on: path)
    }

    /// The SameSite of a row (Firefox's netwerk/cookie: nsICookie SAMESITE_NONE 0, LAX 1, STRICT 2, UNSET
    /// 256 from schema 15; CookiePersistentStorage's migration to schema 15 keeps (0, 0) rows): a cookie
    /// without the attribute is `.default`, as receiving gives it, however Firefox stored it.
    @Test(arguments: [
        (14, 0, 0, false, SameSite.default, "no attribute, Lax by default off (release Firefox before 15)"),
        (14, 0, 0, true, SameSite.none, "SameSite=None; Secure"),
        (14, 1, 0, false, SameSite.default, "no attribute, the Lax Firefox enforced"),
        (14, 1, 1, false, SameSite.lax, "SameSite=Lax"),
        (15, 256, 0, false, SameSite.default, "no attribute from schema 15 on"),
        (16, 0, 0, false, SameSite.default, "a (0, 0) row the migration to 15 carried over"),
        (16, 0, 0, true, SameSite.none, "SameSite=None; Secure"),
        (16, 2, 2, true, SameSite.strict, "SameSite=Strict"),
    ] as [(Int64, Int64, Int64, Bool, SameSite, String)])
    func sameSiteOfARow(
        _ schema: Int64, _ value: Int64, _ raw: Int64, _ isSecure: Bool, _ expected: SameSite, _ source: String
    ) {
        #expect(FirefoxCookies.sameSite(value, raw: raw, schemaVersion: schema, isSecure: isSecure) == expected, "\(source)")
    }

    @Test(arguments: [14, 15, 16] as [Int64])
    func firefoxCookiesAreImported(schema: Int64) throws {
        try writeDatabase(schema: schema)
        let expiry = CookieTime(secondsSinceEpoch: Int64(1_767_225_600))
        let expected: Set<Cookie> = [
            Cookie(
                name: "sid", value: "abc", domain: "example.com", isHostOnly: false, path: "/", expiry: expiry,
                creation: CookieTime(microsecondsSinceEpoch: 1_735_689_600_000_000),
                lastAccess: CookieTime(microsecondsSinceEpoch: 1_735_689_700_000_000), isSecure: true, isHTTPOnly: true,
                sameSite: .strict, isSourceSecure: true),
            Cookie(
                name: "theme", value: "dark", domain: "www.example.org", path: "/app", expiry: expiry,
                creation: CookieTime(microsecondsSinceEpoch: 1_735_689_600_000_001), sameSite: .default),
            Cookie(
                name: "chip", value: "1", domain: "embed.example", path: "/", expiry: expiry,
                creation: CookieTime(microsecondsSinceEpoch: 1_735_689_600_000_002), isSecure: true, sameSite: .none,
                partitionKey: "https://top.example", isSourceSecure: true),
        ]
        let contents = try FirefoxCookies.read(contentsOf: path)
        let cookies = contents.cookies
        #expect(Set(cookies.filter { !$0.isExpired(at: testEpoch) }) == expected)
        #expect(cookies.filter { $0.isExpired(at: testEpoch) }.map(\.name) == ["old"], "expired rows are read too")
        #expect(contents.leftOut == [
            .init(count: 1, reason: "of private browsing (originAttributes privateBrowsingId)"),
            .init(count: 2, reason: "of a Firefox container (originAttributes userContextId)"),
            .init(count: 1, reason: FirefoxCookies.LeftOutReason.partitionedWithoutAttribute.description),
            .init(count: 1, reason: FirefoxCookies.LeftOutReason.partitionWithPort.description),
            .init(count: 1, reason: FirefoxCookies.LeftOutReason.partitionWithCrossSiteAncestor.description),
        ], "the cookies of other jars and of partitions this jar has not are counted, not dropped unsaid")
    }

    /// Firefox partitions every cookie of a third-party context under the top-level site (Total Cookie
    /// Protection); from schema 13 (CookiePersistentStorage.cpp, "Add the isPartitionedAttributeSet
    /// column") `isPartitionedAttributeSet` tells the cookies set with the CHIPS `Partitioned` attribute
    /// (CookieCommons::IsFirstPartyPartitionedCookieWithoutCHIPS reads it so), the only partitioned cookies
    /// this jar keeps; before 13 there were none. A partition key's port and "f" (foreign by ancestor
    /// context) are OriginAttributes::ParsePartitionKey's `(scheme,host[,port][,f])`; the jar keys no
    /// partition by either, so such rows are left out rather than put in the partition of the site alone,
    /// where two rows differing only in them became one cookie. A row with the attribute but no partition
    /// key is one Firefox had not moved to its site's partition yet (MoveUnpartitionedChipsCookies): read
    /// unpartitioned, as the Firefox without CHIPS that wrote it kept it.
    static let partitionedRows: [(attributes: String, flag: Int64?, secure: Int64, kept: String??, source: String)] = [
        ("^partitionKey=%28https%2Ctop.example%29", 1, 1, .some("https://top.example"), "CHIPS: set with Partitioned"),
        ("^partitionKey=%28https%2Ctop.example%29", 0, 0, nil, "Total Cookie Protection: a third-party cookie, not Secure"),
        ("^partitionKey=%28https%2Ctop.example%29", 0, 1, nil, "Total Cookie Protection: a Secure third-party cookie"),
        ("^partitionKey=%28https%2Ctop.example%29", nil, 1, nil, "schema 12: no column, no CHIPS cookie yet"),
        ("", 1, 1, .some(nil), "the attribute without a partition: not moved yet, unpartitioned"),
        ("", nil, 0, .some(nil), "schema 12: an unpartitioned cookie"),
        ("^partitionKey=%28https%2Ctop.example%2C8443%29", 1, 1, nil, "a port: no partition of this jar"),
        ("^partitionKey=%28https%2Ctop.example%2Cf%29", 1, 1, nil, "a cross-site ancestor: no partition of this jar"),
        ("^partitionKey=%28https%2C%5B%2B%2B1%5D%29", 1, 1, .some("https://[::1]"), "an IPv6 site, its \":\" written \"+\""),
    ]

    @Test(arguments: partitionedRows)
    func onlyRowsSetWithThePartitionedAttributeAreKeptPartitioned(
        attributes: String, flag: Int64?, secure: Int64, kept: String??, source: String
    ) throws {
        // Schema 12 has no isPartitionedAttributeSet column.
        let table = flag == nil ? Self.createTable.replacingOccurrences(of: " isPartitionedAttributeSet INTEGER DEFAULT 0,", with: "") : Self.createTable
        try runSQL(
            """
            PRAGMA user_version = \(flag == nil ? 12 : 16);
            \(table)
            INSERT INTO moz_cookies (originAttributes, name, value, host, path, expiry, lastAccessed, creationTime,
                isSecure, isHttpOnly, sameSite, rawSameSite, schemeMap\(flag == nil ? "" : ", isPartitionedAttributeSet")) VALUES
              ('\(attributes)', 'p', '1', 'embed.example', '/', 1767225600, 1735689600000000, 1735689600000000,
                \(secure), 0, 0, 0, 2\(flag.map { ", \($0)" } ?? ""));
            """, on: path)
        let contents = try FirefoxCookies.read(contentsOf: path)
        if let kept {
            #expect(contents.cookies.map(\.partitionKey) == [kept] && contents.leftOut.isEmpty, "\(source)")
        } else {
            #expect(contents.cookies.isEmpty && contents.leftOut.map(\.count) == [1], "\(source)")
        }
    }

    /// The columns each schema has (CookiePersistentStorage.cpp's upgrades: `sameSite` from 9, `rawSameSite`
    /// 10–14, `schemeMap` from 12, `isPartitionedAttributeSet` from 13, `updateTime` from 17; `baseDomain`
    /// up to 10): each is read, a column missing as its absence meant (SameSite unset, no source scheme).
    static let schemas: [(schema: Int64, columns: String, values: String, sameSite: SameSite, sourceSecure: Bool)] = [
        (8, "baseDomain TEXT", "'example.com'", .default, false),
        (9, "baseDomain TEXT, sameSite INTEGER", "'example.com', 2", .strict, false),
        (10, "baseDomain TEXT, sameSite INTEGER, rawSameSite INTEGER", "'example.com', 1, 0", .default, false),
        (11, "sameSite INTEGER DEFAULT 0, rawSameSite INTEGER DEFAULT 0", "1, 1", .lax, false),
        (12, "sameSite INTEGER DEFAULT 0, rawSameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0", "2, 2, 2", .strict, true),
        (13, "sameSite INTEGER DEFAULT 0, rawSameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0, isPartitionedAttributeSet INTEGER DEFAULT 0",
         "1, 0, 2, 0", .default, true),
        (15, "sameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0, isPartitionedAttributeSet INTEGER DEFAULT 0", "256, 2, 0", .default, true),
        (17, "sameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0, isPartitionedAttributeSet INTEGER DEFAULT 0, updateTime INTEGER",
         "1, 1, 0, 1735689600000000", .lax, false),
    ]

    @Test(arguments: schemas)
    func everySchemaIsRead(schema: Int64, columns: String, values: String, sameSite: SameSite, sourceSecure: Bool) throws {
        let expiry: Int64 = schema >= 16 ? 1_767_225_600_000 : 1_767_225_600
        let names = columns.split(separator: ",").map { $0.split(separator: " ", omittingEmptySubsequences: true)[0] }
        try runSQL(
            """
            PRAGMA user_version = \(schema);
            CREATE TABLE moz_cookies (
                id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '', name TEXT, value TEXT, host TEXT,
                path TEXT, expiry INTEGER, lastAccessed INTEGER, creationTime INTEGER, isSecure INTEGER,
                isHttpOnly INTEGER, inBrowserElement INTEGER DEFAULT 0, \(columns));
            INSERT INTO moz_cookies (originAttributes, name, value, host, path, expiry, lastAccessed, creationTime,
                isSecure, isHttpOnly, \(names.joined(separator: ", "))) VALUES
              ('', 'a', '1', 'example.com', '/', \(expiry), 1735689600000000, 1735689600000000, 0, 0, \(values));
            """, on: path)
        let cookie = try #require(FirefoxCookies.read(contentsOf: path).cookies.first, "schema \(schema)")
        #expect(cookie.sameSite == sameSite && cookie.isSourceSecure == sourceSecure, "schema \(schema)")
        #expect(cookie.expiry == CookieTime(secondsSinceEpoch: Int64(1_767_225_600)), "schema \(schema)")
    }

    /// Firefox's `OriginAttributes::CreateSuffix` (caps/OriginAttributes.cpp): `^key=value&key=value`,
    /// values percent-encoded, ":" in a partition key written "+"; only `partitionKey` is of the default
    /// jar, and `OriginAttributes::ParsePartitionKey` reads it as `(scheme,host[,port][,f])`.
    static let origins: [(attributes: String, origin: FirefoxCookies.Origin)] = [
        ("", .defaultJar(partition: nil)),
        ("^partitionKey=%28https%2Ctop.example%29", .defaultJar(partition: .init(site: "https://top.example"))),
        ("^partitionKey=%28https%2Ctop.example%2C8443%29", .defaultJar(partition: .init(site: "https://top.example", hasPort: true))),
        ("^partitionKey=%28https%2Ctop.example%2Cf%29", .defaultJar(partition: .init(site: "https://top.example", hasCrossSiteAncestor: true))),
        ("^partitionKey=%28https%2Ctop.example%2C8443%2Cf%29",
         .defaultJar(partition: .init(site: "https://top.example", hasPort: true, hasCrossSiteAncestor: true))),
        ("^partitionKey=%28https%2C%5B%2B%2B1%5D%29", .defaultJar(partition: .init(site: "https://[::1]"))),
        ("^userContextId=2", .leftOut(.otherJar(attribute: "userContextId"))),
        ("^privateBrowsingId=1", .leftOut(.otherJar(attribute: "privateBrowsingId"))),
        ("^firstPartyDomain=example.com", .leftOut(.otherJar(attribute: "firstPartyDomain"))),
        ("^partitionKey=%28https%2Ctop.example%29&userContextId=1", .leftOut(.otherJar(attribute: "userContextId"))),
        ("^partitionKey=broken", .leftOut(.unreadablePartitionKey)),
        // ParsePartitionKey refuses an empty field, a third field neither a port nor "f", and "f" before a port.
        ("^partitionKey=%28https%2C%2Cf%29", .leftOut(.unreadablePartitionKey)),
        ("^partitionKey=%28https%2Ctop.example%2Cx%29", .leftOut(.unreadablePartitionKey)),
        ("^partitionKey=%28https%2Ctop.example%2Cf%2C8443%29", .leftOut(.unreadablePartitionKey)),
        // Escapes of bytes that are not UTF-8 (a stray byte, a sequence cut short): a key that cannot be
        // read, not one with U+FFFD in it (this project's contract); an escaped "é" is one.
        ("^partitionKey=%28https%2Ctop%FF.example%29", .leftOut(.unreadablePartitionKey)),
        ("^partitionKey=%28https%2Ct%C3p.example%29", .leftOut(.unreadablePartitionKey)),
        ("^partitionKey=%28https%2Ct%C3%A9.example%29", .defaultJar(partition: .init(site: "https://t\u{E9}.example"))),
        // A "%" without two HEXDIGs (RFC 3986 §2.1) is no escape: the key cannot be read (not "%" with the
        // next two characters dropped, nor "+f" read as a signed number).
        ("^partitionKey=%28https%2Ctop%zz.example%29", .leftOut(.unreadablePartitionKey)),
        ("^partitionKey=%28https%2Ctop%+f.example%29", .leftOut(.unreadablePartitionKey)),
        ("^partitionKey=%28https%2Ctop.example%2", .leftOut(.unreadablePartitionKey)),
    ]

    @Test(arguments: origins.indices)
    func originAttributesTellTheJar(_ index: Int) {
        let (attributes, origin) = Self.origins[index]
        #expect(FirefoxCookies.origin(ofAttributes: attributes) == origin)
    }

    /// A running Firefox holds its database locked; the immutable open neither waits nor writes.
    @Test func lockedDatabaseIsReadWithoutWaitingOrWriting() throws {
        try writeDatabase(schema: 16)
        let lock = try SQLiteConnection(path: path, flags: .readWrite)
        try lock.execute("BEGIN EXCLUSIVE; UPDATE moz_cookies SET value = value;")
        let before = fileBytes(path)
        #expect(try FirefoxCookies.read(contentsOf: path).cookies.count == 4)
        #expect(fileBytes(path) == before)
        try lock.execute("ROLLBACK")
    }

    /// A row that is no cookie (a value that is not UTF-8, which read as it is would become U+FFFD; a
    /// control character, §5.6 step 1) stops a strict read naming its row, and is skipped and listed by a
    /// lenient one, which reads the others. A row is named by its `id` (the INTEGER PRIMARY KEY Firefox
    /// gives every row) with its host and name, never its value: a count of the rows read named the wrong
    /// row once one was left out before it (this project's contract).
    @Test func rowsThatAreNoCookieAreErrorsOrSkipped() throws {
        try runSQL(
            """
            PRAGMA user_version = 16;
            \(Self.createTable)
            INSERT INTO moz_cookies (id, originAttributes, name, value, host, path, expiry, lastAccessed, creationTime,
                isSecure, isHttpOnly, sameSite, rawSameSite, schemeMap) VALUES
              (7, '', 'good', '1', 'example.com', '/', 1767225600000, 1735689600000000, 1735689600000000, 0, 0, 256, 0, 2),
              (8, '^userContextId=1', 'container', '1', 'example.com', '/', 1767225600000, 1735689600000000, 1735689600000000, 0, 0, 256, 0, 2),
              (9, '', 'bytes', CAST(X'41FF42' AS TEXT), 'example.com', '/', 1767225600000, 1735689600000000, 1735689600000000, 0, 0, 256, 0, 2),
              (12, '', 'control', 'a' || char(1) || 'b', 'example.com', '/', 1767225600000, 1735689600000000, 1735689600000000, 0, 0, 256, 0, 2),
              (13, '', CAST(X'FF' AS TEXT), '1', 'example.com', '/', 1767225600000, 1735689600000000, 1735689600000000, 0, 0, 256, 0, 2);
            """, on: path)
        #expect {
            try FirefoxCookies.read(contentsOf: path)
        } throws: { error in
            let error = error as! CookieFileError
            return error.code == .invalidUTF8
                && error.description.contains("moz_cookies row id 9 (host example.com, name bytes): the value is not valid UTF-8")
        }
        let contents = try FirefoxCookies.read(contentsOf: path, lenient: true)
        #expect(contents.cookies.map(\.name) == ["good"])
        #expect(contents.skipped.map(\.code) == [.invalidUTF8, .invalidCookie, .invalidUTF8])
        #expect(contents.skipped.map { $0.detail.prefix { $0 != ":" } } == [
            "moz_cookies row id 9 (host example.com, name bytes)", "moz_cookies row id 12 (host example.com, name control)",
            "moz_cookies row id 13 (host example.com)",
        ])
        #expect(!contents.skipped.description.contains("a\u{1}b"), "never a value")
    }

    /// A file that is not Firefox's cookie database is a clear error naming it.
    @Test func otherFilesAreErrors() throws {
        try runSQL("CREATE TABLE notes (body TEXT);", on: path)
        #expect {
            try FirefoxCookies.read(contentsOf: path)
        } throws: { error in
            let error = error as! CookieFileError
            return error.code == .foreign && error.description.hasPrefix(path + ": an SQLite database without a moz_cookies table")
        }
    }
}
