import Foundation
import TestSupport
import Testing

@testable import Cookies

/// Opening a file an earlier version wrote migrates it (issue 4, "The store").
@Suite struct CookieDatabaseMigrationTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// A copy of Fixtures/jar-schema-v1.sqlite, made by Fixtures/jar-schema-v1.sql.
    func copyFixture() throws {
        let fixture = try #require(
            Bundle.module.path(forResource: "jar-schema-v1", ofType: "sqlite", inDirectory: "Fixtures"))
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
    }

    /// The rows of jar-schema-v1.sql, as version 2 keeps them: the leading dot becomes the
    /// host-only-flag, seconds become microseconds, SameSite text becomes the flag; the expired row
    /// is dropped.
    @Test func version1FileIsMigratedToTheCurrentSchema() throws {
        try copyFixture()
        let expiry = CookieTime(secondsSinceEpoch: Int64(1_767_225_600))
        let expected: Set<Cookie> = [
            Cookie(
                name: "sid", value: "abc", domain: "example.com", isHostOnly: false, path: "/", expiry: expiry,
                creation: CookieTime(microsecondsSinceEpoch: 1_735_689_600_000_000),
                lastAccess: CookieTime(microsecondsSinceEpoch: 1_735_689_700_000_000), isSecure: true, isHTTPOnly: true,
                sameSite: .strict, isSourceSecure: true),
            Cookie(
                name: "theme", value: "dark", domain: "www.example.org", isHostOnly: true, path: "/app", expiry: expiry,
                creation: CookieTime(microsecondsSinceEpoch: 1_735_689_600_000_001), sameSite: .default),
            Cookie(
                name: "track", value: "x", domain: "example.net", isHostOnly: false, path: "/", expiry: expiry,
                creation: CookieTime(microsecondsSinceEpoch: 1_735_689_600_000_002), isSecure: true, sameSite: .none,
                isSourceSecure: true),
        ]
        let jar = try openTestJar(path)
        #expect(Set(jar.allCookies()) == expected)
        try jar.close()

        let connection = try SQLiteConnection(path: path, flags: .readOnly)
        #expect(try connection.integer("PRAGMA user_version") == CookieDatabaseSchema.version)
        #expect(try connection.integer("SELECT count(*) FROM cookies") == 3)
        #expect(Set(try openTestJar(path).allCookies()) == expected)
    }

    /// Reading a version 1 file for a tool (`cookiejar inspect`, `export`) migrates a copy in memory: every
    /// row, the expired one too, as version 2 keeps it, and the file stays as it was, with nothing beside it.
    @Test func version1FileIsReadWithoutMigratingIt() throws {
        try copyFixture()
        let before = fileBytes(path)
        let cookies = try CookieDatabase.snapshot(path)
        #expect(cookies.map(\.name) == ["sid", "theme", "track", "old"])
        let old = try #require(cookies.last)
        #expect(old.domain == "example.com" && old.isHostOnly && old.sameSite == .lax)
        #expect(old.expiry == CookieTime(secondsSinceEpoch: Int64(1_700_000_000)))
        #expect(cookies.first { $0.name == "track" }?.isHostOnly == false)
        #expect(fileBytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cookies.sqlite"])
    }

    /// A migration that fails (here: a SameSite text version 1 never wrote) changes nothing.
    @Test func failedMigrationLeavesTheFileAsItWas() throws {
        try copyFixture()
        try runSQL("UPDATE cookies SET same_site = 'Sometimes' WHERE id = 2;", on: path)
        let before = fileBytes(path)
        #expect {
            try openTestJar(path)
        } throws: { error in
            (error as! CookieFileError).description.contains("cannot migrate the jar file from schema 1")
        }
        #expect(fileBytes(path) == before)
    }

    /// A row that is no cookie (a value that is not UTF-8: a two-byte sequence cut short, Unicode 16.0
    /// §3.9 D92) is found in a copy migrated in memory, before the file is migrated: the file stays a
    /// version 1 file, byte for byte, for a version that reads it to be given.
    @Test func aRowThatIsNoCookieIsFoundBeforeTheFileIsMigrated() throws {
        try copyFixture()
        try runSQL("UPDATE cookies SET value = CAST(x'3176C3' AS TEXT) WHERE name = 'sid';", on: path)
        let before = fileBytes(path)
        #expect {
            try openTestJar(path)
        } throws: { ($0 as? CookieFileError)?.code == .corrupt }
        #expect(fileBytes(path) == before)
    }

    /// A version 1 row that the current schema's constraints refuse (a SameSite text no version wrote,
    /// a flag that is neither 0 nor 1) is corruption, found in the copy migrated in memory: the file is left
    /// as it was, and `.moveAside` applies to it as to any corrupt file.
    @Test(arguments: ["same_site = 'sometimes'", "secure = 5"])
    func aRowTheCurrentSchemaRefusesIsCorruption(damage: String) throws {
        try copyFixture()
        try runSQL("UPDATE cookies SET \(damage) WHERE name = 'sid';", on: path)
        let before = fileBytes(path)
        #expect {
            try openTestJar(path)
        } throws: { error in
            let error = error as! CookieFileError
            return error.code == .corrupt && error.description.contains("cannot migrate the jar file from schema 1: a row is not a valid cookie")
        }
        #expect(fileBytes(path) == before)
    }

    /// Two processes opening a version 1 file at once both read version 1; the one that takes the write
    /// lock second finds the file migrated by the first, and migrates nothing (running version 1's
    /// migration on a version 2 file failed: "no such column: host").
    @Test func aFileAnotherProcessMigratedMeanwhileIsLeftAsItIs() throws {
        try copyFixture()
        let late = try SQLiteConnection(path: path, flags: .readWrite)
        try openTestJar(path).close()
        try CookieDatabase.migrate(late, from: 1, path: path)
        #expect(try late.integer("PRAGMA user_version") == CookieDatabaseSchema.version)
        #expect(try late.integer("SELECT count(*) FROM cookies") == 3)
    }
}
