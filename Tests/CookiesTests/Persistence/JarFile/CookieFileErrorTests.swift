import Foundation
import TestSupport
import Testing

@testable import Cookies

/// Files a jar cannot read, and files it cannot write (issue 4, "Nothing lost, nothing corrupted").
@Suite struct CookieFileErrorTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// A jar file of 50 cookies, closed.
    func writeValidJar() throws {
        let jar = try openTestJar(path)
        for index in 0..<50 {
            jar.setCookie("c\(index)=\(String(repeating: "v", count: 200)); Max-Age=3600", from: url("https://example.com/"))
        }
        try jar.close()
    }

    /// What the file holds before the open, and the error the open must give. Made by hand here:
    /// text, a truncated SQLite file, another application's database, a newer schema.
    enum Damage: String, CaseIterable {
        case text, emptyHeader, truncatedHeader, truncatedPages, foreign, foreignInWALMode, newerSchema, invalidRow

        var expected: CookieFileError.Code {
            switch self {
            case .text, .emptyHeader: .notADatabase
            // SQLite reads a header cut short as a malformed database, not as a foreign file.
            case .truncatedHeader, .truncatedPages, .invalidRow: .corrupt
            case .foreign, .foreignInWALMode: .foreign
            case .newerSchema: .newerSchema
            }
        }
    }

    func damage(_ damage: Damage) throws {
        switch damage {
        case .text:
            try Data("# Netscape HTTP Cookie File\n".utf8).write(to: URL(fileURLWithPath: path))
        case .emptyHeader:
            try Data(repeating: 0, count: 4096).write(to: URL(fileURLWithPath: path))
        case .truncatedHeader:
            try writeValidJar()
            try fileBytes(path)!.prefix(60).write(to: URL(fileURLWithPath: path))
        case .truncatedPages:
            try writeValidJar()
            let bytes = fileBytes(path)!
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        case .foreign:
            try runSQL("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello');", on: path)
        case .foreignInWALMode:
            // Opened read-write, such a database gets a -wal and a -shm file beside it.
            try runSQL("PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello');", on: path)
        case .newerSchema:
            try writeValidJar()
            try runSQL("PRAGMA user_version = 99;", on: path)
        case .invalidRow:
            try writeValidJar()
            try runSQL("PRAGMA ignore_check_constraints = ON; UPDATE cookies SET same_site = 7 WHERE name = 'c3';", on: path)
        }
    }

    /// How a test opens a file: as a jar (`CookieJar(contentsOf:)`, which writes once the file is known to be
    /// a jar), or reading it without writing (`CookieDatabase.snapshot`, how `CookieImportFile.read` and so
    /// `cookiejar inspect` read a jar file).
    enum Opening: CaseIterable {
        case asJar, reading
    }

    /// The names in the test's directory.
    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// Each damaged file gives a clear error naming the file, and is left byte for byte as it was, with
    /// nothing made beside it: the directory holds what it held before (SQLite's `-wal` and `-shm`, which
    /// a connection makes for a file in WAL mode, are gone with it).
    @Test(arguments: Damage.allCases, Opening.allCases)
    func unreadableFileThrowsAndIsLeftUntouched(_ kind: Damage, _ opening: Opening) throws {
        try damage(kind)
        let before = fileBytes(path)
        let entriesBefore = try entries()
        #expect {
            switch opening {
            case .asJar: _ = try openTestJar(path)
            case .reading: _ = try CookieDatabase.snapshot(path)
            }
        } throws: { error in
            let error = error as! CookieFileError
            // Read immutable, a header cut short before its application id reads as another application's
            // database (application_id 0).
            let expected = opening == .reading && kind == .truncatedHeader ? .foreign : kind.expected
            return error.code == expected && error.path == path && error.description.hasPrefix(path + ": ")
        }
        #expect(fileBytes(path) == before)
        #expect(try entries() == entriesBefore)
    }

    /// A damaged file that another connection has open keeps the `-wal` and `-shm` it found: they are that
    /// connection's (its WAL and the index of it it shares with every other), and it goes on using them.
    @Test(arguments: [Damage.foreignInWALMode, .newerSchema, .invalidRow])
    func unreadableFileInUseKeepsItsCompanions(_ kind: Damage) throws {
        try damage(kind)
        let user = try SQLiteConnection(path: path, flags: .readWrite)
        let objects = try user.integer("SELECT count(*) FROM sqlite_master")
        let entriesBefore = try entries()
        #expect(entriesBefore.contains("cookies.sqlite-wal") && entriesBefore.contains("cookies.sqlite-shm"))
        #expect(throws: CookieFileError.self) { try openTestJar(path) }
        #expect(try entries() == entriesBefore)
        #expect(try user.integer("SELECT count(*) FROM sqlite_master") == objects)
    }

    /// A row whose column has a type or value the schema forbids (written past its CHECKs, or by hand)
    /// is corruption naming the row and the column, whichever it is; the file is left untouched. SQLite keeps a
    /// blob as it is in any column, and a real or text that is not an integer in an INTEGER column, but
    /// makes text of a number put in a TEXT column (https://sqlite.org/datatype3.html, "Type Affinity").
    @Test(arguments: [
        "name = x'41'", "value = x'31'", "domain = x''", "host_only = 'yes'", "path = x'2F'", "partition_key = x'68'",
        "expiry = 'soon'", "creation = 'now'", "last_access = 'later'", "secure = 0.5", "http_only = x'01'",
        "same_site = -1", "source_secure = 'no'", "source_port = 'http'", "source_port = 65536", "source_port = -1",
        "host_only = 2", "secure = -1", "http_only = 7", "source_secure = 2",
    ])
    func invalidColumnIsCorruptionNamingTheRow(damage: String) throws {
        try writeValidJar()
        let row = try #require(try SQLiteConnection(path: path, flags: .readOnly).integer("SELECT id FROM cookies WHERE name = 'c7'"))
        try runSQL("PRAGMA ignore_check_constraints = ON; UPDATE cookies SET \(damage) WHERE id = \(row);", on: path)
        let before = fileBytes(path)
        #expect {
            try openTestJar(path)
        } throws: { error in
            let column = damage.prefix { $0 != " " }
            return (error as? CookieFileError)?.description
                .hasPrefix("\(path): row \(row) of table cookies is not a valid cookie: its \(column) column ") == true
        }
        #expect(fileBytes(path) == before)
    }

    /// A row holding a cookie no jar may hold (one `CookieJar.insert` refuses, which a jar of an earlier
    /// version may have written) is no corruption: a jar opening the file loads the other rows, lists the
    /// cookie in `cookiesNotLoaded` with why, never sends it, and leaves the row as it is; a tool reading
    /// the file (`snapshot`) gets it with the others, to say why a jar refuses it (`cookiejar inspect`).
    @Test(arguments: [
        ("value = 'v' || char(13, 10) || 'X-Injected: 1'", CookieRejection.controlCharacter,
         "§5.6 step 1: a CR LF, which a Cookie header would carry as a header field of its own"),
        ("name = CAST(x'630037' AS TEXT)", .controlCharacter, "§5.6 step 1: a NUL"),
        ("value = 'v;w=x'", .separatorCharacter, "§5.6 step 2: the pair ends at \";\""),
        ("name = 'c7=x'", .separatorCharacter, "§5.6 step 3: the name ends at \"=\""),
        ("value = hex(zeroblob(2048))", .nameAndValueTooLong, "§5.6 step 5: over 4,096 octets"),
        ("path = 'x'", .relativePath, "§5.7 step 11: a cookie-path starts with \"/\""),
        ("domain = 'example.com' || char(1)", .controlCharacter, "§5.1.2: no host holds a control character"),
        ("partition_key = 'https://example.com' || char(10)", .controlCharacter, "§5.6 step 1"),
    ])
    func rowNoJarMayHoldIsNotLoadedAndLeftInTheFile(damage: String, rejection: CookieRejection, source: String) throws {
        try writeValidJar()
        let row = try #require(try SQLiteConnection(path: path, flags: .readOnly).integer("SELECT id FROM cookies WHERE name = 'c7'"))
        try runSQL("UPDATE cookies SET \(damage) WHERE id = \(row);", on: path)
        func rowBytes() throws -> String? {
            let select = try SQLiteConnection(path: path, flags: .readOnly).prepare(
                "SELECT hex(name) || hex(value) || hex(domain) || hex(path) || hex(partition_key) FROM cookies WHERE id = \(row)")
            return try select.step() ? select.column(0).text.map { String(decoding: $0, as: UTF8.self) } : nil
        }
        let damaged = try rowBytes()

        let jar = try openTestJar(path)
        #expect(jar.count == 49)
        #expect(jar.cookiesNotLoaded.map(\.rejection) == [rejection])
        let header = try #require(jar.cookieHeader(for: url("https://example.com/")))
        #expect(header.split(separator: "; ").count == 49 && !header.contains("X-Injected") && !header.contains("c7"))
        jar.setCookie("c8=changed; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()
        #expect(try rowBytes() == damaged)

        let notLoaded = try #require(jar.cookiesNotLoaded.first)
        let snapshot = try CookieDatabase.snapshot(path)
        #expect(snapshot.count == 50 && snapshot.contains { CookieIdentity($0) == notLoaded.identity })
        #expect(snapshot.first { CookieIdentity($0) == notLoaded.identity }?.insertionRejection == rejection)
    }

    /// A text column whose bytes are not well-formed UTF-8 (Unicode 16.0 §3.9, D92 and Table 3-7) holds
    /// what no jar wrote (a jar writes Strings, whose UTF-8 always is): it is corruption naming the row
    /// and the column, both when a jar opens the file and when a tool reads it (`snapshot`), and the file
    /// is left untouched, where reading it as a String would change the cookie (U+FFFD for each
    /// ill-formed sequence) and the next write would store it changed (this project's contract). The
    /// bytes are cast to TEXT: a blob is corruption already, as a column of the wrong type.
    @Test(arguments: [
        ("name", "63FF", "a byte that begins no sequence (0xFF)"),
        ("value", "3176C3", "a two-byte sequence cut short"),
        ("domain", "6578616D706C65C0AE636F6D", "an overlong encoding of \".\" (C0 AE)"),
        ("path", "2FEDA080", "an encoded surrogate (U+D800)"),
        ("partition_key", "68747470733A2F2FF4908080", "a code point above U+10FFFF (F4 90 80 80)"),
    ])
    func textNotUTF8IsCorruptionNamingTheRowAndColumn(column: String, hexBytes: String, source: String) throws {
        try writeValidJar()
        let row = try #require(try SQLiteConnection(path: path, flags: .readOnly).integer("SELECT id FROM cookies WHERE name = 'c7'"))
        try runSQL("UPDATE cookies SET \(column) = CAST(x'\(hexBytes)' AS TEXT) WHERE id = \(row);", on: path)
        let before = fileBytes(path)
        let expected = "\(path): row \(row) of table cookies is not a valid cookie: its \(column) column is not valid UTF-8"
        #expect("\(source)") {
            try openTestJar(path)
        } throws: { error in
            (error as? CookieFileError).map { $0.code == .corrupt && $0.description == expected } == true
        }
        #expect("\(source)") {
            try CookieDatabase.snapshot(path)
        } throws: { error in
            (error as? CookieFileError)?.description == expected
        }
        #expect(fileBytes(path) == before, "\(source)")
    }

    /// Well-formed UTF-8 that is not ASCII (a four-byte emoji, "é" in a path) is text a jar writes: it
    /// loads byte for byte.
    @Test func wellFormedNonASCIITextLoadsAsItIs() throws {
        try writeValidJar()
        let (value, path) = ("caf\u{E9} \u{1F36A}", "/\u{E9}t\u{E9}")
        try runSQL("UPDATE cookies SET value = '\(value)', path = '\(path)' WHERE name = 'c7';", on: self.path)
        let cookie = try #require(try openTestJar(self.path).allCookies().first { $0.name == "c7" })
        #expect(Array(cookie.value.utf8) == Array(value.utf8) && Array(cookie.path.utf8) == Array(path.utf8))
    }

    /// `.moveAside` renames a damaged file (never deleting it) and starts an empty jar.
    @Test(arguments: Damage.allCases.filter { ![.foreign, .foreignInWALMode, .newerSchema].contains($0) })
    func moveAsideKeepsTheUnreadableFileAndStartsFresh(_ kind: Damage) throws {
        try damage(kind)
        let before = fileBytes(path)
        var options = testFileOptions()
        options.unreadableFile = .moveAside
        let jar = try openTestJar(path, options: options)
        #expect(jar.count == 0)
        let aside = "\(path).corrupt-\(testEpoch.secondsSinceEpoch)"
        #expect(fileBytes(aside) == before)
        jar.setCookie("fresh=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()
        #expect(try openTestJar(path).allCookies().map(\.name) == ["fresh"])
    }

    /// A name taken by anything, even a symbolic link to nothing (which `access` does not see), is not
    /// replaced: the file goes to the next name. The file is given its new name by `link`, which fails on
    /// any existing name, where a check followed by `rename` would replace a name taken in between.
    @Test func moveAsideReplacesNoExistingName() throws {
        try damage(.text)
        let before = fileBytes(path)
        let taken = "\(path).corrupt-\(testEpoch.secondsSinceEpoch)"
        try FileManager.default.createSymbolicLink(atPath: taken, withDestinationPath: "\(path).nowhere")
        var options = testFileOptions()
        options.unreadableFile = .moveAside
        #expect(try openTestJar(path, options: options).count == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: taken) == "\(path).nowhere")
        #expect(fileBytes("\(taken)-2") == before)
    }

    /// Two processes find one damaged file: the first moves it aside and makes a new jar at the path; the
    /// second, moving aside only the file it found unreadable (its device and inode), leaves that new jar
    /// where it is instead of moving it in its turn (where the first would go on writing unseen).
    @Test func onlyTheFileFoundUnreadableIsMovedAside() throws {
        try damage(.text)
        let found = CookieFileSystem.jarFiles(at: path)
        var options = testFileOptions()
        options.unreadableFile = .moveAside
        let first = try openTestJar(path, options: options)
        first.setCookie("first=1; Max-Age=3600", from: url("https://example.com/"))
        try first.flush()
        #expect(try CookieFileSystem.moveAside(path, ifStill: found, seconds: testEpoch.secondsSinceEpoch) == false)
        #expect(try openTestJar(path).allCookies().map(\.name) == ["first"])
        try first.close()
        #expect(try CookieFileSystem.moveAside(path, ifStill: CookieFileSystem.jarFiles(at: path), seconds: 1) == true)
        #expect(!FileManager.default.fileExists(atPath: path) && FileManager.default.fileExists(atPath: "\(path).corrupt-1"))
    }

    /// Another application's database, even one it has open, and a jar of a newer schema are not damaged:
    /// `.moveAside` refuses them with their error as `.fail` does, and leaves the file and every file beside it
    /// byte for byte where they are (this project's contract: a foreign file is left untouched; renamed, it
    /// would be lost to the application that keeps it there, and its open connection would go on writing to a
    /// file renamed away).
    @Test(arguments: [Damage.foreign, .foreignInWALMode, .newerSchema])
    func moveAsideLeavesAHealthyFileOfAnotherInPlace(_ kind: Damage) throws {
        try damage(kind)
        // The other application has the file open (a database in WAL mode keeps its -wal and -shm meanwhile).
        let other = try SQLiteConnection(path: path, flags: .readWrite)
        _ = try other.integer("SELECT count(*) FROM sqlite_master")
        let names = try entries()
        let before = names.map { fileBytes(directory.file($0)) }
        var options = testFileOptions()
        options.unreadableFile = .moveAside
        #expect("\(kind)") {
            try openTestJar(path, options: options)
        } throws: { error in
            (error as? CookieFileError).map { $0.code == kind.expected && $0.path == path } == true
        }
        #expect(try entries() == names)
        #expect(names.map { fileBytes(directory.file($0)) } == before)
        withExtendedLifetime(other) {}
    }

    /// A full disk (SQLite's page limit standing in for it): flush() throws `.full`, the jar keeps
    /// working in memory, the file keeps its last good state, and pending changes are written once
    /// there is room again.
    @Test func fullDiskSurfacesAtFlushAndLosesNothing() throws {
        try writeValidJar()
        var options = testFileOptions()
        options.maximumPageCount = Int(try SQLiteConnection(path: path, flags: .readOnly).integer("PRAGMA page_count")!)
        let jar = try openTestJar(path, options: options)
        let big = String(repeating: "x", count: 3000)
        for index in 0..<40 { jar.setCookie("big\(index)=\(big); Max-Age=3600", from: url("https://example.org/")) }
        #expect {
            try jar.flush()
        } throws: { error in
            (error as! CookieFileError).code == .full
        }
        #expect(jar.count == 90)
        #expect(try openTestJar(path).count == 50)
        #expect(throws: CookieFileError.self) { try jar.close() }

        // Making room (here: deleting the big cookies) lets the pending changes through.
        #expect(jar.deleteCookies(forSite: "example.org") == 40)
        jar.setCookie("small=1; Max-Age=3600", from: url("https://example.org/"))
        try jar.close()
        #expect(try openTestJar(path).count == 51)
    }
}
