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
}
