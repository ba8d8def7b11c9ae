import Foundation
import TestSupport
import Testing

@testable import Cookies

/// `cookiejar inspect`, `import` and `export`, run as sub-processes, against golden output. They run
/// together on the same sample jar, a WAL database: in a fresh checkout the first opening rebuilds its
/// shared-memory index, and the others wait for it within the busy timeout (OpeningRaceTests).
@Suite struct InspectTests {
    let directory = TemporaryDirectory()

    /// 2026-11-21T10:00:00Z, an hour after the sample jar's cookies were set.
    static let at = "1795255200"

    struct Row: Sendable, CustomTestStringConvertible {
        var golden: String
        var arguments: [String]
        var testDescription: String { golden }
    }

    static let rows: [Row] = [
        Row(golden: "inspect-table", arguments: ["inspect", "Tests/Samples/app-jar.sqlite"]),
        Row(golden: "inspect-site-session", arguments: ["inspect", "Tests/Samples/app-jar.sqlite", "--site", "API.Example.com", "--session", "--show-values"]),
        // A domain as the DOMAIN column writes a domain cookie's, with its leading ".": the same cookies.
        Row(golden: "inspect-site-session", arguments: ["inspect", "Tests/Samples/app-jar.sqlite", "--site", ".Example.com", "--session", "--show-values"]),
        // A URL names its host's site: the same cookies.
        Row(golden: "inspect-site-session", arguments: ["inspect", "Tests/Samples/app-jar.sqlite", "--site", "https://API.Example.com/me", "--session", "--show-values"]),
        Row(golden: "inspect-json-source", arguments: ["inspect", "Tests/Samples/app-jar.json", "--expired"]),
        Row(golden: "inspect-url", arguments: ["inspect", "Tests/Samples/app-jar.json", "--url", "https://api.example.com/api/v1/me"]),
        Row(golden: "inspect-url-cross-site", arguments: ["inspect", "Tests/Samples/app-jar.sqlite", "--url", "http://www.example.com/settings", "--site-for-cookies", "https://evil.test", "--show-values"]),
        Row(golden: "inspect-url-partitioned", arguments: ["inspect", "Tests/Samples/app-jar.sqlite", "--url", "https://widgets.example.net/", "--partition", "https://other.test"]),
        // Embedded in example.com's page: the partition is the top-level site (CHIPS), so the cookie
        // partitioned under example.com is sent.
        Row(golden: "inspect-url-embedded", arguments: ["inspect", "Tests/Samples/app-jar.sqlite", "--url", "https://widgets.example.net/", "--site-for-cookies", "https://example.com"]),
        Row(golden: "inspect-json", arguments: ["inspect", "Tests/Samples/app-jar.sqlite", "--name", "theme", "--json"]),
        // A jar file of schema 1 is read through a migrated copy in memory, and left as it is.
        Row(golden: "inspect-jar-schema-1", arguments: ["inspect", "Tests/CookiesTests/Fixtures/jar-schema-v1.sqlite", "--expired"]),
        Row(golden: "export-cookies-txt", arguments: ["export", "Tests/Samples/app-jar.sqlite", "--format", "cookies.txt"]),
    ]

    @Test(arguments: rows)
    func golden(_ row: Row) throws {
        let run = try Tool.run(row.arguments + ["--at", Self.at])
        try Tool.expectGolden(run, row.golden)
    }

    /// A jar that cannot be opened because the process has no file descriptor left (EMFILE) says so, where
    /// SQLite's own message ("unable to open database file") names no reason: the tool is run under ever
    /// larger descriptor limits (`ulimit -n`) until it gets past the jar's opening, and each refusal on the
    /// way must give the system's reason.
    @Test func aJarOpenedWithoutADescriptorLeftSaysWhy() throws {
        var refusals: [String] = []
        for limit in 3...16 {
            let run = try Tool.run(["inspect", "Tests/Samples/app-jar.sqlite"], stdinBytes: nil, descriptorLimit: limit)
            if run.stderr.contains("unable to open database file") { refusals.append(run.stderr) }
            if run.status == 0 { break }
        }
        #expect(!refusals.isEmpty)
        for refusal in refusals {
            #expect(refusal.contains("unable to open database file: Too many open files (SQLite code 14)"), "\(refusal)")
        }
    }

