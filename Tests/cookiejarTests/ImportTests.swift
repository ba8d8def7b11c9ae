import Foundation
import TestSupport
import Testing

@testable import Cookies

/// `cookiejar import`, run as a sub-process, against golden output: each format the library reads, the
/// evictions report, and files it cannot read, named in one line on stderr with exit status 3 and left as
/// they were.
///
/// The samples (Tests/Samples): `app-jar.json` and `app-jar.sqlite` are the tool's own formats;
/// `safari.binarycookies` holds four cookies in two pages laid out as `BinaryCookies` documents the format
/// (flags Secure|HttpOnly|Strict, Lax, none, none; the last one expired in 2023); `firefox-cookies.sqlite`
/// is a `moz_cookies` table of Firefox schema 16 (as in FirefoxCookiesTests: expiry in milliseconds) with
/// a domain cookie, a host-only one, a partitioned one (set with the Partitioned attribute), an expired
/// one, and one each of a container, of private browsing and of Total Cookie Protection (partitioned
/// without the attribute; these three left out, and counted); `foreign.sqlite` is an SQLite database of
/// another application (one `notes` table).
struct ImportTests {
    let directory = TemporaryDirectory()

    struct Source: Sendable, CustomTestStringConvertible {
        var golden: String
        /// A sample of Tests/Samples, or nil for the cookies.txt the test writes.
        var sample: String?
        var testDescription: String { golden }
    }

    /// A Netscape cookies.txt (domain, include-subdomains, path, secure, expiry, name, value; the curl
    /// extension "#HttpOnly_"): a domain cookie, an HttpOnly host-only one, a session one (expiry 0) and
    /// one expired in 2020.
    static let cookiesTxt = """
        # Netscape HTTP Cookie File
        .example.com\tTRUE\t/\tTRUE\t1826787600\tsid\tabc123
        #HttpOnly_www.example.com\tFALSE\t/app\tFALSE\t1826787600\ttoken\tt0k
        www.example.com\tFALSE\t/\tFALSE\t0\tsession\t1
        example.org\tFALSE\t/\tFALSE\t1600000000\told\tgone

        """

    static let sources: [Source] = [
        Source(golden: "import-cookies-txt", sample: nil),
        Source(golden: "import-json", sample: "Tests/Samples/app-jar.json"),
        Source(golden: "import-jar", sample: "Tests/Samples/app-jar.sqlite"),
        Source(golden: "import-binarycookies", sample: "Tests/Samples/safari.binarycookies"),
        Source(golden: "import-firefox", sample: "Tests/Samples/firefox-cookies.sqlite"),
    ]

    /// Each format into a new jar, then the jar exported as cookies.txt: what the import said, and what the
    /// jar file holds (expired cookies dropped, session cookies kept only with --keep-session-cookies).
    @Test(arguments: sources)
    func importsEachFormat(_ source: Source) throws {
        let path = try source.sample ?? write(Self.cookiesTxt, to: "cookies.txt")
        let jar = directory.file("jar.sqlite")
        let imported = try Tool.run(["import", path, "--into", jar, "--at", InspectTests.at])
        let exported = try Tool.run(["export", jar, "--format", "cookies.txt", "--at", InspectTests.at])
        try Tool.expectGolden([imported, exported], source.golden, maskingDirectory: directory.path)
    }

    /// --keep-session-cookies keeps the session cookie of the cookies.txt in the jar file.
    @Test func keepSessionCookiesKeepsThemInTheJarFile() throws {
        let path = try write(Self.cookiesTxt, to: "cookies.txt")
        let jar = directory.file("jar.sqlite")
        let imported = try Tool.run(["import", path, "--into", jar, "--keep-session-cookies", "--at", InspectTests.at])
        let exported = try Tool.run(["export", jar, "--format", "cookies.txt", "--at", InspectTests.at])
        try Tool.expectGolden([imported, exported], "import-keep-session-cookies", maskingDirectory: directory.path)
    }

