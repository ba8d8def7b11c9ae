import Foundation
import TestSupport
import Testing

@testable import Cookies

/// A jar file of zero bytes. SQLite takes an empty file for a new, empty database, and at its first read
/// deletes the `-wal` it finds beside one, frames and all (`pagerOpenWalIfPresent` in SQLite's pager.c). A
/// database in WAL mode never has an empty file while its WAL holds frames: SQLite writes the header, which
/// says WAL (https://sqlite.org/fileformat2.html#file_format_version_numbers), to the file when the database
/// turns to WAL mode, a new one's too. Such a pair is what is left of a database whose file was truncated or
/// lost in a copy: refused as corrupt, and left as it is; an empty file with no frames beside it is a new jar
/// (this project's contract, `CookieDatabase`).
@Suite struct EmptyJarFileTests {
    let directory = TemporaryDirectory()
    /// Where the jar whose `-wal` is copied is made.
    let sourceDirectory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// What lies beside the empty file.
    enum Beside: String, CaseIterable {
        /// Nothing: a file made empty to start a jar (`touch`), or left so by a process that ended before
        /// writing its schema.
        case nothing
        /// An empty `-wal`, which holds no frame (https://sqlite.org/walformat.html: a WAL is a 32-byte
        /// header and then its frames).
        case emptyWAL
        /// The `-wal` of another jar, holding the frames of a committed change, copied without its file's bytes.
        case walFrames
        /// The same `-wal`, and its `-shm` index.
        case walFramesAndShm
        /// The same `-wal`, beside an empty file reached through a symbolic link: SQLite opens the link's target
        /// and keeps the `-wal` beside it (https://sqlite.org/c3ref/open.html, SQLITE_OPEN_NOFOLLOW).
        case walFramesBesideALinksTarget

        var holdsFrames: Bool { self != .nothing && self != .emptyWAL }
    }

    /// The empty file of `beside`: at `path`, or for `walFramesBesideALinksTarget` at the target of the link
    /// `path` is. Returns the file the `-wal` and `-shm` are beside.
    func makeEmptyFile(_ beside: Beside) throws -> String {
        let file = beside == .walFramesBesideALinksTarget ? directory.file("target.sqlite") : path
        if file != path { try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: file) }
        try Data().write(to: URL(fileURLWithPath: file))
        switch beside {
        case .nothing:
            break
        case .emptyWAL:
            try Data().write(to: URL(fileURLWithPath: file + "-wal"))
        case .walFrames, .walFramesAndShm, .walFramesBesideALinksTarget:
            let source = sourceDirectory.file("cookies.sqlite")
            try makeJarFile(at: source, leaving: beside == .walFramesAndShm ? .walAndShm : .wal)
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: file + suffix)
            }
        }
        return file
    }

    /// The names in the test's directory, and the bytes of the empty file, its `-wal` and its `-shm`.
    func state(of file: String) throws -> (entries: [String], bytes: [Data?]) {
        (
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(),
            ["", "-wal", "-shm"].map { fileBytes(file + $0) }
        )
    }

    /// How a test reads the file: as a jar (`CookieJar(contentsOf:)`, what `cookiejar import --into` opens), or
    /// without writing (`CookieDatabase.snapshot`, and `CookieImportFile.read`, which tells the format and
    /// reads a jar through it, for `cookiejar inspect` and `export`).
    enum Opening: CaseIterable {
        case asJar, snapshot, importFile
    }

    /// An empty file whose `-wal` holds frames is refused as corrupt, naming the file and the bytes of its `-wal`,
    /// before SQLite opens it: the file, its `-wal` and its `-shm` keep their bytes, and nothing is made beside
    /// them (opened, SQLite took the file for a new jar, deleting the `-wal`; `CookieImportFile.read` took it
    /// for an empty cookies.txt).
    @Test(arguments: Beside.allCases.filter(\.holdsFrames), Opening.allCases)
    func emptyFileWithFramesBesideItIsRefusedAndLeftAsItIs(_ beside: Beside, _ opening: Opening) throws {
        let file = try makeEmptyFile(beside)
        let before = try state(of: file)
        let walSize = try #require(before.bytes[1]?.count)
        #expect(walSize > 0)
        #expect {
            switch opening {
            case .asJar: _ = try openTestJar(path)
            case .snapshot: _ = try CookieDatabase.snapshot(path)
            case .importFile: _ = try CookieImportFile.read(path: path, now: testEpoch)
            }
        } throws: { error in
            (error as? CookieFileError).map {
                $0.code == .corrupt
                    && $0.description == "\(path): the file is empty while its -wal holds \(walSize) bytes: "
                        + "the database's main file was truncated or lost"
            } == true
        }
        let after = try state(of: file)
        #expect(after.entries == before.entries)
        #expect(after.bytes == before.bytes)
    }

    /// `.moveAside` moves the empty file aside with its `-wal` and `-shm`, the frames kept, and starts a new jar
    /// (`CookieJarFileOptions.UnreadableFile.moveAside`: an unreadable file is renamed, never deleted).
    @Test(arguments: [Beside.walFrames, .walFramesAndShm])
    func moveAsideKeepsTheFramesBesideTheEmptyFile(_ beside: Beside) throws {
        let before = try state(of: makeEmptyFile(beside))
        var options = testFileOptions()
        options.unreadableFile = .moveAside
        let jar = try openTestJar(path, options: options)
        #expect(jar.count == 0)
        try jar.close()
        let aside = "\(path).corrupt-\(testEpoch.secondsSinceEpoch)"
        #expect(["", "-wal", "-shm"].map { fileBytes(aside + $0) } == before.bytes)
    }

    /// An empty file with no frames beside it is a new jar, as it always was: opened, it gets the jar's schema and
    /// keeps what is written to it; read without writing, it is an empty cookies.txt
    /// (`CookieFileFormat(sniffing:)`).
    @Test(arguments: Beside.allCases.filter { !$0.holdsFrames })
    func emptyFileWithoutFramesIsANewJar(_ beside: Beside) throws {
        _ = try makeEmptyFile(beside)
        let contents = try CookieImportFile.read(path: path, now: testEpoch)
        #expect(contents.format == .cookiesTxt && contents.cookies.isEmpty)
        let jar = try openTestJar(path)
        #expect(jar.count == 0)
        jar.setCookie("new=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()
        #expect(try openTestJar(path).allCookies().map(\.name) == ["new"])
    }
}
