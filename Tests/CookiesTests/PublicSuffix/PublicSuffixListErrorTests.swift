import Foundation
import Testing
@testable import Cookies

/// Loading failures. Facts: PublicSuffixListError's contract (a missing or unreadable file is `.unreadable`, a file
/// without rules is `.empty`; the message names the file) and libpsl's `psl_load_file`, which returns NULL for both.
struct PublicSuffixListErrorTests {
    private static let loaders: [(name: String, load: @Sendable (String) throws(PublicSuffixListError) -> Void)] = {
        var loaders: [(name: String, load: @Sendable (String) throws(PublicSuffixListError) -> Void)] = [
            ("PublicSuffixRules", { path throws(PublicSuffixListError) in _ = try PublicSuffixRules(contentsOfFile: path) }),
        ]
        #if LibPSL && canImport(CLibPSL)
        loaders.append(("LibPSLList", { path throws(PublicSuffixListError) in _ = try LibPSLList(contentsOfFile: path) }))
        #endif
        return loaders
    }()

    private static func temporaryFile(_ contents: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("psl-\(UUID().uuidString).dat")
        try contents.write(to: url, atomically: false, encoding: .utf8)
        return url.path
    }

    private static let cases: [(label: String, contents: String?, code: PublicSuffixListError.Code)] = [
        ("missing file", nil, .unreadable),
        ("empty file", "", .empty),
        ("comments and blank lines only", "// ===BEGIN ICANN DOMAINS===\n\n// com\n   \n", .empty),
    ]

    @Test(arguments: cases)
    func loadFails(label: String, contents: String?, code: PublicSuffixListError.Code) throws {
        let path = try contents.map(Self.temporaryFile) ?? "/nonexistent/psl-\(UUID().uuidString).dat"
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (name, load) in Self.loaders {
            let error = #expect(throws: PublicSuffixListError.self, "\(name): \(label)") { try load(path) }
            #expect(error?.code == code && error?.path == path, "\(name): \(label)")
            #expect(error?.description.contains(path) == true)
        }
    }

    /// A file that is no complete list is refused (`.notAList`, the reason saying why): an error page saved
    /// in the list's place, whose few lines that read as names would make a list protecting no suffix, and
    /// a download cut short, missing every rule after the cut (the publicsuffix.org format marks its
    /// sections `===BEGIN …===` and `===END …===`). A list without markers, or whose sections all end, loads.
    /// libpsl's loader is given a text list only once it passed the same checks (a DAFSA file, its own
    /// format, is libpsl's to check).
    @Test(arguments: [
        ("an error page", "com\nco.uk\n<html><body>Sign in</body></html>\n",
         "line 3: \"<html><body>Sign\" is no public suffix rule (a domain name, or one after \"*.\" or \"!\")"),
        ("cut in the ICANN section", "// ===BEGIN ICANN DOMAINS===\ncom\nco.uk\n",
         "its ICANN DOMAINS section does not end (no \"===END ICANN DOMAINS===\"): the file was cut short"),
        ("cut in the PRIVATE section",
         "// ===BEGIN ICANN DOMAINS===\ncom\n// ===END ICANN DOMAINS===\n// ===BEGIN PRIVATE DOMAINS===\ngithub.io\n",
         "its PRIVATE DOMAINS section does not end (no \"===END PRIVATE DOMAINS===\"): the file was cut short"),
        ("complete", "// ===BEGIN ICANN DOMAINS===\ncom\n// ===END ICANN DOMAINS===\n", nil),
        ("without markers", "com\nco.uk\n", nil),
    ] as [(String, String, String?)])
    func aFileThatIsNoCompleteListIsRefused(_ label: String, _ contents: String, _ reason: String?) throws {
        let path = try Self.temporaryFile(contents)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (name, load) in Self.loaders {
            guard let reason else {
                #expect(throws: Never.self, "\(name): \(label)") { try load(path) }
                continue
            }
            let error = #expect(throws: PublicSuffixListError.self, "\(name): \(label)") { try load(path) }
            #expect(error?.code == .notAList && error?.reason == reason, "\(name): \(label)")
            #expect(error?.description == "'\(path)' is no complete public suffix list: \(reason)")
        }
    }

    /// A text list saved with a UTF-8 byte order mark (an editor's "UTF-8 with BOM") loads with its first line
    /// a rule, in both lists (libpsl 0.21 skips the mark itself).
    @Test func aListWithAByteOrderMarkLoadsItsFirstRule() throws {
        let path = try Self.temporaryFile("\u{FEFF}co.uk\ncom\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var lists: [(String, any PublicSuffixList)] = [("PublicSuffixRules", try PublicSuffixRules(contentsOfFile: path))]
        #if LibPSL && canImport(CLibPSL)
        lists.append(("LibPSLList", try LibPSLList(contentsOfFile: path)))
        #endif
        for (name, list) in lists {
            #expect(list.registrableDomain(of: "www.example.co.uk") == "example.co.uk", "\(name)")
            #expect(list.isPublicSuffix("co.uk"), "\(name)")
        }
    }

    #if LibPSL && canImport(CLibPSL)
    /// A list in libpsl's DAFSA format (binary, no text lines) is libpsl's to check: not refused as no list.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/publicsuffix/public_suffix_list.dafsa"), "needs Debian's publicsuffix package"))
    func aDAFSAFileIsLibpslsToRead() throws {
        let list = try LibPSLList(contentsOfFile: "/usr/share/publicsuffix/public_suffix_list.dafsa")
        #expect(list.isPublicSuffix("co.uk") && !list.isPublicSuffix("example.co.uk"))
    }
    #endif

    @Test func directoryIsUnreadable() {
        let path = FileManager.default.temporaryDirectory.path
        for (name, load) in Self.loaders {
            let error = #expect(throws: PublicSuffixListError.self, "\(name)") { try load(path) }
            #expect(error?.code == .unreadable && error?.path == path, "\(name)")
        }
    }

    /// The reason a file could not be read is the system's (open(2), read(2): ENOENT, EISDIR), said after
    /// the file's name; libpsl's `psl_load_file` tells none.
    @Test(arguments: [
        ("/nonexistent/psl.dat", "cannot read public suffix list file '/nonexistent/psl.dat': No such file or directory"),
        ("/tmp", "cannot read public suffix list file '/tmp': Is a directory"),
    ])
    func theReasonAFileCannotBeReadIsSaid(_ path: String, _ message: String) {
        let error = #expect(throws: PublicSuffixListError.self) { _ = try PublicSuffixRules(contentsOfFile: path) }
        #expect(error?.description == message)
    }

    @Test func messageIsOneLineNamingTheFile() {
        #expect(PublicSuffixListError(code: .unreadable, path: "/x/list.dat").description
            == "cannot read public suffix list file '/x/list.dat'")
        #expect(PublicSuffixListError(code: .empty, path: "/x/list.dat").description
            == "public suffix list file '/x/list.dat' contains no rules")
    }
}
