import Foundation
import TestSupport
import Testing

/// `cookiejar import`, run as a sub-process, against golden output.
struct ImportTests {
    let directory = TemporaryDirectory()

    /// 1,000 cookies of one site into a new jar (issue 22: the import said "imported 1000 of 1000 …; the
    /// jar file holds 163 (had 0)" and nothing of the 837 the per-site limit evicted, 180 purged to 150,
    /// Chromium's CookieMonster numbers): the tool says how many each limit evicted, from which site,
    /// and that a jar file applies these limits whatever imports into it.
    @Test func importBeyondThePerSiteLimitListsTheEvictions() throws {
        let source = directory.file("one-site.txt")
        // Netscape cookies.txt: domain, include-subdomains, path, secure, expiry, name, value.
        let lines = (0..<1_000).map { "example.com\tFALSE\t/\tFALSE\t1900000000\tc\($0)\tv\($0)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: source, atomically: true, encoding: .utf8)
        var run = try Tool.run(["import", source, "--into", directory.file("new-jar.sqlite"), "--at", InspectTests.at])
        run.stdout = run.stdout.replacingOccurrences(of: directory.path, with: "$TMP")
        try Tool.expectGolden(run, "import-evictions")
    }

    /// 3,400 cookies of 34 sites, interleaved, into a new jar: the jar-wide limit (3300, purged to 3000)
    /// evicts the 301 oldest, from every site; the list names ten sites and counts the rest.
    @Test func importBeyondTheJarWideLimitListsTenSitesAndCountsTheRest() throws {
        let source = directory.file("many-sites.txt")
        let lines = (0..<3_400).map { "site\($0 % 34).com\tFALSE\t/\tFALSE\t1900000000\tc\($0)\tv" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: source, atomically: true, encoding: .utf8)
        var run = try Tool.run(["import", source, "--into", directory.file("new-jar.sqlite"), "--at", InspectTests.at])
        run.stdout = run.stdout.replacingOccurrences(of: directory.path, with: "$TMP")
        try Tool.expectGolden(run, "import-evictions-jar-wide")
    }
}
