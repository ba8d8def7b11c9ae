import Foundation
import TestSupport
import Testing

@testable import Cookies

/// `cookiejar import` of Firefox databases the test writes, run as a sub-process: the schemas before the
/// `sameSite` column, the rows Firefox partitions without the CHIPS attribute, partitions this jar has
/// none of, and rows named in errors. Facts: Firefox's netwerk/cookie/CookiePersistentStorage.cpp (the
/// schema upgrades: `sameSite` from 9, `isPartitionedAttributeSet` from 13) and caps/OriginAttributes.cpp
/// (`ParsePartitionKey`: `(scheme,host[,port][,f])`).
struct FirefoxImportTests {
    let directory = TemporaryDirectory()

    static let columns = """
        id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '', name TEXT, value TEXT, host TEXT, path TEXT,
        expiry INTEGER, lastAccessed INTEGER, creationTime INTEGER, isSecure INTEGER, isHttpOnly INTEGER,
        inBrowserElement INTEGER DEFAULT 0
        """

    /// A row of schema 16 (expiry in milliseconds): id, origin attributes, name, host, Secure, the
    /// Partitioned attribute.
    static func row(_ id: Int, _ attributes: String, _ name: String, _ host: String, secure: Int, partitioned: Int) -> String {
        "(\(id), '\(attributes)', '\(name)', '1', '\(host)', '/', 1893456000000, 1735689600000000, 1735689600000000, \(secure), 0, 256, 2, \(partitioned))"
    }

    static let schema16 = """
        PRAGMA user_version = 16;
        CREATE TABLE moz_cookies (\(columns), sameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0,
            isPartitionedAttributeSet INTEGER DEFAULT 0);
        INSERT INTO moz_cookies (id, originAttributes, name, value, host, path, expiry, lastAccessed, creationTime,
            isSecure, isHttpOnly, sameSite, schemeMap, isPartitionedAttributeSet) VALUES
        """

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var sql: String
        var arguments: [String] = []
        /// The first line of the report on stdout.
        var imported: String
        /// Stderr, `$DB` for the database's path.
        var stderr: String
    }

    static let tcp = FirefoxCookies.LeftOutReason.partitionedWithoutAttribute.description

    static let cases: [Case] = [
        Case(
            testDescription: "schema 8, before the sameSite column (Firefox's upgrade to 9 adds it): read as unset",
            sql: """
                PRAGMA user_version = 8;
                CREATE TABLE moz_cookies (\(columns), baseDomain TEXT);
                INSERT INTO moz_cookies (originAttributes, name, value, host, path, expiry, lastAccessed, creationTime,
                    isSecure, isHttpOnly, baseDomain) VALUES
                  ('', 'a', '1', '.example.com', '/', 1893456000, 1735689600000000, 1735689600000000, 0, 0, 'example.com');
                """,
            imported: "imported 1 of 1 cookies", stderr: ""),
        Case(
            testDescription: "a cookie Firefox partitioned without the Partitioned attribute (Total Cookie Protection): left out, said",
            sql: schema16 + [
                row(1, "^partitionKey=%28https%2Ctop.example%29", "tcp", "embed.example", secure: 0, partitioned: 0),
                row(2, "^partitionKey=%28https%2Ctop.example%29", "chips", "embed.example", secure: 1, partitioned: 1),
            ].joined(separator: ",") + ";",
            imported: "imported 1 of 1 cookies", stderr: "cookiejar: $DB: 1 cookie left out, \(tcp)\n"),
        Case(
            testDescription: "partitions with a port or a cross-site ancestor: left out, not collapsed into the site's",
            sql: schema16 + [
                row(1, "^partitionKey=%28https%2Ctop.example%29", "chip", "embed.example", secure: 1, partitioned: 1),
                row(2, "^partitionKey=%28https%2Ctop.example%2Cf%29", "chip", "embed.example", secure: 1, partitioned: 1),
                row(3, "^partitionKey=%28https%2Ctop.example%2C8443%29", "chip", "embed.example", secure: 1, partitioned: 1),
            ].joined(separator: ",") + ";",
            imported: "imported 1 of 1 cookies",
            stderr: "cookiejar: $DB: 1 cookie left out, \(FirefoxCookies.LeftOutReason.partitionWithPort)\n"
                + "cookiejar: $DB: 1 cookie left out, \(FirefoxCookies.LeftOutReason.partitionWithCrossSiteAncestor)\n"),
        Case(
            testDescription: "a bad row after one left out is named by its id, host and name",
            sql: schema16 + [
                row(1, "", "good", "example.com", secure: 0, partitioned: 0),
                row(2, "^userContextId=1", "container", "example.com", secure: 0, partitioned: 0),
                row(3, "", "bad;name", "example.com", secure: 0, partitioned: 0),
            ].joined(separator: ",") + ";",
            arguments: ["--lenient"], imported: "imported 1 of 1 cookies",
            stderr: "cookiejar: $DB: 1 cookie left out, of a Firefox container (originAttributes userContextId)\n"
                + "cookiejar: skipped: $DB: moz_cookies row id 3 (host example.com, name bad;name): the name holds \";\" or \"=\", or the value or an attribute \";\", where a Set-Cookie line ends them\n"),
    ]

    @Test(arguments: cases)
    func importsTheRowsOfTheDefaultJarItCanKeep(_ row: Case) throws {
        let database = directory.file("cookies.sqlite")
        try SQLiteConnection(path: database, flags: [.readWrite, .create]).execute(row.sql)
        let jar = directory.file("jar.sqlite")
        let run = try Tool.run(["import", database, "--into", jar, "--at", InspectTests.at] + row.arguments)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix(row.imported), "\(run.stdout)")
        #expect(run.stderr == row.stderr.replacingOccurrences(of: "$DB", with: database))
    }
}
