import Foundation
import TestSupport
import Testing

/// `cookiejar replay`, run as a sub-process: output, the ratchet, and error paths.
struct ReplayTests {
    let directory = TemporaryDirectory()

    /// Writes `text` to a fresh file in the test's directory and returns its path.
    func temporaryFile(_ text: String, suffix: String = ".json") throws -> String {
        let path = directory.file(UUID().uuidString + suffix)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    static let scenario = """
        {"cases": [
          {"id": "t/pass", "steps": [
            {"receive": {"url": "http://h.test/", "set_cookie": ["a=1", "b=2; Path=/x"]}, "at": 0},
            {"request": {"url": "http://h.test/x/y"}, "expect": "b=2; a=1", "at": 1}]},
          {"id": "t/fail", "steps": [
            {"receive": {"url": "http://h.test/", "set_cookie": ["a=1; Secure"]}, "at": 0},
            {"request": {"url": "http://h.test/"}, "expect": "a=1", "at": 1}]},
          {"id": "t/skip", "skip": "kept for reference", "steps": []}
        ]}
        """

    @Test func printsHeaders() throws {
        let file = try temporaryFile(Self.scenario)
        let run = try Tool.run(["replay", file])
        #expect(run.stdout == "t/pass #1: b=2; a=1\nt/fail #1: \n")
        #expect(run.status == 0)
    }

    @Test func checkReportsFailuresAndCounts() throws {
        let file = try temporaryFile(Self.scenario)
        let run = try Tool.run(["replay", "--check", file])
        #expect(run.stdout == "FAIL t/fail: step 1: GET http://h.test/: expected \"a=1\", got \"\"\n1 passed, 1 failed, 1 skipped\n")
        #expect(run.status == 1)
    }

    @Test func knownFailuresRatchet() throws {
        let file = try temporaryFile(Self.scenario)
        // LF or CRLF line ends (a file written on Windows) read alike.
        for newline in ["\n", "\r\n"] {
            let known = try temporaryFile("# comment\(newline)t/fail  bis-22 changed §5.7: Secure from http is ignored\(newline)", suffix: ".txt")
            let run = try Tool.run(["replay", "--check", "--known-failures", known, file])
            #expect(run.stdout == "1 passed, 0 failed, 1 skipped, 1 known\n", "\(newline.debugDescription)")
            #expect(run.status == 0)
        }
        let stale = try temporaryFile("t/pass  not yet: pretend\n", suffix: ".txt")
        let passing = try Tool.run(["replay", "--check", "--known-failures", stale, file])
        #expect(passing.stdout.contains("PASSES NOW t/pass"))
        #expect(passing.status == 1, "a listed case that passes must be removed from the list")
        let reasonless = try temporaryFile("t/fail\n", suffix: ".txt")
        let bad = try Tool.run(["replay", "--check", "--known-failures", reasonless, file])
        #expect(bad.status == 3)
        #expect(bad.stderr.contains(":1: the reason must start with one of"))
    }

    /// An input is read up to 256 MiB (as a cookie file is), so that an endless one ends in an error
    /// naming it, not in all of the machine's memory: a sparse file one byte larger.
    @Test func anInputOverTheLimitIsRefused() throws {
        let path = try temporaryFile("")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(256 << 20) + 1)
        try handle.close()
        let run = try Tool.run(["replay", path])
        #expect(run.status == 3)
        #expect(run.stderr == "cookiejar: \(path): cannot read the file: it is larger than 256 MiB\n", "\(run.stderr)")
    }

