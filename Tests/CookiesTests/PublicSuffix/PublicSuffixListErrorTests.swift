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
