import Foundation
import Testing

/// `cookiejar psl`, run as a sub-process. Facts: the compiled-in list (publicsuffix/list e8c9a2b): "co.uk",
/// "github.io" (PRIVATE section), "*.kawasaki.jp" with "!city.kawasaki.jp", and the IDN rule "公司.cn".
struct PSLTests {
    @Test func hostsAgainstGolden() throws {
        let list = Tool.packageRoot.appendingPathComponent("Sources/Cookies/PublicSuffix/public_suffix_list.dat").path
        let run = try Tool.run([
            "psl", "--psl", list, "www.example.co.uk", "GitHub.io", "user.github.io", "x.kawasaki.jp",
            "city.kawasaki.jp", "食狮.公司.cn", "192.0.2.1", "[::1]", "a..b",
        ])
        #expect(run.status == 0)
        try Tool.expectGolden(run, "psl-hosts")
    }

    /// A URL stands for its host, canonicalised as a request's (this tool's contract, as `inspect --site`
    /// takes a URL); a URL without a host is neither.
    @Test(arguments: [
        ("https://API.Example.co.uk:8443/v1/me?q=1", "api.example.co.uk  co.uk          example.co.uk\n"),
        ("http://[::1]/", "[::1]  (an IP address)  (none)\n"),
    ])
    func aURLStandsForItsHost(url: String, row: String) throws {
        let list = Tool.packageRoot.appendingPathComponent("Sources/Cookies/PublicSuffix/public_suffix_list.dat").path
        let run = try Tool.run(["psl", "--psl", list, url])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").dropFirst().map { $0 + "\n" } == [Substring(row)], "\(run.stdout)")
        let hostless = try Tool.run(["psl", "--psl", list, "https:///path"])
        #expect(hostless.status == 3)
    }

    /// The default list says what it is: the compiled-in list here unless libpsl's is newer, always dated and
    /// counted. A list file says where it was read from.
    @Test func info() throws {
        let run = try Tool.run(["psl", "--info"])
        #expect(run.status == 0)
        let fields = Self.fields(run.stdout)
        #expect(["compiled-in", "libpsl"].contains(fields["list"]))
        #expect(fields["date"]?.hasSuffix(" UTC") == true)
        if fields["list"] == "compiled-in" {
            #expect(fields["rules"] == "10248")
            #expect(fields["revision"] == "publicsuffix/list@e8c9a2b2b2856b6449999dd0ec0d118f364ed0cd")
        }
        let path = "Sources/Cookies/PublicSuffix/public_suffix_list.dat"
        let fromFile = Self.fields(try Tool.run(["psl", "--info", "--psl", path]).stdout)
        #expect(fromFile["list"] == "file")
        #expect(fromFile["rules"] == "10248")
        #expect(fromFile["file"] == path)
    }

    /// The "name  value" lines of `psl --info`, by name.
    static func fields(_ output: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: output.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        })
    }

    @Test func errors() throws {
        let usage = try Tool.run(["psl"])
        #expect(usage.status == 2)
        let notAHost = try Tool.run(["psl", "example.com", "a b"])
        #expect(notAHost.status == 3)
        #expect(notAHost.stderr == "cookiejar: a b: not a host name or an http(s) URL\n")
        #expect(notAHost.stdout.contains("example.com"))
        // A list file that cannot be read is named with the system's reason (open(2), read(2)).
        for (path, reason) in [("/nonexistent.dat", "No such file or directory"), ("/tmp", "Is a directory")] {
            let unreadable = try Tool.run(["psl", "--psl", path, "example.com"])
            #expect(unreadable.status == 3)
            #expect(unreadable.stderr == "cookiejar: cannot read public suffix list file '\(path)': \(reason)\n")
        }
        // A file with a line that is no rule may be no list at all (an error page saved in its place).
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("psl-\(UUID().uuidString).dat").path
        try "com\nco.uk\n<html><body>Not Found</body></html>\n".write(toFile: page, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: page) }
        let notAList = try Tool.run(["psl", "--psl", page, "www.example.co.uk"])
        #expect(notAList.status == 3)
        #expect(notAList.stdout.isEmpty)
        #expect(notAList.stderr == "cookiejar: '\(page)' is no complete public suffix list: line 3: \"<html><body>Not\" is no public suffix rule (a domain name, or one after \"*.\" or \"!\")\n")
        // A list cut short (its PRIVATE section begun, not ended) would miss the suffixes after the cut.
        try "// ===BEGIN ICANN DOMAINS===\ncom\n// ===END ICANN DOMAINS===\n// ===BEGIN PRIVATE DOMAINS===\ngithub.io\n"
            .write(toFile: page, atomically: false, encoding: .utf8)
        let cut = try Tool.run(["psl", "--psl", page, "www.example.com"])
        #expect(cut.status == 3)
        #expect(cut.stderr == "cookiejar: '\(page)' is no complete public suffix list: its PRIVATE DOMAINS section does not end (no \"===END PRIVATE DOMAINS===\"): the file was cut short\n")
    }
}
