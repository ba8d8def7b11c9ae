import Foundation
import TestSupport
import Testing

@testable import Cookies

/// Importing Firefox's cookies.sqlite (issue 4, "Interchange formats"). The tables are Firefox's
/// `moz_cookies` as Firefox 91+ creates it (columns as in netwerk/cookie/CookiePersistentStorage.cpp);
/// schema 16 (Firefox 142) stores expiry in milliseconds, earlier schemas in seconds.
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
              ('^partitionKey=%28https%2Ctop.example%29', 'chip', '1', 'embed.example', '/', \(expiry), 1735689600000002, 1735689600000002, 1, 0, 0, 0, 2),
              ('^userContextId=2', 'container', '1', 'example.com', '/', \(expiry), 1735689600000003, 1735689600000003, 0, 0, 1, 1, 2),
              ('^userContextId=3', 'other-container', '1', 'example.com', '/', \(expiry), 1735689600000003, 1735689600000003, 0, 0, 1, 1, 2),
              ('^privateBrowsingId=1', 'private', '1', 'example.com', '/', \(expiry), 1735689600000003, 1735689600000003, 0, 0, 1, 1, 2),
              ('', 'old', '1', 'example.com', '/', \(expired), 1600000000000000, 1600000000000000, 0, 0, 1, 1, 2);
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
        ], "the cookies of other jars than the default one are counted, not dropped unsaid")
    }

    /// Firefox's `OriginAttributes::CreateSuffix` (caps/OriginAttributes.cpp): `^key=value&key=value`,
    /// values percent-encoded; only `partitionKey` is of the default jar.
    static let origins: [(attributes: String, origin: FirefoxCookies.Origin)] = [
        ("", .defaultJar(partitionKey: "")),
        ("^partitionKey=%28https%2Ctop.example%29", .defaultJar(partitionKey: "https://top.example")),
        ("^partitionKey=%28https%2Ctop.example%2C8443%29", .defaultJar(partitionKey: "https://top.example")),
        ("^userContextId=2", .otherJar(attribute: "userContextId")),
        ("^privateBrowsingId=1", .otherJar(attribute: "privateBrowsingId")),
        ("^firstPartyDomain=example.com", .otherJar(attribute: "firstPartyDomain")),
        ("^partitionKey=%28https%2Ctop.example%29&userContextId=1", .otherJar(attribute: "userContextId")),
        ("^partitionKey=broken", .otherJar(attribute: "partitionKey")),
        // Escapes of bytes that are not UTF-8 (a stray byte, a sequence cut short): a key that cannot be
        // read, not one with U+FFFD in it (this project's contract); an escaped "é" is one.
        ("^partitionKey=%28https%2Ctop%FF.example%29", .otherJar(attribute: "partitionKey")),
        ("^partitionKey=%28https%2Ct%C3p.example%29", .otherJar(attribute: "partitionKey")),
        ("^partitionKey=%28https%2Ct%C3%A9.example%29", .defaultJar(partitionKey: "https://t\u{E9}.example")),
        // A "%" without two HEXDIGs (RFC 3986 §2.1) is no escape: the key cannot be read (not "%" with the
        // next two characters dropped, nor "+f" read as a signed number).
        ("^partitionKey=%28https%2Ctop%zz.example%29", .otherJar(attribute: "partitionKey")),
        ("^partitionKey=%28https%2Ctop%+f.example%29", .otherJar(attribute: "partitionKey")),
        ("^partitionKey=%28https%2Ctop.example%2", .otherJar(attribute: "partitionKey")),
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
    /// lenient one, which reads the others.
    @Test func rowsThatAreNoCookieAreErrorsOrSkipped() throws {
        try runSQL(
            """
            PRAGMA user_version = 16;
            \(Self.createTable)
            INSERT INTO moz_cookies (originAttributes, name, value, host, path, expiry, lastAccessed, creationTime,
                isSecure, isHttpOnly, sameSite, rawSameSite, schemeMap) VALUES
              ('', 'good', '1', 'example.com', '/', 1767225600000, 1735689600000000, 1735689600000000, 0, 0, 256, 0, 2),
              ('', 'bytes', CAST(X'41FF42' AS TEXT), 'example.com', '/', 1767225600000, 1735689600000000, 1735689600000000, 0, 0, 256, 0, 2),
              ('', 'control', 'a' || char(1) || 'b', 'example.com', '/', 1767225600000, 1735689600000000, 1735689600000000, 0, 0, 256, 0, 2);
            """, on: path)
        #expect {
            try FirefoxCookies.read(contentsOf: path)
        } throws: { error in
            let error = error as! CookieFileError
            return error.code == .invalidUTF8 && error.description.contains("moz_cookies, cookie 2: the value is not valid UTF-8")
        }
        let contents = try FirefoxCookies.read(contentsOf: path, lenient: true)
        #expect(contents.cookies.map(\.name) == ["good"])
        #expect(contents.skipped.map(\.code) == [.invalidUTF8, .invalidCookie])
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
