import Foundation
import TestSupport
import Testing
@testable import Cookies

/// The compiled-in list, generated from the repository's public_suffix_list.dat (publicsuffix/list e8c9a2b,
/// 2026-08-19). Every expectation below was checked against that file's rules (line numbers as of that revision).
struct CompiledPublicSuffixListTests {
    /// Vectors in the style of publicsuffix/list tests/test_psl.txt (checkPublicSuffix(host, registrable domain)),
    /// the same facts Go's x/net/publicsuffix eTLDPlusOneTestCases take from it; our own table.
    static let listVectors: [(host: String, registrable: String?)] = [
        // Unlisted TLD: the implicit "*" rule.
        ("example", nil), ("example.example", "example.example"), ("b.example.example", "example.example"),
        // A TLD with one rule ("biz").
        ("biz", nil), ("domain.biz", "domain.biz"), ("a.b.domain.biz", "domain.biz"),
        // Second-level rules ("com", "uk.com" in the PRIVATE section, "ac").
        ("com", nil), ("a.b.example.com", "example.com"), ("uk.com", nil), ("b.example.uk.com", "example.uk.com"),
        ("test.ac", "test.ac"),
        // A TLD with only a wildcard rule ("*.mm", line 4142).
        ("mm", nil), ("c.mm", nil), ("b.c.mm", "b.c.mm"), ("a.b.c.mm", "b.c.mm"),
        // Japan: "kyoto.jp", "ide.kyoto.jp", "*.kobe.jp" with "!city.kobe.jp".
        ("jp", nil), ("test.jp", "test.jp"), ("ac.jp", nil), ("www.test.ac.jp", "test.ac.jp"),
        ("kyoto.jp", nil), ("test.kyoto.jp", "test.kyoto.jp"), ("ide.kyoto.jp", nil),
        ("a.b.ide.kyoto.jp", "b.ide.kyoto.jp"), ("c.kobe.jp", nil), ("a.b.c.kobe.jp", "b.c.kobe.jp"),
        ("city.kobe.jp", "city.kobe.jp"), ("www.city.kobe.jp", "city.kobe.jp"),
        // A wildcard TLD with an exception ("*.ck", "!www.ck", lines 794-795).
        ("ck", nil), ("test.ck", nil), ("a.b.test.ck", "b.test.ck"), ("www.ck", "www.ck"), ("www.www.ck", "www.ck"),
        // US K12.
        ("us", nil), ("ak.us", nil), ("k12.ak.us", nil), ("www.test.k12.ak.us", "test.k12.ak.us"),
        // IDN rules, stored as A-labels ("公司.cn" line 822, "中国").
        ("xn--85x722f.com.cn", "xn--85x722f.com.cn"), ("www.xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
        ("xn--55qx5d.cn", nil), ("shishi.xn--fiqs8s", "shishi.xn--fiqs8s"), ("xn--fiqs8s", nil),
    ]

    /// Public suffixes in the style of Go's x/net/publicsuffix publicSuffixTestCases, as registrable domains.
    /// Where the newest list or the wildcard refinement (libpsl's, and browsers') differs from Go's table, the
    /// comment says so.
    static let goStyleVectors: [(host: String, registrable: String?)] = [
        ("ao", nil), ("www.ao", "www.ao"), ("pb.ao", nil), ("www.xxx.yyy.zzz.pb.ao", "zzz.pb.ao"),
        ("arpa", nil), ("urn.arpa", nil), ("www.xxx.yyy.zzz.urn.arpa", "zzz.urn.arpa"),
        ("uk", nil), ("aaa.uk", "aaa.uk"), ("mod.uk", "mod.uk"),
        // "*.sch.uk" (line 6075): Go answers "uk" for sch.uk; the name a wildcard hangs from is a suffix here.
        ("sch.uk", nil), ("mod.sch.uk", nil), ("www.mod.sch.uk", "www.mod.sch.uk"),
        // "*.kobe.jp": the same refinement for kobe.jp.
        ("kobe.jp", nil),
        ("xn--p1ai", nil), ("www.xxx.yyy.xn--p1ai", "yyy.xn--p1ai"),
        // .bd was "*.bd" in Go's list; the newest list has "bd" and second-level rules (lines 334-343).
        ("bd", nil), ("com.bd", nil), ("zzz.bd", "zzz.bd"), ("www.zzz.bd", "zzz.bd"),
        ("nosuchtld", nil), ("bar.foo.nosuchtld", "foo.nosuchtld"),
    ]

    /// The PRIVATE section applies to cookies too (rfc6265bis-22 §5.7 step 9 speaks of "public suffixes" as the
    /// list defines them; browsers use both sections).
    static let privateSectionVectors: [(host: String, registrable: String?)] = [
        ("github.io", nil), ("user.github.io", "user.github.io"), ("a.user.github.io", "user.github.io"),
        ("blogspot.com", nil), ("x.blogspot.com", "x.blogspot.com"),
        ("s3.amazonaws.com", nil), ("bucket.s3.amazonaws.com", "bucket.s3.amazonaws.com"),
        // "*.compute.amazonaws.com" (line 11492).
        ("eu-1.compute.amazonaws.com", nil), ("ec2.eu-1.compute.amazonaws.com", "ec2.eu-1.compute.amazonaws.com"),
        ("dyndns.org", nil), ("go.dyndns.org", nil), ("foo.go.dyndns.org", "foo.go.dyndns.org"),
        ("pages.dev", nil), ("vercel.app", nil), ("my-app.vercel.app", "my-app.vercel.app"),
    ]

    @Test(arguments: listVectors + goStyleVectors + privateSectionVectors)
    func registrableDomain(host: String, registrable: String?) {
        #expect(CompiledPublicSuffixList.shared.registrableDomain(of: host) == registrable)
    }

    /// Hosts as a request gives them (Unicode, upper case, a trailing dot) reach the list canonicalised
    /// (CanonicalHost: IDNA ToASCII, RFC 5891 §4.4).
    @Test(arguments: [
        ("食狮.公司.cn", "xn--85x722f.xn--55qx5d.cn"),
        ("www.食狮.中国", "xn--85x722f.xn--fiqs8s"),
        ("WwW.Example.COM", "example.com"),
        ("user.GitHub.io.", "user.github.io."),
        ("bücher.example", "xn--bcher-kva.example"),
    ])
    func canonicalHosts(text: String, registrable: String) throws {
        let host = try #require(CanonicalHost(text))
        #expect(CompiledPublicSuffixList.shared.registrableDomain(of: host) == registrable)
    }

    /// A name longer than a DNS name (253 bytes) or with a label over 63 bytes is still answered from its last
    /// labels, without trapping: the list does not judge a name's length.
    @Test func longNames() {
        let list = CompiledPublicSuffixList.shared
        let manyLabels = String(repeating: "a.", count: 200) + "example.co.uk"
        #expect(manyLabels.utf8.count > 253)
        #expect(list.registrableDomain(of: manyLabels) == "example.co.uk")
        let longLabel = String(repeating: "x", count: 300) + ".github.io"
        #expect(list.registrableDomain(of: longLabel) == longLabel)
        #expect(list.registrableDomain(of: String(repeating: "z", count: 300)) == nil)
    }

    /// What the list says of itself matches the files it was generated from.
    @Test func info() throws {
        let info = try #require(CompiledPublicSuffixList.shared.info)
        #expect(info.source == .compiledIn)
        #expect(info.ruleCount == CompiledPublicSuffixList.ruleCount)
        #expect(info.ruleCount == 10_248)  // non-comment lines of the .dat: grep -v '^//' | grep -c .
        #expect(info.revision == CompiledPublicSuffixList.revision)
        #expect(info.sha256 == CompiledPublicSuffixList.sha256)
        #expect(info.date == CookieTime(secondsSinceEpoch: Int64(1_787_097_600)))  // 2026-08-19T00:00:00Z
        let revisionFile = try String(
            contentsOf: Self.folder.appendingPathComponent("public_suffix_list.revision"), encoding: .utf8)
        #expect(revisionFile == CompiledPublicSuffixList.revision + " 2026-08-19\n")
    }

    /// The compiled-in list answers as the same .dat read at run time by `PublicSuffixRules` (and by libpsl, when
    /// linked), on every rule's name, names below it, and its parent.
    @Test func agreesWithTheListFile() throws {
        let path = Self.folder.appendingPathComponent("public_suffix_list.dat").path
        var references: [(String, any PublicSuffixList)] = [
            ("PublicSuffixRules", try PublicSuffixRules(contentsOfFile: path))
        ]
        #if LibPSL && canImport(CLibPSL)
        references.append(("LibPSLList", try LibPSLList(contentsOfFile: path)))
        #endif
        let hosts = try PublicSuffixDifferentialHosts.generated(fromListAt: path)
        #expect(hosts.count > 40_000)
        let compiled = CompiledPublicSuffixList.shared
        for (name, reference) in references {
            let mismatches = hosts.filter { compiled.registrableDomain(of: $0) != reference.registrableDomain(of: $0) }
            #expect(
                mismatches.isEmpty, "\(name): \(mismatches.count) of \(hosts.count) differ: \(mismatches.prefix(20))")
        }
    }