    @Test func importThenExportRoundTrips() throws {
        let txt = directory.file("cookies.txt")
        let jar = directory.file("jar.sqlite")
        let export = try Tool.run(["export", "Tests/Samples/app-jar.sqlite", "--format", "cookies.txt", "--output", txt, "--at", Self.at])
        #expect(export.status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: txt)[.posixPermissions] as? Int == 0o600)
        let imported = try Tool.run(["import", txt, "--into", jar, "--at", Self.at])
        #expect(imported.status == 0)
        #expect(imported.stdout == """
            imported 4 of 5 cookies from \(txt) (Netscape cookies.txt) into \(jar); the jar file holds 4 (had 0)
            1 session cookie is not kept in the file (use --keep-session-cookies)

            """)
        let again = try Tool.run(["export", jar, "--format", "cookies.txt", "--at", Self.at])
        let original = try Tool.run(["export", "Tests/Samples/app-jar.sqlite", "--format", "cookies.txt", "--at", Self.at])
        #expect(again.stdout == original.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\tsession\t") }.joined(separator: "\n"))
    }

    /// `export --output` replaces its file whole, readable by its owner only from the first byte (the
    /// bytes go to a new 0600 file renamed over it: an existing file's wider mode is not kept), writes
    /// through a symbolic link to the file it names, and for a file it cannot write says why, exits with
    /// 4 and leaves nothing behind.
    @Test func exportReplacesItsOutputFilePrivately() throws {
        let real = directory.file("real.json")
        let link = directory.file("link.json")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: real))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: real)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let export = try Tool.run(["export", "Tests/Samples/app-jar.sqlite", "--format", "json", "--output", link, "--at", Self.at])
        #expect(export.status == 0)
        let toStandardOutput = try Tool.run(["export", "Tests/Samples/app-jar.sqlite", "--format", "json", "--at", Self.at])
        #expect(try String(contentsOfFile: real, encoding: .utf8) == toStandardOutput.stdout)
        #expect(try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "the link stays a link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["link.json", "real.json"])

        let missing = directory.file("no-such-directory/out.json")
        let failed = try Tool.run(["export", "Tests/Samples/app-jar.sqlite", "--format", "json", "--output", missing, "--at", Self.at])
        #expect(failed.status == 4)
        #expect(failed.stderr == "cookiejar: \(missing): cannot write the output file: No such file or directory\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["link.json", "real.json"])
    }

    /// A site with more cookies than a jar keeps (185 against the default 180, cut to 150 past it,
    /// §6.1): `inspect --url` accounts for every one, those a jar would evict listed as not sent and why
    /// (the 181st cookie brings the site to 150, four come after it: 154 sent, 31 evicted).
    @Test func inspectURLListsTheCookiesAJarWouldEvict() throws {
        var text = "# Netscape HTTP Cookie File\n"
        for index in 0..<185 { text += "example.com\tFALSE\t/\tFALSE\t1900000000\tc\(index)\tv\n" }
        let path = directory.file("many.txt")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try Tool.run(["inspect", path, "--url", "https://example.com/", "--at", Self.at])
        #expect(run.status == 0)
        let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(rows.count == 185)
        #expect(rows.filter { $0.contains("evicted: over the 180 cookies a jar keeps a site") }.count == 31)
        #expect(rows.filter { $0.contains("sent") && !$0.contains("not sent") }.count == 154)
    }

    /// `inspect --url` with the filters: the `Cookie` header is the request's, of every cookie of the file
    /// (rfc6265bis-22 §5.8.3), whatever rows the filters show; the rows are the filtered ones.
    @Test(arguments: [
        (["--name", "csrf"], ["csrf"]),
        (["--site", "example.net"], []),
        (["--session"], ["session"]),
        ([], ["theme", "session", "remember_me", "csrf", "consent"]),
    ])
    func inspectURLFiltersTheRowsNotTheHeader(_ filters: [String], _ shownNames: [String]) throws {
        let run = try Tool.run(["inspect", "Tests/Samples/app-jar.json", "--url", "https://www.example.com/", "--at", "1800000000"] + filters)
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.dropFirst().first == "Cookie: remember_me=b4…(16); csrf=q9…(6)")
        let rows = lines.filter { $0.hasPrefix("  ") }
        #expect(Set(rows.map { $0.split(separator: " ", omittingEmptySubsequences: true)[$0.contains("not sent") ? 2 : 1] }) == Set(shownNames.map { Substring($0) }))
        if shownNames.isEmpty { #expect(lines.last?.hasPrefix("none of the cookies of example.com") == true) }
    }

    /// A site the file holds no cookie of is said to have none, filters or not.
    @Test func aSiteWithoutCookiesIsSaidToHaveNoneWhateverTheFilters() throws {
        let run = try Tool.run(["inspect", "Tests/Samples/app-jar.json", "--url", "https://nothing.test/", "--name", "x", "--at", "1800000000"])
        #expect(run.stdout == "GET https://nothing.test/\nno Cookie header\nno cookies of nothing.test in Tests/Samples/app-jar.json\n")
    }

    /// An empty file (0 bytes: what a failed download or a shell's `>` leaves) is read as holding no
    /// cookies, and said to be empty on stderr, where nothing told it from a file of no cookies (this
    /// project's contract: nothing goes unsaid). A file of no cookies but its header is not empty.
    @Test(arguments: [
        (["inspect", "FILE"], true), (["export", "FILE", "--format", "json"], true),
        (["import", "FILE", "--into", "JAR"], true), (["inspect", "HEADER"], false),
    ])
    func anEmptyFileIsSaidToBeOne(_ arguments: [String], _ said: Bool) throws {
        let empty = directory.file("empty.txt")
        let header = directory.file("header.txt")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(FileManager.default.createFile(atPath: header, contents: Data("# Netscape HTTP Cookie File\n".utf8)))
        let substituted = arguments.map { ["FILE": empty, "HEADER": header, "JAR": directory.file("jar.sqlite")][$0] ?? $0 }
        let run = try Tool.run(substituted + ["--at", Self.at])
        #expect(run.status == 0, "\(arguments)")
        #expect(run.stderr == (said ? "cookiejar: \(empty): empty file: no cookies\n" : ""), "\(arguments)")
    }

    /// A jar piped in (`/dev/stdin`) is read once and sniffed from memory: the same table as from the file.
    @Test func readsAPipe() throws {
        let text = try Tool.run(["export", "Tests/Samples/app-jar.sqlite", "--format", "cookies.txt", "--at", Self.at])
        #expect(text.status == 0)
        let piped = try Tool.run(["inspect", "/dev/stdin", "--at", Self.at], stdin: text.stdout)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasPrefix("/dev/stdin (Netscape cookies.txt)\n"))
        #expect(piped.stdout.hasSuffix("5 cookies in 2 sites\n"), "the partitioned cookie is left out of cookies.txt")
        // A whole SQLite jar piped in: SQLite reads a database from a file, so the tool says to give the path.
        let jarBytes = try Data(contentsOf: Tool.packageRoot.appendingPathComponent("Tests/Samples/app-jar.sqlite"))
        let database = try Tool.run(["inspect", "/dev/stdin"], stdinBytes: jarBytes)
        #expect(database.status == 3)
        #expect(database.stderr == "cookiejar: /dev/stdin at byte 0: an SQLite database, which is read from its file (a path), not from bytes or a pipe\n")
    }

    /// `inspect --url` lists a cookie of the file a jar keeps under another identity than the file's (a
    /// partition key as the jar computes one, CHIPS's top-level site; a public suffix's domain cookie made
    /// host-only, §5.7 step 9) as the jar keeps it, sent or not, never as evicted too (this project's
    /// contract: a cookie is evicted only when the jar's limit removed it).
    static let renamedByTheJar: [(file: String, text: String, arguments: [String], stdout: String, source: String)] = [
        ("lh.txt", ".localhost\tTRUE\t/\tFALSE\t4102444800\tlh\t1\n", ["--url", "http://localhost/"],
         "GET http://localhost/\nCookie: lh=•\n  sent  lh  localhost  /\n", "§5.7 step 9: a domain cookie of a public suffix is host-only"),
        ("pk.json",
         """
         {"format": "swift-cookiejar", "version": 1, "cookies": [{"name": "p", "value": "1", "domain": "embed.example",
          "hostOnly": true, "path": "/", "expires": "2030-01-01T00:00:00Z", "creation": "2025-01-01T00:00:00Z",
          "secure": true, "sameSite": "None", "partitionKey": "https://WWW.top.example", "sourceSecure": true}]}
         """,
         ["--url", "https://embed.example/", "--partition", "https://top.example"],
         "GET https://embed.example/\nCookie: p=•\n  sent  p  embed.example  /\n", "CHIPS: the partition is the top-level site"),
    ]

    @Test(arguments: renamedByTheJar.indices)
    func aCookieTheJarKeepsUnderItsOwnIdentityIsNotEvicted(_ index: Int) throws {
        let row = Self.renamedByTheJar[index]
        let path = directory.file(row.file)
        try row.text.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try Tool.run(["inspect", path] + row.arguments + ["--at", Self.at])
        #expect(run.status == 0 && run.stdout == row.stdout, "\(row.source)")
    }

    /// The request context options describe the request to --url: without --url there is none, and they
    /// are a usage error (exit 2) rather than ignored; `--method GET`, the default, too.
    @Test(arguments: [
        (["--method", "POST"], "--method needs"), (["--method", "GET"], "--method needs"), (["--top-level"], "--top-level needs"),
        (["--non-http"], "--non-http needs"), (["--partition", "https://top.example"], "--partition needs"),
        (["--site-for-cookies", "https://other.test"], "--site-for-cookies needs"),
        (["--method", "POST", "--top-level", "--non-http"], "--top-level, --method, --non-http need"),
    ])
    func requestContextOptionsNeedAURL(_ options: [String], _ named: String) throws {
        let run = try Tool.run(["inspect", "Tests/Samples/app-jar.json"] + options + ["--at", Self.at])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: \(named) --url: without it there is no request to describe\nUsage: cookiejar inspect "), "\(run.stderr)")
    }

    /// A --site that names no host (nor a URL of one) is a usage error naming it, where it matched no
    /// cookie and said nothing of why.
    @Test(arguments: ["exa mple.com", "[::1", "https://"])
    func aSiteThatIsNoHostIsRefused(_ site: String) throws {
        let run = try Tool.run(["inspect", "Tests/Samples/app-jar.json", "--site", site, "--at", Self.at])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: --site: not a host, a registrable domain or a URL of one: \(site)\n"), "\(run.stderr)")
    }

    /// A cookie of the file that a later one of the same name, domain, path and partition replaces is not
    /// sent (§5.7 step 23: the later one takes its place in the jar), and its row says why, where it was
    /// listed with no row at all.
    @Test func aCookieALaterOneOfItsIdentityReplacesIsNotSent() throws {
        let path = directory.file("cookies.txt")
        try "ex.com\tFALSE\t/\tFALSE\t1900000000\tn\tfirst\nex.com\tFALSE\t/\tFALSE\t1900000000\tn\tsecond\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let run = try Tool.run(["inspect", path, "--url", "https://ex.com/", "--show-values", "--at", Self.at])
        #expect(run.status == 0)
        #expect(run.stdout == """
            GET https://ex.com/
            Cookie: n=second
              sent      n  ex.com  /
              not sent  n  ex.com  /  replaced: a later cookie of the file of the same name, domain, path and partition replaces it

            """)
    }

    /// A Firefox cookies.sqlite is read as it is on disk (SQLite's immutable mode: nothing written, not even
    /// beside it); changes still in its write-ahead log (Firefox running) are not in it, and a warning says so.
    @Test func firefoxDatabaseWithAWriteAheadLogIsReadWithAWarning() throws {
        let database = directory.file("cookies.sqlite")
        try Data(contentsOf: Tool.packageRoot.appendingPathComponent("Tests/Samples/firefox-cookies.sqlite")).write(to: URL(fileURLWithPath: database))
        // The sample's cookies of a container, of private browsing and of Total Cookie Protection are
        // counted (ImportTests).
        let leftOut = """
            cookiejar: \(database): 1 cookie left out, of private browsing (originAttributes privateBrowsingId)
            cookiejar: \(database): 1 cookie left out, of a Firefox container (originAttributes userContextId)
            cookiejar: \(database): 1 cookie left out, \(FirefoxCookies.LeftOutReason.partitionedWithoutAttribute)

            """
        let quiet = try Tool.run(["inspect", database, "--at", Self.at])
        #expect(quiet.status == 0 && quiet.stderr == leftOut)
        try Data("changes".utf8).write(to: URL(fileURLWithPath: database + "-wal"))
        let warned = try Tool.run(["inspect", database, "--at", Self.at])
        #expect(warned.status == 0 && warned.stdout == quiet.stdout)
        #expect(warned.stderr == leftOut + "cookiejar: \(database): its write-ahead log \(database)-wal holds changes not read here (Firefox is running, or quit without a checkpoint): close Firefox, or copy both files and run sqlite3 COPY 'PRAGMA wal_checkpoint' on the copy\n")
    }

    @Test func errorPaths() throws {
        let missing = try Tool.run(["inspect", "/nonexistent/jar.sqlite"])
        #expect(missing.status == 3)
        #expect(missing.stderr.hasPrefix("cookiejar: /nonexistent/jar.sqlite: cannot read the file"))
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let garbage = directory.file("garbage.bin")
        try Data([0x00, 0x01, 0x02, 0xFF]).write(to: URL(fileURLWithPath: garbage))
        let unknown = try Tool.run(["inspect", garbage])
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("not a cookies.txt, swift-cookiejar JSON or binarycookies file"))
        let badImport = try Tool.run(["import", garbage, "--into", garbage + ".sqlite"])
        #expect(badImport.status == 3)
        #expect(!FileManager.default.fileExists(atPath: garbage + ".sqlite"), "nothing is created when the source is unreadable")
        #expect(try Tool.run(["inspect", "Tests/Samples/app-jar.sqlite", "--url", "nope"]).status == 2)
        #expect(try Tool.run(["inspect", "Tests/Samples/app-jar.sqlite", "--url", "https://a.test/", "--json"]).status == 2)
        // RFC 9110 §9.1: a method is a token (§5.6.2); a space or an empty method is none.
        for method in ["G ET", "", "GET\u{7F}", "ÉCRIRE"] {
            let run = try Tool.run(["inspect", "Tests/Samples/app-jar.sqlite", "--url", "https://a.test/", "--method", method])
            #expect(run.status == 2, "\(method)")
            #expect(run.stderr.contains("--method: not a method"), "\(run.stderr)")
        }
        for method in ["GET", "POST", "M-SEARCH", "get"] {
            #expect(try Tool.run(["inspect", "Tests/Samples/app-jar.sqlite", "--url", "https://a.test/", "--method", method]).status == 0)
        }
        #expect(try Tool.run(["export", "Tests/Samples/app-jar.sqlite", "--format", "xml"]).status == 2)
    }

    /// Copies to the `-wal` of `jar` the WAL of a sample jar whose connection is still open, with no checkpoint
    /// to empty it, and returns its bytes.
    func copyWALWithFrames(besideJarAt jar: String) throws -> Data {
        let source = try Tool.sampleJar(at: directory.file("source.sqlite"), changedBy: [])
        do {
            let connection = try SQLiteConnection(path: source, flags: .readWrite)
            try connection.execute("PRAGMA wal_autocheckpoint = 0; DELETE FROM cookies WHERE name = 'theme'")
            try FileManager.default.copyItem(atPath: source + "-wal", toPath: jar + "-wal")
        }
        let wal = try Data(contentsOf: URL(fileURLWithPath: jar + "-wal"))
        #expect(!wal.isEmpty)
        return wal
    }

    /// An empty jar file whose `-wal` holds frames, what a copy that lost the file's bytes leaves (SQLite writes
    /// a database's header to its file when it turns to WAL mode, so a WAL never lies beside an empty file
    /// otherwise: https://sqlite.org/fileformat2.html#file_format_version_numbers): `inspect` says the file is
    /// corrupt, where it read an empty cookies.txt, and `import --into` refuses it, where it made a new jar and
    /// SQLite deleted the `-wal`; one line on stderr naming the file, exit 3, and the file and its `-wal` left
    /// as they were (this project's contract).
    @Test func emptyJarFileWithFramesInItsWALIsUnreadable() throws {
        let jar = directory.file("jar.sqlite")
        try Data().write(to: URL(fileURLWithPath: jar))
        let wal = try copyWALWithFrames(besideJarAt: jar)
        let error = "cookiejar: \(jar): the file is empty while its -wal holds \(wal.count) bytes: "
            + "the database's main file was truncated or lost\n"
        for arguments in [["inspect", jar], ["import", "Tests/Samples/app-jar.json", "--into", jar]] {
            let run = try Tool.run(arguments + ["--at", Self.at])
            #expect(run.status == 3, "\(arguments[0])")
            #expect(run.stdout.isEmpty && run.stderr == error, "\(arguments[0])")
            let left = (FileManager.default.contents(atPath: jar), FileManager.default.contents(atPath: jar + "-wal"))
            #expect(left.0 == Data() && left.1 == wal, "\(arguments[0])")
            #expect(!FileManager.default.fileExists(atPath: jar + "-shm"), "\(arguments[0])")
        }
    }

    /// A jar file missing while its `-wal` holds frames, what is left of a jar whose file was deleted or not
    /// copied with its `-wal` (a jar's file is made before SQLite makes a `-wal` beside it): `import --into`
    /// refuses it as corrupt, where it created the file and SQLite deleted the `-wal`, and `inspect` cannot read
    /// a file that is not there; one line on stderr naming the file, exit 3, the `-wal` left as it was and
    /// nothing created (this project's contract).
    @Test func missingJarFileWithFramesInItsWALIsNotCreated() throws {
        let jar = directory.file("jar.sqlite")
        let wal = try copyWALWithFrames(besideJarAt: jar)
        let rows = [
            (["import", "Tests/Samples/app-jar.json", "--into", jar],
             "the file is missing while its -wal holds \(wal.count) bytes: the database's main file was lost"),
            (["inspect", jar], "cannot read the file: No such file or directory"),
        ]
        for (arguments, detail) in rows {
            let run = try Tool.run(arguments + ["--at", Self.at])
            #expect(run.status == 3, "\(arguments[0])")
            #expect(run.stdout.isEmpty && run.stderr == "cookiejar: \(jar): \(detail)\n", "\(arguments[0])")
            #expect(FileManager.default.contents(atPath: jar + "-wal") == wal, "\(arguments[0])")
            let made = ["", "-shm"].filter { FileManager.default.fileExists(atPath: jar + $0) }
            #expect(made.isEmpty, "\(arguments[0])")
        }
    }

    /// Masked values count Characters (extended grapheme clusters, UAX #29), as `String.count` and
    /// `prefix(2)` do, whether a value is plain ASCII (counted from its bytes) or not.
    @Test(arguments: ["ab", "abc", "7f3c9a0b1e2d", "\u{E9}", "e\u{301}x", "ab\u{301}c", "\u{1F36A}xyz", "\u{2022}\u{2022}\u{2022}"])
    func maskedValueCountsCharacters(_ value: String) throws {
        let file = directory.file("cookies.txt")
        try "a.test\tFALSE\t/\tFALSE\t0\tn\t\(value)\n".write(toFile: file, atomically: false, encoding: .utf8)
        let expected = value.count <= 2 ? String(repeating: "\u{2022}", count: value.count) : "\(value.prefix(2))\u{2026}(\(value.count))"
        let run = try Tool.run(["inspect", file, "--at", Self.at])
        let row = run.stdout.split(separator: "\n").first { $0.hasPrefix("  n ") }
        #expect(row?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) == expected)
    }

    @Test func noColorWhenPiped() throws {
        let run = try Tool.run(["inspect", "Tests/Samples/app-jar.sqlite", "--at", Self.at])
        #expect(!run.stdout.contains("\u{1B}["), "output to a pipe has no escape sequences")
    }

    /// A file argument of "-" is standard input, as in most tools (it was read as a file named "-": "No
    /// such file or directory"): a cookie file for inspect and export, a scenario file for replay.
    @Test(arguments: [
        (["inspect", "-", "--at", at], "Tests/Samples/app-jar.json", "7 cookies in 2 sites"),
        (["export", "-", "--format", "cookies.txt", "--at", at], "Tests/Samples/app-jar.json", "remember_me"),
        (["replay", "--check", "-"], "Tests/Samples/native-sign-in.json", "passed, 0 failed"),
    ])
    func aFileArgumentOfDashIsStandardInput(_ arguments: [String], _ input: String, _ expected: String) throws {
        let bytes = try Data(contentsOf: Tool.packageRoot.appendingPathComponent(input))
        let run = try Tool.run(arguments, stdinBytes: bytes)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(expected), "\(run.stdout)")
    }

    /// Standard input is named so in messages, whatever file it is read through (/dev/stdin), and a
    /// closed one (`<&-`) is said to be unreadable for what it is, as `explain` says it (where no
    /// /dev/stdin said "No such file or directory").
    @Test(arguments: [
        (["inspect", "-"], "garbage\n", nil, "cookiejar: standard input at byte 0: not a cookies.txt, swift-cookiejar JSON or binarycookies file\n"),
        (["inspect", "-"], nil, "<&-", "cookiejar: standard input: cannot read it: Bad file descriptor\n"),
    ] as [([String], String?, String?, String)])
    func standardInputIsNamedSo(_ arguments: [String], stdin: String?, shellWords: String?, stderr: String) throws {
        let run = try Tool.run(arguments, stdinBytes: stdin.map { Data($0.utf8) }, shellWords: shellWords)
        #expect(run.stderr == stderr)
        #expect(run.status == 3)
    }
}
