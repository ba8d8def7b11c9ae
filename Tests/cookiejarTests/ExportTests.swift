import Foundation
import TestSupport
import Testing

/// `cookiejar export --format cookies.txt` with partitioned cookies, run as a sub-process. cookies.txt has
/// no field for a partition key (curl's 7 fields): a partitioned cookie written as an ordinary line is read
/// back unpartitioned, sent under every top-level site (what CHIPS partitions prevent,
/// draft-cutler-httpbis-partitioned-cookies §2.1), and it replaces the unpartitioned cookie of its name,
/// domain and path (§5.7 step 23). Export leaves such cookies out and says so on stderr, exit 0 as for
/// the SameSite warning (this project's contract).
struct ExportTests {
    let directory = TemporaryDirectory()

    /// A swift-cookiejar JSON cookie of embed.example named `name`, partitioned under `partition`.
    static func cookie(_ name: String, _ value: String, partition: String?) -> String {
        """
        {"name": "\(name)", "value": "\(value)", "domain": "embed.example", "hostOnly": true, "path": "/",
         "expires": "2030-01-01T00:00:00.000000Z", "creation": "2025-01-01T00:00:00.000000Z", "secure": true,
         "sameSite": "Default", "sourceSecure": true, "partitionKey": \(partition.map { "\"\($0)\"" } ?? "null")}
        """
    }

    static let leftOutLine = "partitioned (CHIPS): cookies.txt holds no partition, and read back each would be sent under every top-level site"

    static let cases: [(cookies: [String], stderr: String, values: [String], source: String)] = [
        ([cookie("sid", "FIRSTPARTY", partition: nil), cookie("sid", "THIRDPARTY", partition: "https://top.example")],
         "cookiejar: 1 cookie left out, \(leftOutLine) (--format json keeps it)\n", ["FIRSTPARTY"],
         "a first-party sid and a partitioned sid: the first-party one is written, and stays so when read back"),
        ([cookie("a", "1", partition: "https://top.example"), cookie("b", "2", partition: "https://other.example")],
         "cookiejar: 2 cookies left out, \(leftOutLine) (--format json keeps them)\n", [], "two partitioned cookies"),
        ([cookie("sid", "FIRSTPARTY", partition: nil)], "", ["FIRSTPARTY"], "no partitioned cookie: nothing said"),
    ]

    @Test(arguments: cases.indices)
    func partitionedCookiesAreLeftOutOfCookiesTxtAndSaid(_ index: Int) throws {
        let row = Self.cases[index]
        let source = directory.file("jar.json")
        try "{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": [\(row.cookies.joined(separator: ","))]}"
            .write(toFile: source, atomically: true, encoding: .utf8)
        let exported = try Tool.run(["export", source, "--format", "cookies.txt", "--at", InspectTests.at])
        #expect(exported.status == 0, "\(row.source)")
        #expect(exported.stderr == row.stderr, "\(row.source)")
        // Read back into a jar, the file gives the unpartitioned cookies only.
        let text = directory.file("cookies.txt")
        try exported.stdout.write(toFile: text, atomically: true, encoding: .utf8)
        let jar = directory.file("jar.sqlite")
        #expect(try Tool.run(["import", text, "--into", jar, "--at", InspectTests.at]).status == 0)
        let json = try Tool.run(["export", jar, "--format", "json", "--at", InspectTests.at]).stdout
        let values = ["FIRSTPARTY", "THIRDPARTY", "1", "2"].filter { json.contains("\"value\": \"\($0)\"") }
        #expect(values == row.values, "\(row.source)")
    }

    /// A cookie of a.test as swift-cookiejar JSON, expiring at `expires`, set at `creation`.
    static func aTestCookie(_ name: String, _ value: String, expires: String, creation: String) -> String {
        """
        {"name": "\(name)", "value": "\(value)", "domain": "a.test", "hostOnly": true, "path": "/", "expires": "\(expires)",
         "creation": "\(creation)", "secure": true, "sameSite": "Default", "sourceSecure": true}
        """
    }

    static let live = aTestCookie("first", "1", expires: "2030-01-01T00:00:00.000000Z", creation: "2026-01-02T00:00:00.000000Z")
    static let tabbed = aTestCookie("tabbed", "a\\tb", expires: "2030-01-01T00:00:00.000000Z", creation: "2026-01-01T00:00:00.000000Z")
    static let expired = aTestCookie("old", "1", expires: "2020-01-01T00:00:00.000000Z", creation: "2019-01-01T00:00:00.000000Z")

    /// What export leaves out or cannot write is said on stderr: expired cookies, counted with the instant
    /// they expired by and --at, where they were left out without a word (this project's contract: nothing
    /// is dropped without telling why); a cookie cookies.txt cannot hold, named by name, domain and path,
    /// where the message held the library's "<input>" placeholder and "cookie 1 of 2", an index in the
    /// export's order that is not the file's.
    static let saidOnStderr: [(cookies: [String], format: String, status: Int32, stderr: String, source: String)] = [
        ([live, expired, expired.replacingOccurrences(of: "\"old\"", with: "\"older\"")], "json", 0,
         "cookiejar: 2 cookies left out, expired by 2026-11-21 10:00:00 UTC (--at evaluates at another instant)\n",
         "two expired cookies"),
        ([live], "json", 0, "", "none expired: nothing said"),
        ([live, tabbed, expired], "cookies.txt", 1,
         "cookiejar: 1 cookie left out, expired by 2026-11-21 10:00:00 UTC (--at evaluates at another instant)\n"
            + "cookiejar: JAR: the cookie \"tabbed\" of domain \"a.test\", path \"/\", has a TAB, CR or LF, which cookies.txt cannot hold; export as JSON\n",
         "a value with a TAB in cookies.txt"),
    ]

    @Test(arguments: saidOnStderr.indices)
    func whatExportLeavesOutOrCannotWriteIsSaid(_ index: Int) throws {
        let row = Self.saidOnStderr[index]
        let source = directory.file("jar.json")
        try "{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": [\(row.cookies.joined(separator: ","))]}"
            .write(toFile: source, atomically: true, encoding: .utf8)
        let run = try Tool.run(["export", source, "--format", row.format, "--at", InspectTests.at])
        #expect(run.status == row.status, "\(row.source)")
        #expect(run.stderr == row.stderr.replacingOccurrences(of: "JAR", with: source), "\(row.source)")
    }
}