    /// The committed Swift file is what the generator makes of the committed .dat and revision (the check CI runs).
    @Test func generatedFileMatchesItsGenerator() throws {
        let check = try Self.runGenerator(["check"])
        #expect(check.status == 0, "\(check.output)")
    }

    /// `PublicSuffixListGenerator` run with `arguments`: its exit status and output (stdout and stderr).
    static func runGenerator(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try builtExecutablePath(named: "PublicSuffixListGenerator"))
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// `PublicSuffixListGenerator verify FILE` of a file holding `contents`.
    static func verify(_ contents: [UInt8]) throws -> (status: Int32, output: String) {
        let directory = TemporaryDirectory()
        let file = directory.file("list.dat")
        try Data(contents).write(to: URL(fileURLWithPath: file))
        return try runGenerator(["verify", file])
    }

    /// The generator takes only a whole list (`update` checks it as `verify` does, before it writes): the
    /// published one, also with CRLF line ends, whose rules it then reads all; not a list with a line that is
    /// no rule (an error page), cut short (a section begun and not ended), or without its PRIVATE section.
    @Test func theGeneratorTakesOnlyAWholeList() throws {
        let list = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("public_suffix_list.dat")))
        let crlf = list.split(separator: 0x0A, omittingEmptySubsequences: false).joined(separator: [0x0D, 0x0A]).map { $0 }
        for taken in [list, crlf] {
            let verified = try Self.verify(taken)
            #expect(verified.status == 0, "\(verified.output)")
            #expect(verified.output.hasSuffix(": a complete list of \(CompiledPublicSuffixList.ruleCount) rules\n"), "\(verified.output)")
        }
        let end = Array("// ===END ICANN DOMAINS===".utf8)
        let icannEnd = try #require((0...(list.count - end.count)).first { list[$0..<$0 + end.count].elementsEqual(end) })
        for (broken, message) in [
            (Array("com\nco.uk\n<html>\n// ===BEGIN ICANN DOMAINS===\n// ===END ICANN DOMAINS===\n".utf8), "line 3: \"<html>\""),
            (Array(list.prefix(120_000)), "its ICANN DOMAINS section does not end"),
            (Array(list.prefix(icannEnd + end.count)) + [0x0A], "it has no PRIVATE DOMAINS section"),
        ] {
            let refused = try Self.verify(broken)
            #expect(refused.status == 1 && refused.output.contains(message), "\(refused.output)")
        }
    }

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Cookies/PublicSuffix")
}
