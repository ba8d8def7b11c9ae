import Foundation
import TestSupport
import Testing

@testable import Cookies

/// A jar file that can be read but not written: the file, its directory, or everything (as on a read-only
/// medium). Reading it without writing (`CookieImportFile.read`, what `cookiejar inspect` and `export` do)
/// reads every committed change, its WAL's too, and leaves the directory as it was; opening it as a jar
/// throws `.readOnly` before anything is read, and changes nothing. Facts: SQLite's rules for reading a
/// WAL database that cannot be written (https://sqlite.org/wal.html#readonly: the `-wal` and `-shm` must
/// exist, or be creatable, or the file be opened immutable; https://sqlite.org/wal.html#noshm: a WAL read
/// in EXCLUSIVE locking mode needs no `-shm`), and this project's contract for the rest. Root writes files
/// whatever their modes: run as root, the tests make the files immutable (chattr +i), which the kernel
/// enforces for root too (no write to such a file, no new entry in such a directory).
@Suite(.enabled(if: canMakeFilesReadOnly, "needs a non-root user or chattr (root ignores file modes)"))
struct ReadOnlyJarFileTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// What cannot be written.
    enum Unwritable: CaseIterable {
        case file, directory
        /// The directory, the file and the companions SQLite left beside it: a read-only medium.
        case everything
    }

    /// Makes `unwritable` unwritable (or writable again).
    func makeUnwritable(_ unwritable: Unwritable, _ readOnly: Bool) throws {
        let files = [path, path + "-wal", path + "-shm"].filter { FileManager.default.fileExists(atPath: $0) }
        let targets =
            switch unwritable {
            case .file: [path]
            case .directory: [directory.path]
            case .everything: files + [directory.path]
            }
        for target in targets { try makeReadOnly(target, readOnly) }
    }

    /// The directory's entries, and the bytes of the jar file and its WAL (the `-shm` is SQLite's shared
    /// memory, which any reader may write to where it can).
    func state() throws -> (entries: [String], file: Data?, wal: Data?) {
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return (entries, fileBytes(path), fileBytes(path + "-wal"))
    }

    /// Reading without writing reads every committed change, the WAL's included, creates nothing beside the
    /// file and changes nothing in it.
    @Test(arguments: Unwritable.allCases, JarFileCompanions.allCases)
    func readingWithoutWritingReadsEveryChangeAndCreatesNothing(
        _ unwritable: Unwritable, _ companions: JarFileCompanions
    ) throws {
        try makeJarFile(at: path, leaving: companions)
        try makeUnwritable(unwritable, true)
        defer { try? makeUnwritable(unwritable, false) }
        let before = try state()

        let contents = try CookieImportFile.read(path: path, now: testEpoch)
        #expect(contents.format == .sqlite)
        #expect(contents.cookies.count == companions.cookieCount)
        let after = try state()
        #expect(after.entries == before.entries)
        #expect(after.file == before.file && after.wal == before.wal)
    }

    /// Opening it as a jar throws `.readOnly` naming the file, before anything is read: nothing is created
    /// beside the file, nothing in it changes. A directory that cannot be written does not stop a jar whose
    /// `-wal` and `-shm` are there: SQLite makes them only when they are missing, and writes the file through
    /// them.
    @Test(arguments: Unwritable.allCases, JarFileCompanions.allCases)
    func openingAsAJarThrowsReadOnlyAndChangesNothing(_ unwritable: Unwritable, _ companions: JarFileCompanions) throws {
        try makeJarFile(at: path, leaving: companions)
        try makeUnwritable(unwritable, true)
        defer { try? makeUnwritable(unwritable, false) }
        let before = try state()

        if unwritable == .directory && companions == .walAndShm {
            let jar = try openTestJar(path)
            #expect(jar.count == companions.cookieCount)
            jar.setCookie("new=1; Max-Age=3600", from: url("https://example.com/"))
            try jar.close()
            #expect(try openTestJar(path).count == companions.cookieCount + 1)
            return
        }
        #expect {
            try openTestJar(path)
        } throws: { error in
            let error = error as! CookieFileError
            return error.code == .readOnly && error.path == path && error.description.hasPrefix(path + ": ")
        }
        let after = try state()
        #expect(after.entries == before.entries)
        #expect(after.file == before.file && after.wal == before.wal)
    }

    /// A new jar in a directory that cannot be written throws `.readOnly` too, whatever the kernel's reason
    /// (EACCES for permissions, EPERM for an immutable directory, EROFS for a read-only file system).
    @Test func creatingAJarInADirectoryThatCannotBeWrittenThrowsReadOnly() throws {
        try makeUnwritable(.directory, true)
        defer { try? makeUnwritable(.directory, false) }
        #expect {
            try openTestJar(path)
        } throws: { error in
            (error as! CookieFileError).code == .readOnly
        }
        #expect(try state().entries == [])
    }
}

/// True when a test can make a file unwritable for this process: tried on a scratch file (root
/// needs chattr and a file system that supports the immutable attribute).
let canMakeFilesReadOnly: Bool = {
    let directory = TemporaryDirectory()
    let probe = directory.file("probe")
    guard FileManager.default.createFile(atPath: probe, contents: Data()) else { return false }
    guard (try? makeReadOnly(probe, true)) != nil else { return false }
    defer { try? makeReadOnly(probe, false) }
    return FileHandle(forWritingAtPath: probe) == nil
}()

/// Makes the file or directory at `path` unwritable (0400, or 0500 for a directory, and immutable when
/// running as root) or writable again (0600, or 0700).
func makeReadOnly(_ path: String, _ readOnly: Bool) throws {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    let search = isDirectory.boolValue ? 0o100 : 0
    if readOnly { try FileManager.default.setAttributes([.posixPermissions: 0o400 | search], ofItemAtPath: path) }
    if getuid() == 0 {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else { throw CocoaError(.fileWriteNoPermission) }
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.arguments = [readOnly ? "+i" : "-i", path]
        try chattr.run()
        chattr.waitUntilExit()
        guard chattr.terminationStatus == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }
    if !readOnly { try FileManager.default.setAttributes([.posixPermissions: 0o600 | search], ofItemAtPath: path) }
}