    @Test(arguments: [
        ("{\"cases\": [", "not valid JSON"),
        // An empty file (a failed download, a shell's `>`) is said to be empty, as the README says of input
        // files, not JSON that is invalid.
        ("", "empty file: no cases"),
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"at\": 1}]}]}", "cases[0].steps[0]"),
        ("{\"cases\": [{\"steps\": []}]}", "missing \"id\" at cases[0]"),
        // A misspelt member would leave its step unchecked.
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"request\": {\"url\": \"http://h.test/\"}, \"expected\": \"a=1\"}]}]}",
         "unknown member \"expected\" at cases[0].steps[0]"),
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"receive\": {\"url\": \"http://h.test/\", \"set_cookies\": []}}]}]}",
         "unknown member \"set_cookies\" at cases[0].steps[0].receive"),
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"request\": {\"url\": \"http://h.test/\", \"context\": {\"site_for_cookie\": null}}, \"expect\": \"\"}]}]}",
         "unknown member \"site_for_cookie\" at cases[0].steps[0].request.context"),
        // FORMAT.md: "api" is "document.cookie" or "non-http"; another value would make the step an HTTP one.
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"receive\": {\"url\": \"http://h.test/\", \"set_cookie\": [\"a=1\"], \"api\": \"document.cookies\"}}]}]}",
         "\"document.cookies\" is no api"),
        // FORMAT.md: "expect" is a request step's; on a receive or jar_content step it compared nothing.
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"receive\": {\"url\": \"http://h.test/\", \"set_cookie\": [\"a=1\"]}, \"expect\": \"a=1\"}]}]}",
         "\"expect\" is a request step's member, not a receive step's at cases[0].steps[0]"),
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"jar_content\": [\"a=1\"], \"expect\": \"a=1\"}]}]}",
         "\"expect\" is a request step's member, not a jar_content step's at cases[0].steps[0]"),
        // "at" is an instant `--at` takes: another would be clamped to an instant the step did not say.
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"receive\": {\"url\": \"http://h.test/\", \"set_cookie\": [\"a=1\"]}, \"at\": 1e30}]}]}",
         "\"at\" is 1e+30, not an instant from -11644473600 to 253367740799 Unix seconds at cases[0].steps[0]"),
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"request\": {\"url\": \"http://h.test/\"}, \"expect\": \"\", \"at\": -11644473601}]}]}",
         "not an instant from -11644473600"),
        // RFC 9110 §9.1: a method is a token; "G ET" is none, and no request could carry it.
        ("{\"cases\": [{\"id\": \"x\", \"steps\": [{\"request\": {\"url\": \"http://h.test/\", \"context\": {\"method\": \"G ET\"}}, \"expect\": \"\"}]}]}",
         "\"G ET\" is no method"),
    ])
    func malformedFilesNameFileAndPosition(text: String, message: String) throws {
        let file = try temporaryFile(text)
        let run = try Tool.run(["replay", file])
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("cookiejar: \(file): "))
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line")
    }

    /// `--check` passes only what it checked: a request step without "expect" is a failure (nothing was
    /// compared), and so is a case with nothing to check (no steps, or receive steps only: FORMAT.md, a
    /// case passes when every check passes, and it has none), which passed; files with no case to run
    /// (none, or all skipped) are no success; the options that only `--check` reads are refused without
    /// it (usage, exit 2).
    @Test func checkPassesOnlyWhatItChecked() throws {
        let unchecked = try temporaryFile("""
            {"cases": [{"id": "t/unchecked", "steps": [{"request": {"url": "http://h.test/"}, "at": 1}]}]}
            """)
        let run = try Tool.run(["replay", "--check", unchecked])
        #expect(run.stdout == "FAIL t/unchecked: step 0: a request without \"expect\": nothing to check\n0 passed, 1 failed\n")
        #expect(run.status == 1)
        #expect(try Tool.run(["replay", unchecked]).status == 0, "without --check, headers are printed")

        let nothing = "no request step with \"expect\" and no jar_content step: nothing was checked"
        let noChecks = try temporaryFile("""
            {"cases": [{"id": "t/empty", "steps": []},
              {"id": "t/receive", "steps": [{"receive": {"url": "http://h.test/", "set_cookie": ["a=1"]}, "at": 0}]},
              {"id": "t/pass", "steps": [{"request": {"url": "http://h.test/"}, "expect": "", "at": 1}]}]}
            """)
        let none = try Tool.run(["replay", "--check", noChecks])
        #expect(none.stdout == "FAIL t/empty: \(nothing)\nFAIL t/receive: \(nothing)\n1 passed, 2 failed\n")
        #expect(none.status == 1)

        for empty in ["{\"cases\": []}", "{\"cases\": [{\"id\": \"s\", \"skip\": \"reference\", \"steps\": []}]}"] {
            let none = try Tool.run(["replay", "--check", try temporaryFile(empty)])
            #expect(none.status == 1)
            #expect(none.stderr == "cookiejar: no case was checked: the files hold none that is not skipped\n")
        }

        let known = try temporaryFile("t/fail  not yet: pretend\n", suffix: ".txt")
        for options in [["--known-failures", known], ["--verbose"]] {
            let usage = try Tool.run(["replay"] + options + [unchecked])
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("needs --check"))
        }
        for twice in [["-", "-"], ["-", "--known-failures", "-"]] {
            let usage = try Tool.run(["replay", "--check"] + twice)
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("standard input ('-') can be read only once"))
        }
    }

    /// A scenario file or ratchet that cannot be read is named with the reason (the system's), exit 3.
    @Test(arguments: [
        (["/nonexistent/scenario.json"], "/nonexistent/scenario.json: cannot read the file: No such file or directory"),
        (["/tmp"], "/tmp: cannot read the file: Is a directory"),
        (["--check", "--known-failures", "/tmp", "Tests/Samples/native-sign-in.json"], "/tmp: cannot read the file: Is a directory"),
    ])
    func unreadableFileIsNamedWithTheReason(_ arguments: [String], _ message: String) throws {
        let run = try Tool.run(["replay"] + arguments)
        #expect(run.status == 3)
        #expect(run.stderr == "cookiejar: \(message)\n")
    }

    @Test func sampleShippedWithTheRepoPasses() throws {
        let run = try Tool.run(["replay", "--check", "Tests/Samples/native-sign-in.json"])
        #expect(run.stdout == "1 passed, 0 failed\n")
        #expect(run.status == 0)
    }
}