    /// Importing into a jar file that holds cookies already keeps them: its session cookies too (opening
    /// it is no relaunch of the app that keeps them), and an import evaluated later (--at 2026-11-23)
    /// removes only the file's cookies expired by then (`short`, which expired on 2026-11-21 at 22:26),
    /// counted in the report; "had" counts what the file held.
    @Test func importIntoAJarThatHoldsCookiesKeepsThem() throws {
        let jar = directory.file("jar.sqlite")
        let first = try Tool.run(["import", "Tests/Samples/app-jar.sqlite", "--into", jar, "--keep-session-cookies", "--at", InspectTests.at])
        let line = ".other.example\tTRUE\t/\tTRUE\t1800000000\tadded\t1\n"
        let short = ".other.example\tTRUE\t/\tTRUE\t1795300000\tshort\t1\n"
        let second = try Tool.run(["import", try write(line + short, to: "two.txt"), "--into", jar, "--at", InspectTests.at])
        let afterSecond = try Tool.run(["export", jar, "--format", "cookies.txt", "--at", InspectTests.at])
        let later = try Tool.run(["import", try write(line, to: "one.txt"), "--into", jar, "--at", "1795400000"])
        let afterLater = try Tool.run(["export", jar, "--format", "cookies.txt", "--at", "1795400000"])
        try Tool.expectGolden([first, second, afterSecond, later, afterLater], "import-into-a-jar-with-cookies", maskingDirectory: directory.path)
    }

