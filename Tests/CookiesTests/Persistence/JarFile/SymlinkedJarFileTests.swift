import Foundation
import TestSupport
import Testing

@testable import Cookies

/// A jar file reached through a symbolic link in another directory. SQLite follows the link (unless opened
/// with SQLITE_OPEN_NOFOLLOW, https://sqlite.org/c3ref/open.html), names the database by its target, and
/// keeps the `-wal` and `-shm` beside that, not beside the link: which companions the file has, whether its
/// directory can take new ones, and how to read it without writing are found there (this project's contract).
/// Root writes files whatever their modes: run as root, the tests make a directory immutable (chattr +i).
@Suite(.enabled(if: canMakeFilesReadOnly, "needs a non-root user or chattr (root ignores file modes)"))
struct SymlinkedJarFileTests {
    let linkDirectory = TemporaryDirectory()
    let targetDirectory = TemporaryDirectory()
    /// The path the tests give: a link to `target`.
    var link: String { linkDirectory.file("cookies.sqlite") }
    var target: String { targetDirectory.file("cookies.sqlite") }

    init() throws {
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    }

    /// The entries of both directories, and the bytes of the target and its WAL.
    func state() throws -> (link: [String], target: [String], file: Data?, wal: Data?) {
        (
            try FileManager.default.contentsOfDirectory(atPath: linkDirectory.path).sorted(),
            try FileManager.default.contentsOfDirectory(atPath: targetDirectory.path).sorted(),
            fileBytes(target), fileBytes(target + "-wal")
        )
    }

    /// Reading without writing through the link finds the target's `-wal` and `-shm`, and so every committed
    /// change, the WAL's included (looked for beside the link, they were missed and the file read immutable,
    /// without the WAL's changes); nothing is created in either directory.
    @Test(arguments: JarFileCompanions.allCases)
    func readingThroughALinkReadsTheTargetsWAL(_ companions: JarFileCompanions) throws {
        try makeJarFile(at: target, leaving: companions)
        let before = try state()

        #expect(try CookieDatabase.snapshot(link).count == companions.cookieCount)
        let after = try state()
        #expect(after.link == before.link && after.target == before.target)
        #expect(after.file == before.file && after.wal == before.wal)
    }

    /// The directory that cannot be written.
    enum ReadOnlyDirectory: CaseIterable {
        case link, target
    }

    /// Opening as a jar through the link checks that the target's directory, where SQLite makes the `-wal`
    /// and `-shm`, can take them: a link in a directory that cannot be written opens and writes, while a
    /// target in one throws `.readOnly`, naming the path given, with nothing made in either directory.
    @Test(arguments: ReadOnlyDirectory.allCases)
    func openingThroughALinkChecksTheTargetsDirectory(_ readOnly: ReadOnlyDirectory) throws {
        try makeJarFile(at: target, leaving: .none)
        let directory = readOnly == .link ? linkDirectory.path : targetDirectory.path
        try makeReadOnly(directory, true)
        defer { try? makeReadOnly(directory, false) }
        let before = try state()

        switch readOnly {
        case .link:
            let jar = try openTestJar(link)
            #expect(jar.count == 50)
            jar.setCookie("new=1; Max-Age=3600", from: url("https://example.com/"))
            try jar.close()
            #expect(try openTestJar(link).count == 51)
        case .target:
            #expect {
                try openTestJar(link)
            } throws: { error in
                let error = error as! CookieFileError
                return error.code == .readOnly && error.path == link
            }
            let after = try state()
            #expect(after.link == before.link && after.target == before.target)
            #expect(after.file == before.file)
        }
    }

    /// `.moveAside` through a link moves the link's target aside where it is, with the `-wal` and `-shm`
    /// beside it, and makes the new jar through the link, which stays (this project's contract,
    /// `CookieFileSystem.moveAside(_:ifStill:seconds:)`): moving the link instead left the damaged target and
    /// its WAL in place and put a plain file where the link was, out of the directory the link pointed to.
    @Test func moveAsideThroughALinkMovesTheTarget() throws {
        try makeJarFile(at: target, leaving: .none)
        try runSQL(
            "PRAGMA ignore_check_constraints = ON; UPDATE cookies SET same_site = 7 WHERE name = 'c3';", on: target)
        try leave(.walAndShm, beside: target)
        let before = try state()
        var options = testFileOptions()
        options.unreadableFile = .moveAside
        let jar = try openTestJar(link, options: options)
        #expect(jar.count == 0)
        jar.setCookie("fresh=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()

        let aside = "\(target).corrupt-\(testEpoch.secondsSinceEpoch)"
        #expect(fileBytes(aside) == before.file && fileBytes(aside + "-wal") == before.wal)
        #expect(FileManager.default.fileExists(atPath: aside + "-shm"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target, "the link stays")
        #expect(try FileManager.default.contentsOfDirectory(atPath: linkDirectory.path) == before.link)
        #expect(try openTestJar(target).allCookies().map(\.name) == ["fresh"], "the new jar is the link's target")
    }

    /// A link to a file not yet created makes the new jar at its target, relative links and chains of
    /// links included, as SQLite resolves a link itself (this project's contract,
    /// `CookieFileSystem.resolvedPath`); the link stays.
    @Test(arguments: ["absolute", "relative", "chain"])
    func newJarThroughALinkIsMadeAtItsTarget(_ how: String) throws {
        try FileManager.default.removeItem(atPath: link)
        switch how {
        case "absolute":
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        case "relative":
            try FileManager.default.createSymbolicLink(
                atPath: link, withDestinationPath: "../" + URL(fileURLWithPath: targetDirectory.path).lastPathComponent + "/cookies.sqlite")
        default:
            let middle = linkDirectory.file("middle.sqlite")
            try FileManager.default.createSymbolicLink(atPath: middle, withDestinationPath: target)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "middle.sqlite")
        }
        let jar = try openTestJar(link)
        jar.setCookie("fresh=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()
        #expect(try openTestJar(target).allCookies().map(\.name) == ["fresh"])
        #expect(try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType == .typeSymbolicLink)
    }

    /// A refused file (here a row that is no cookie) whose target has a `-wal` and `-shm` left beside it keeps
    /// them, and keeps its bytes: found there, the WAL is not this opening's, and its transactions are not
    /// checkpointed into the refused file (this project's contract, `CookieDatabase`).
    @Test func refusedFileThroughALinkKeepsTheTargetsWAL() throws {
        try makeJarFile(at: target, leaving: .none)
        try runSQL(
            "PRAGMA ignore_check_constraints = ON; UPDATE cookies SET same_site = 7 WHERE name = 'c3';", on: target)
        try leave(.walAndShm, beside: target)
        let before = try state()

        #expect {
            try openTestJar(link)
        } throws: { error in
            (error as! CookieFileError).code == .corrupt
        }
        let after = try state()
        #expect(after.link == before.link && after.target == before.target)
        #expect(after.file == before.file && after.wal == before.wal)
    }
}
