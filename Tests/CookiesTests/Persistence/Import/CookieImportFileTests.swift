import Foundation
import TestSupport
import Testing
@testable import Cookies

/// Sniffing, whole-file reading and jar import/export. Facts: the SQLite header string (sqlite.org file
/// format §1.3.1), "cook" (binarycookies), RFC 8259 (a JSON text starts with a value), the cookies.txt
/// layout; the jar's contract for `insert` (expired cookies are not stored).
struct CookieImportFileTests {
    static let sniffing: [(label: String, bytes: [UInt8], format: CookieFileFormat?)] = [
        ("SQLite header", Array("SQLite format 3\0".utf8) + [0x10, 0x00], .sqlite),
        ("binarycookies magic", Array("cook".utf8) + [0, 0, 0, 0], .binaryCookies),
        ("JSON object", Array("{\"format\": \"swift-cookiejar\"}".utf8), .json),
        ("JSON after BOM and whitespace", [0xEF, 0xBB, 0xBF] + Array(" \r\n\t[".utf8), .json),
        ("Netscape header", Array("# Netscape HTTP Cookie File\n".utf8), .cookiesTxt),
        ("HttpOnly line first", Array("#HttpOnly_.a.example\tTRUE\t/\tFALSE\t0\ta\tb\n".utf8), .cookiesTxt),
        ("cookie line without header", Array("a.example\tFALSE\t/\tFALSE\t0\ta\tb".utf8), .cookiesTxt),
        // A domain starting with binarycookies' magic (cookpad.com), or an IPv6 literal, as curl writes them.
        ("cookie line of a domain starting with cook", Array("cookpad.com\tFALSE\t/\tFALSE\t0\ta\tb\n".utf8), .cookiesTxt),
        ("cookie line of an IPv6 host", Array("[2001:db8::1]\tFALSE\t/\tFALSE\t0\ta\tb\n".utf8), .cookiesTxt),
        ("JSON array, tab-indented", Array("[\t{\"name\": \"a\"}]".utf8), .json),
        ("binarycookies with one page", Array("cook".utf8) + [0, 0, 0, 1, 0, 0, 0, 0x28, 0x09, 0x0A], .binaryCookies),
        ("empty", [], .cookiesTxt),
        ("blank lines only", Array("\n\r\n  \n".utf8), .cookiesTxt),
        ("plain text", Array("hello world\n".utf8), nil),
        ("binary garbage", [0x00, 0x01, 0x02, 0x09, 0xFF], nil),
        ("SQLite name, wrong case", Array("sqlite format 3\0".utf8), nil),
        ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], nil),
    ]

    @Test(arguments: sniffing)
    func sniffs(label: String, bytes: [UInt8], format: CookieFileFormat?) {
        #expect(CookieFileFormat(sniffing: bytes) == format, "\(label)")
    }

    private static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func readsEveryFormatFromDisk() throws {
        let sources: [(CookieFileFormat, [UInt8])] = [
            (.cookiesTxt, Array(CookiesTxtTests.curlFile.utf8)),
            (.json, Array(CookieJSON.serialize(CookieFileSamples.cookies).utf8)),
            (.binaryCookies, BinaryCookiesTests.handWritten),
        ]
        for (format, bytes) in sources {
            let path = try Self.temporaryFile(bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let contents = try CookieImportFile.read(path: path, now: testEpoch)
            #expect(contents.format == format)
            #expect(try contents.cookies == CookieImportFile.parse(bytes, now: testEpoch).cookies)
            #expect(!contents.cookies.isEmpty)
            // Reading never changes the file.
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        }
    }

    @Test func errorsNameTheFile() throws {
        let cases: [([UInt8], CookieFileError.Code)] = [
            (Array("SQLite format 3\0".utf8), .notADatabase),
            (Array("hello world".utf8), .unknownFormat),
            (Array("# Netscape HTTP Cookie File\nbad line\n".utf8), .fieldCount),
        ]
        for (bytes, code) in cases {
            let path = try Self.temporaryFile(bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let error = #expect(throws: CookieFileError.self) { try CookieImportFile.read(path: path, now: testEpoch) }
            #expect(error?.code == code)
            #expect(error?.path == path)
            #expect(error?.description.hasPrefix(path) == true)
        }
    }

    @Test func lenientSkipsNameTheFile() throws {
        let path = try Self.temporaryFile(Array("# Netscape HTTP Cookie File\nbad line\na.example\tFALSE\t/\tFALSE\t0\ta\tb\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let contents = try CookieImportFile.read(path: path, now: testEpoch, lenient: true)
        #expect(contents.cookies.count == 1)
        #expect(contents.skipped.map(\.path) == [path])
        #expect(contents.skipped.map(\.line) == [2])
    }

    @Test(arguments: ["/nonexistent/cookies.txt", FileManager.default.temporaryDirectory.path])
    func unreadablePath(path: String) {
        let error = #expect(throws: CookieFileError.self) { try CookieImportFile.read(path: path, now: testEpoch) }
        #expect(error?.code == .io)
        #expect(error?.description.hasPrefix(path + ": cannot read the file: ") == true)
    }

    /// Export from a jar and import into another: session cookies travel (JSON marks them, cookies.txt
    /// writes expiry 0), expired ones are dropped on insert, and the Cookie header is the same.
    @Test func jarExportAndImport() throws {
        let (jar, clock) = makeTestJar()
        let site = url("https://www.example.com/app/page")
        for line in ["sid=1; Secure; HttpOnly; Max-Age=3600", "theme=dark; Path=/app", "lang=en; Domain=example.com",
                     "short=1; Max-Age=60"] {
            _ = jar.setCookie(line, from: site)
        }
        let exported = jar.allCookies()
        let json = CookieJSON.serialize(exported)
        let txt = try CookiesTxt.serialize(exported).text
        #expect(json.contains("\"name\": \"theme\"") && !json.contains("\"expires\": null"))
        #expect(txt.contains("\t/app\tFALSE\t0\ttheme\tdark\n"))

        clock.advance(seconds: 120)  // "short" has expired by the time the files are imported
        for text in [json, txt] {
            let (copy, copyClock) = makeTestJar()
            copyClock.set(clock.now())
            let cookies = try CookieImportFile.parse(Array(text.utf8), now: clock.now()).cookies
            #expect(cookies.count == 4)
            #expect(copy.insert(contentsOf: cookies).stored == 3)
            #expect(copy.count == 3)
            #expect(copy.cookieHeader(for: site) == jar.cookieHeader(for: site))
        }
    }
}

/// `CookieImportFile.read` on SQLite files: our jar read whole without writing, Firefox's database, and others.
struct CookieFileDatabaseTests {
    let directory = TemporaryDirectory()

    @Test func jarFileIsReadWholeWithoutWriting() throws {
        let path = directory.file("jar.sqlite")
        var options = testFileOptions()
        options.persistsSessionCookies = true
        let clock = ManualCookieClock(testEpoch)
        let jar = try openTestJar(path, options: options, clock: clock)
        jar.setCookie("persistent=1; Max-Age=600", from: url("https://a.test/"))
        jar.setCookie("session=1", from: url("https://a.test/"))
        jar.setCookie("short=1; Max-Age=5", from: url("https://b.test/"))
        try jar.close()
        let before = fileBytes(path)
        let contents = try CookieImportFile.read(path: path, now: testEpoch.adding(seconds: 60))
        #expect(contents.format == .sqlite)
        #expect(Set(contents.cookies.map(\.name)) == ["persistent", "session", "short"], "expired and session rows too")
        #expect(Set(contents.cookies) == Set(jar.allCookies()))
        #expect(fileBytes(path) == before, "reading never writes")
    }

    /// Every row is read, whatever its expiry: the earliest an INTEGER column holds (-2^63 µs, which no
    /// instant is before) too, which a filter "expired after the earliest instant" left out without a word.
    @Test(arguments: [Int64.min, Int64.min + 1, -1, 0])
    func jarFileRowsOfAnyExpiryAreRead(expiry: Int64) throws {
        let path = directory.file("jar.sqlite")
        let jar = try openTestJar(path)
        jar.setCookie("a=1; Max-Age=600", from: url("https://a.test/"))
        jar.setCookie("b=1; Max-Age=600", from: url("https://a.test/"))
        try jar.close()
        try runSQL("UPDATE cookies SET expiry = \(expiry) WHERE name = 'a'", on: path)
        let contents = try CookieImportFile.read(path: path, now: testEpoch)
        #expect(contents.cookies.map(\.name).sorted() == ["a", "b"])
        #expect(contents.cookies.first { $0.name == "a" }?.expiry == CookieTime(microsecondsSinceEpoch: expiry))
    }

    @Test func firefoxDatabaseIsRecognised() throws {
        let path = directory.file("cookies.sqlite")
        try runSQL(
            """
            CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '', name TEXT,
                value TEXT, host TEXT, path TEXT, expiry INTEGER, lastAccessed INTEGER, creationTime INTEGER,
                isSecure INTEGER, isHttpOnly INTEGER, inBrowserElement INTEGER DEFAULT 0, sameSite INTEGER DEFAULT 0,
                rawSameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0);
            INSERT INTO moz_cookies (name, value, host, path, expiry, lastAccessed, creationTime, isSecure, isHttpOnly, sameSite)
                VALUES ('a', '1', '.example.com', '/', 1900000000, 1735689600000000, 1735689600000000, 1, 0, 1);
            PRAGMA user_version = 14;
            """, on: path)
        let contents = try CookieImportFile.read(path: path, now: testEpoch)
        #expect(contents.format == .firefox)
        #expect(contents.cookies.map(\.domain) == ["example.com"])
    }

    @Test func otherDatabasesAreForeign() throws {
        let path = directory.file("notes.sqlite")
        try runSQL("CREATE TABLE notes (body TEXT);", on: path)
        let before = fileBytes(path)
        #expect {
            try CookieImportFile.read(path: path, now: testEpoch)
        } throws: { error in
            let error = error as! CookieFileError
            return error.code == .foreign && error.description.hasPrefix(path + ": an SQLite database, but neither")
        }
        #expect(fileBytes(path) == before)
    }
}