    /// "-" stands for standard input in every file argument of the tool, and a jar is written in place:
    /// `--into -` is a usage error asking for a path, where it made a jar file named "-".
    @Test func dashAsTheJarIsRefused() throws {
        let dash = Tool.packageRoot.appendingPathComponent("-").path
        defer { try? FileManager.default.removeItem(atPath: dash) }
        let line = ".example.com\tTRUE\t/\tTRUE\t1900000000\tsid\t1\n"
        let run = try Tool.run(["import", try write(line, to: "one.txt"), "--into", "-"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: --into -: a jar file is read and written in place, not on standard input: give its path"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dash))
    }

    /// `--at` later than now is a usage error, and the jar file keeps every row: opened at that instant,
    /// the jar removed for good the cookies expiring before it (the sample's, which expire in 2027, for an
    /// import at 2030), cookies still valid now (a jar removes its expired cookies, rfc6265bis-22 §5.7).
    @Test func importAtAnInstantLaterThanNowIsRefused() throws {
        let sample = Tool.packageRoot.appendingPathComponent("Tests/Samples/app-jar.sqlite").path
        let jar = directory.file("jar.sqlite")
        try FileManager.default.copyItem(atPath: sample, toPath: jar)
        let line = ".other.example\tTRUE\t/\tTRUE\t1900000000\tadded\t1\n"
        let run = try Tool.run(["import", try write(line, to: "one.txt"), "--into", jar, "--at", "1900000000"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: --at: 2030-03-17 17:46:40 UTC is later than now: "), "\(run.stderr)")
        let now = CookieTime(secondsSinceEpoch: Int64(1_795_255_200))
        let before = try CookieImportFile.read(path: sample, now: now).cookies
        #expect(!before.isEmpty)
        #expect(try CookieImportFile.read(path: jar, now: now).cookies == before, "every row of the jar file is still there")
    }

    /// A jar file written by an app with higher `CookieLimits` than the default ones (180 cookies a site,
    /// 3,300 in all) keeps every cookie through an import: opened with the default limits, enforced on
    /// what a jar loads, it lost 102 of 252 cookies of one site to an import of nothing ("holds 150 (had
    /// 252)", exit 0, no word why), where the import's help says the jar file's own cookies stay (this
    /// project's contract). The report says the limits were raised to what the file holds; beyond them, an
    /// import evicts as many as it adds, the least recently used, and lists them.
    static let jarsBeyondTheLimits: [(sites: Int, perSite: Int, import: String, lines: [String], holds: Int, source: String)] = [
        (1, 252, "", ["; the jar file holds 252 (had 252)\n", raisedLimits("252 cookies of site0.test, over 180 a site or partition")], 252,
         "252 cookies of one site, an import of nothing"),
        (1, 252, ".other.example\tTRUE\t/\tTRUE\t1900000000\tadded\t1\n",
         ["; the jar file holds 253 (had 252)\n", raisedLimits("252 cookies of site0.test, over 180 a site or partition")], 253,
         "252 cookies of one site, an import of another site's cookie"),
        (34, 100, "", ["; the jar file holds 3400 (had 3400)\n", raisedLimits("3400 cookies in all, over 3300")], 3_400,
         "3,400 cookies of 34 sites, an import of nothing"),
        (1, 252, "site0.test\tFALSE\t/\tFALSE\t1900000000\tnew\t1\n",
         ["; the jar file holds 252 (had 252)\n", raisedLimits("252 cookies of site0.test, over 180 a site or partition"),
          "\n1 cookie was evicted by the jar's limits", "\n  1 by the per-site limit (over 252 cookies a site, or a partition of it, is cut to 252, non-Secure cookies first): site0.test 1\n"], 252,
         "252 cookies of one site, an import of one more: one evicted, and said"),
    ]

    /// The report's line on limits raised for a jar file holding `what`.
    static func raisedLimits(_ what: String) -> String {
        "\nthe jar file holds more than the default limits allow (\(what)): it was opened with limits raised to what it holds, so that none of its cookies is evicted; an import beyond them evicts as many as it adds\n"
    }

    /// A jar file that an app with higher limits wrote: `count` cookies named c0, c1…, created a second
    /// apart an hour before `InspectTests.at`, each of the domain and partition `place` gives its number
    /// (a partitioned one Secure, as CHIPS asks).
    func jarFileBeyondTheDefaultLimits(count: Int, place: (Int) -> (domain: String, partitionKey: String?)) throws -> String {
        let jar = directory.file("app-jar.sqlite")
        var options = CookieJarFileOptions()
        options.flushDelay = nil
        let start = try #require(Double(InspectTests.at))
        let app = try CookieJar(
            contentsOf: jar, options: options, limits: CookieLimits(maxCookiesPerSite: 1_000, maxCookies: 10_000),
            clock: ManualCookieClock(CookieTime(secondsSinceEpoch: start - 3_600)))
        for number in 0..<count {
            let (domain, partitionKey) = place(number)
            app.insert(Cookie(
                name: "c\(number)", value: "v", domain: domain, path: "/",
                expiry: CookieTime(secondsSinceEpoch: Int64(1_900_000_000)), creation: CookieTime(secondsSinceEpoch: start - 3_600 + Double(number)),
                isSecure: partitionKey != nil, partitionKey: partitionKey, isSourceSecure: true))
        }
        try app.close()
        return jar
    }

    @Test(arguments: jarsBeyondTheLimits.indices)
    func importKeepsTheCookiesOfAJarFileBeyondTheDefaultLimits(_ index: Int) throws {
        let row = Self.jarsBeyondTheLimits[index]
        let start = try #require(Double(InspectTests.at))
        let jar = try jarFileBeyondTheDefaultLimits(count: row.sites * row.perSite) { number in
            (domain: "site\(number % row.sites).test", partitionKey: nil)
        }
        let source = try write("# Netscape HTTP Cookie File\n" + row.import, to: "source.txt")
        let run = try Tool.run(["import", source, "--into", jar, "--at", InspectTests.at])
        #expect(run.status == 0, "\(row.source): \(run.stderr)")
        for line in row.lines { #expect(run.stdout.contains(line), "\(row.source): \(run.stdout)") }
        let held = try CookieImportFile.read(path: jar, now: CookieTime(secondsSinceEpoch: start)).cookies
        #expect(held.count == row.holds, "\(row.source)")
    }

    /// A site's limit holds for each of its partitions apart (CHIPS): a file holding 170 of a site's own
    /// cookies and 20 partitioned under a top-level site is within the default limits, and is opened with
    /// them (no limit raised, which would let an import grow the site's own cookies past 180).
    @Test func aSiteWithinItsLimitPerPartitionRaisesNoLimit() throws {
        let jar = try jarFileBeyondTheDefaultLimits(count: 190) { number in
            (domain: "site.test", partitionKey: number >= 170 ? "https://top.test" : nil)
        }
        let source = try write("# Netscape HTTP Cookie File\n", to: "source.txt")
        let run = try Tool.run(["import", source, "--into", jar, "--at", InspectTests.at])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("the jar file holds 190 (had 190)"), "\(run.stdout)")
        #expect(!run.stdout.contains("more than the default limits"), "\(run.stdout)")
    }

    /// A cookie the file holds but no jar keeps (an empty partition key: CHIPS §2.1 names a site, and a
    /// jar keeps no partition key as an empty one) is counted with its reason by `import`, and listed with
    /// it by `inspect --url`, not taken for an eviction; the file's other cookie is imported and sent.
    @Test func aCookieTheJarRefusesIsReportedWithItsReason() throws {
        let json = """
            {"format": "swift-cookiejar", "version": 1, "cookies": [
              {"name": "kept", "value": "1", "domain": "a.test", "hostOnly": true, "path": "/",
               "expires": "2027-11-21T09:00:00.000000Z", "creation": "2026-11-21T09:00:00.000000Z",
               "lastAccess": "2026-11-21T09:00:00.000000Z", "secure": true, "httpOnly": false,
               "sameSite": "Default", "sourceSecure": true},
              {"name": "partitioned", "value": "2", "domain": "a.test", "hostOnly": true, "path": "/",
               "expires": "2027-11-21T09:00:00.000000Z", "creation": "2026-11-21T09:00:00.000001Z",
               "lastAccess": "2026-11-21T09:00:00.000000Z", "secure": true, "httpOnly": false,
               "sameSite": "None", "sourceSecure": true, "partitionKey": ""}
            ]}

            """
        let path = try write(json, to: "refused.json")
        let jar = directory.file("jar.sqlite")
        let imported = try Tool.run(["import", path, "--into", jar, "--at", InspectTests.at])
        let inspected = try Tool.run(["inspect", path, "--url", "https://a.test/", "--at", InspectTests.at])
        try Tool.expectGolden([imported, inspected], "import-refused", maskingDirectory: directory.path)
    }

    /// A file holding one cookie twice (the same name, domain, host-only flag, path and partition: §5.7 step
    /// 23 and CHIPS) is imported as a jar receives it, the later replacing the earlier, and the report
    /// says so, where it said "imported 2 of 2 …; the jar file holds 1" without a word why (this project's
    /// contract). Two cookies of one name but other identities are both kept, and nothing is said.
    static let twiceHeld: [(lines: [String], said: String?, holds: Int, source: String)] = [
        (["embed.example\tFALSE\t/\tTRUE\t1800000000\tsid\tFIRST", "embed.example\tFALSE\t/\tTRUE\t1800000000\tsid\tSECOND"],
         "1 cookie was replaced by a later one of the same name, domain, path and partition in", 1, "one cookie twice"),
        (["embed.example\tFALSE\t/\tTRUE\t1800000000\tsid\tFIRST", ".embed.example\tTRUE\t/\tTRUE\t1800000000\tsid\tSECOND"],
         nil, 2, "a host-only and a domain cookie: two identities"),
    ]

    @Test(arguments: twiceHeld.indices)
    func aCookieHeldTwiceIsReportedReplaced(_ index: Int) throws {
        let row = Self.twiceHeld[index]
        let path = try write(row.lines.joined(separator: "\n") + "\n", to: "twice.txt")
        let jar = directory.file("jar.sqlite")
        let run = try Tool.run(["import", path, "--into", jar, "--at", InspectTests.at])
        #expect(run.status == 0, "\(row.source)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix("the jar file holds \(row.holds) (had 0)") == true, "\(row.source): \(run.stdout)")
        #expect(lines.dropFirst().map(String.init) == (row.said.map { ["\($0) \(path)"] } ?? []), "\(row.source)")
    }

    /// A cookie of a.test named sid, as swift-cookiejar JSON, expiring in 2027 (within 400 days of `InspectTests.at`).
    static func sidJSON(value: String, creation: String) -> String {
        """
        {"format": "swift-cookiejar", "version": 1, "cookies": [
          {"name": "sid", "value": "\(value)", "domain": "a.test", "hostOnly": true, "path": "/",
           "expires": "2027-01-01T00:00:00.000000Z", "creation": "\(creation)", "lastAccess": "\(creation)",
           "secure": true, "httpOnly": false, "sameSite": "Default", "sourceSecure": true}]}

        """
    }

    /// An import over a jar file's live cookie of the same identity (name, domain, host-only flag, path and
    /// partition, §5.7 step 23). An expired one is left out as the help says ("Expired cookies are
    /// dropped"), where the jar's insert took it for a deletion and removed the live cookie, reported only
    /// as "1 expired cookie was dropped"; a live one replaces it, and the report counts the jar file's
    /// cookies replaced, and those replaced by an older cookie (by creation time, which cookies.txt does
    /// not hold); an identical one changes nothing and is not counted (this project's contract: nothing
    /// is lost without a word).
    static let sameIdentity: [(source: String, name: String, lines: [String], value: String, description: String)] = [
        ("a.test\tFALSE\t/\tTRUE\t1000\tsid\tGONE\n", "expired.txt", ["1 expired cookie was dropped"], "CURRENT",
         "an expired cookie: left out, the jar's kept"),
        ("a.test\tFALSE\t/\tTRUE\t1800000000\tsid\tOTHER\n", "live.txt",
         ["1 cookie of the jar file was replaced by the import's of the same name, domain, path and partition (cookies.txt holds no creation times: which was newer is not known)"],
         "OTHER", "a live cookie from cookies.txt: replaced, said"),
        (sidJSON(value: "STALE", creation: "2026-01-01T00:00:00.000000Z"), "stale.json",
         ["1 cookie of the jar file was replaced by the import's of the same name, domain, path and partition (1 by an older cookie, by creation time)"],
         "STALE", "an older cookie: replaced, said, and said older"),
        (sidJSON(value: "NEWER", creation: "2026-11-21T09:30:00.000000Z"), "newer.json",
         ["1 cookie of the jar file was replaced by the import's of the same name, domain, path and partition"],
         "NEWER", "a newer cookie: replaced, said"),
        (sidJSON(value: "CURRENT", creation: "2026-11-21T09:00:00.000000Z"), "same.json", [], "CURRENT",
         "the same cookie again: nothing changed, nothing said"),
    ]

    @Test(arguments: sameIdentity.indices)
    func importOverACookieOfTheSameIdentitySaysWhatItReplaced(_ index: Int) throws {
        let row = Self.sameIdentity[index]
        let jar = directory.file("jar.sqlite")
        let current = try write(Self.sidJSON(value: "CURRENT", creation: "2026-11-21T09:00:00.000000Z"), to: "current.json")
        #expect(try Tool.run(["import", current, "--into", jar, "--at", InspectTests.at]).status == 0)
        let source = try write(row.source, to: row.name)
        let run = try Tool.run(["import", source, "--into", jar, "--at", InspectTests.at])
        #expect(run.status == 0, "\(row.description): \(run.stderr)")
        let lines = run.stdout.split(separator: "\n").dropFirst().map(String.init)
        #expect(lines == row.lines, "\(row.description)")
        let held = try CookieImportFile.read(path: jar, now: CookieTime(secondsSinceEpoch: try #require(Double(InspectTests.at)))).cookies
        #expect(held.map(\.value) == [row.value], "\(row.description)")
    }

    /// An expiry more than 400 days after the import is capped at 400 days (rfc6265bis-22 §5.5: "Expires or
    /// Max-Age attributes that specify a lifetime longer than the limit MUST be reduced to the limit"), and
    /// the summary counts the cookies capped, as it counts the others it changed: `far` (99999999999, the
    /// year 5138) and `later` (a second beyond the limit) are capped, `within` (at the limit itself) is not.
    @Test func anExpiryBeyondFourHundredDaysIsCappedAndCounted() throws {
        let at = try #require(Int64(InspectTests.at))
        let limit = at + 400 * 86_400
        let source = try write(
            """
            a.test\tFALSE\t/\tFALSE\t99999999999\tfar\t1
            a.test\tFALSE\t/\tFALSE\t\(limit + 1)\tlater\t1
            a.test\tFALSE\t/\tFALSE\t\(limit)\twithin\t1

            """, to: "far.txt")
        let jar = directory.file("jar.sqlite")
        let run = try Tool.run(["import", source, "--into", jar, "--at", InspectTests.at])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").dropFirst() == ["2 cookies expiring more than 400 days ahead were capped at 400 days (§5.5)"], "\(run.stdout)")
        let held = try CookieImportFile.read(path: jar, now: CookieTime(secondsSinceEpoch: at)).cookies
        #expect(Set(held.map { "\($0.name) \($0.expiry?.secondsSinceEpoch ?? 0)" }) == ["far \(limit)", "later \(limit)", "within \(limit)"])
    }

    /// A jar file that cannot be written (its directory missing) is the import's output: exit 4, one line
    /// naming it, and nothing made. (A directory where the file should be is no regular file, refused as
    /// one: `aJarThatIsNoRegularFileIsRefused`.)
    @Test func aJarFileThatCannotBeWrittenExitsWithFour() throws {
        let jar = directory.file("no-such-directory/jar.sqlite")
        let run = try Tool.run(["import", "Tests/Samples/app-jar.json", "--into", jar, "--at", InspectTests.at])
        #expect(run.status == 4)
        #expect(run.stderr.hasPrefix("cookiejar: \(jar): "), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "\n").count == 2, "one line")
        #expect(run.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A jar file that exists and cannot be read (no read permission) is a jar file that cannot be read,
    /// as the help's exit status 3 says and as `inspect` and `export` exit for the same file: one line
    /// naming it and why, and the file left as it is. (It exited 4, SQLite's failed open taken for the
    /// output's.) Root reads any file: as root, the tool runs without the capabilities that let it.
    @Test(.enabled(if: Tool.canObeyFilePermissions, "root reads any file, and setpriv cannot drop that here"))
    func aJarFileThatCannotBeReadExitsWithThree() throws {
        let jar = directory.file("jar.sqlite")
        let bytes = try Data(Self.sample("app-jar.sqlite"))
        try bytes.write(to: URL(fileURLWithPath: jar))
        let source = try write(Self.cookiesTxt, to: "cookies.txt")
        #expect(chmod(jar, 0) == 0)
        let run = try Tool.run(["import", source, "--into", jar, "--at", InspectTests.at], stdinBytes: nil, obeyingFilePermissions: true)
        #expect(run.status == 3)
        #expect(run.stderr == "cookiejar: \(jar): cannot read the jar file: Permission denied\n")
        #expect(run.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["cookies.txt", "jar.sqlite"])
        #expect(chmod(jar, 0o600) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: jar)) == bytes, "the jar file is left as it was")
    }

    /// A bad line stops a strict import (nothing imported, no jar file made); --lenient skips it, names it
    /// on stderr with its line, and imports the rest.
    @Test func aBadLineStopsTheImportUnlessLenient() throws {
        let text = Self.cookiesTxt.replacingOccurrences(of: "www.example.com\tFALSE\t/\tFALSE\t0", with: "www.example.com\tMAYBE\t/\tFALSE\t0")
        let path = try write(text, to: "cookies.txt")
        let jar = directory.file("jar.sqlite")
        let strict = try Tool.run(["import", path, "--into", jar, "--at", InspectTests.at])
        #expect(!FileManager.default.fileExists(atPath: jar), "a failed import makes no jar file")
        let lenient = try Tool.run(["import", path, "--into", jar, "--lenient", "--at", InspectTests.at])
        try Tool.expectGolden([strict, lenient], "import-bad-line", maskingDirectory: directory.path)
    }

    /// A jar file to import into that exists and is no regular file is refused before it is opened, as a
    /// jar file that cannot be read (exit 3, the help's status for an unreadable jar file), and left as it
    /// is: SQLite's open of a named pipe waited for a writer for ever, and a device (`/dev/null`, as root)
    /// failed with a disk I/O error (exit 4) and got a `-journal` beside it. A link is followed to what it
    /// names.
    @Test(arguments: ["fifo", "directory", "link-to-fifo"])
    func aJarThatIsNoRegularFileIsRefused(_ kind: String) throws {
        let fifo = directory.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let folder = directory.file("directory")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: directory.file("link-to-fifo"), withDestinationPath: fifo)
        let source = try write(Self.cookiesTxt, to: "cookies.txt")
        let jar = directory.file(kind)
        let run = try Tool.run(["import", source, "--into", jar, "--at", InspectTests.at])
        #expect(run.status == 3)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "cookiejar: \(jar): not a regular file: --into takes a swift-cookiejar SQLite jar file (created if missing)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["cookies.txt", "directory", "fifo", "link-to-fifo"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    struct Unreadable: Sendable, CustomTestStringConvertible {
        var golden: String
        /// The file's bytes.
        var bytes: @Sendable () throws -> [UInt8]
        var testDescription: String { golden }
    }

    /// The bytes of a sample of Tests/Samples.
    static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Tool.packageRoot.appendingPathComponent("Tests/Samples/\(name)")))
    }

    /// Files that are no cookie file of a known format, or a damaged one: one line on stderr naming the
    /// file and what is wrong with it, exit 3, and no jar file made.
    static let unreadableSources: [Unreadable] = [
        Unreadable(golden: "import-unknown-format") { Array("PK\u{3}\u{4} a zip archive, not cookies\n".utf8) },
        // The binarycookies sample cut inside its second page.
        Unreadable(golden: "import-truncated-binarycookies") { Array(try sample("safari.binarycookies").prefix(300)) },
        Unreadable(golden: "import-foreign-database") { try sample("foreign.sqlite") },
    ]

    @Test(arguments: unreadableSources)
    func unreadableSourceIsNamedAndNothingIsImported(_ source: Unreadable) throws {
        let bytes = try source.bytes()
        let path = directory.file("source")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let jar = directory.file("jar.sqlite")
        let run = try Tool.run(["import", path, "--into", jar, "--at", InspectTests.at])
        #expect(run.status == 3)
        #expect(!FileManager.default.fileExists(atPath: jar), "nothing imported: no jar file made")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes), "the source is only read")
        try Tool.expectGolden([run], source.golden, maskingDirectory: directory.path)
    }

    /// A jar file to import into that is no cookie jar (another application's database, a text file, a
    /// damaged database, a cookies.txt): the default `.fail` of `CookieJarFileOptions.unreadableFile` leaves it exactly as
    /// it is and moves nothing aside, and the tool says which file and why, that --into takes a jar, and
    /// of a cookie file of another format that it is one, exit 3.
    static let unreadableJars: [Unreadable] = [
        Unreadable(golden: "import-into-foreign-database") { try sample("foreign.sqlite") },
        Unreadable(golden: "import-into-text-file") { Array("my notes, not a jar\n".utf8) },
        // A cookie file of another format, sniffed (`CookieFileFormat(sniffing:)`): said to be one, the
        // source of an import, not its target.
        Unreadable(golden: "import-into-cookies-txt") { Array(cookiesTxt.utf8) },
        // The jar sample with its first page overwritten past the 100-byte database header: the schema
        // is gone.
        Unreadable(golden: "import-into-damaged-database") {
            var bytes = try sample("app-jar.sqlite")
            for index in 100..<min(bytes.count, 4096) { bytes[index] = 0xA5 }
            return bytes
        },
    ]

    @Test(arguments: unreadableJars)
    func unreadableJarIsLeftUntouched(_ target: Unreadable) throws {
        let bytes = try target.bytes()
        let jar = directory.file("jar.sqlite")
        try Data(bytes).write(to: URL(fileURLWithPath: jar))
        let source = try write(Self.cookiesTxt, to: "cookies.txt")
        let run = try Tool.run(["import", source, "--into", jar, "--at", InspectTests.at])
        #expect(run.status == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: jar)) == Data(bytes), "the jar file is left as it was")
        // Nothing moved aside, nothing left beside it: not even the -wal and -shm that SQLite makes for a
        // database whose header says WAL (the damaged jar) when it first reads it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["cookies.txt", "jar.sqlite"])
        try Tool.expectGolden([run], target.golden, maskingDirectory: directory.path)
    }

    /// Writes `text` to a file of the temporary directory and returns its path.
    private func write(_ text: String, to name: String) throws -> String {
        let path = directory.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// 1,000 cookies of one site into a new jar (issue 22: the import said "imported 1000 of 1000 …; the
    /// jar file holds 163 (had 0)" and nothing of the 837 the per-site limit evicted, 180 purged to 150,
    /// Chromium's CookieMonster numbers): the tool says how many each limit evicted, from which site,
    /// and that a jar file applies these limits whatever imports into it.
    @Test func importBeyondThePerSiteLimitListsTheEvictions() throws {
        let source = directory.file("one-site.txt")
        // Netscape cookies.txt: domain, include-subdomains, path, secure, expiry, name, value.
        let lines = (0..<1_000).map { "example.com\tFALSE\t/\tFALSE\t1800000000\tc\($0)\tv\($0)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: source, atomically: true, encoding: .utf8)
        let run = try Tool.run(["import", source, "--into", directory.file("new-jar.sqlite"), "--at", InspectTests.at])
        try Tool.expectGolden([run], "import-evictions", maskingDirectory: directory.path)
    }

    /// 3,400 cookies of 34 sites, interleaved, into a new jar: the jar-wide limit (3300, purged to 3000)
    /// evicts the 301 oldest, from every site; the list names ten sites and counts the rest.
    @Test func importBeyondTheJarWideLimitListsTenSitesAndCountsTheRest() throws {
        let source = directory.file("many-sites.txt")
        let lines = (0..<3_400).map { "site\($0 % 34).com\tFALSE\t/\tFALSE\t1800000000\tc\($0)\tv" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: source, atomically: true, encoding: .utf8)
        let run = try Tool.run(["import", source, "--into", directory.file("new-jar.sqlite"), "--at", InspectTests.at])
        try Tool.expectGolden([run], "import-evictions-jar-wide", maskingDirectory: directory.path)
    }
}
