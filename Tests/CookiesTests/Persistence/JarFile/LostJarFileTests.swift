import Foundation
import TestSupport
import Testing

@testable import Cookies

/// A jar file of zero bytes, or none at all. SQLite takes an empty file for a new, empty database, and at its
/// first read deletes the `-wal` it finds beside one, frames and all (`pagerOpenWalIfPresent` in SQLite's
/// pager.c); a missing file the opening creates empty, to the same end. A database in WAL mode never has an
/// empty or missing file while its WAL holds frames: SQLite writes the header, which says WAL
/// (https://sqlite.org/fileformat2.html#file_format_version_numbers), to the file when the database turns to
/// WAL mode, a new one's too. Such a `-wal` is what is left of a database whose file was truncated, deleted or
/// lost in a copy: refused as corrupt, and left as it is, nothing created; an empty or missing file with no
/// frames beside it is a new jar (this project's contract, `CookieDatabase`).
@Suite struct LostJarFileTests {
    let directory = TemporaryDirectory()
    /// Where the jar whose `-wal` is copied is made.
    let sourceDirectory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// What is left of the jar's file.
    enum File: String, CaseIterable {
        /// A file of zero bytes: truncated, or made empty to start a jar (`touch`).
        case empty
        /// No file: deleted, or not copied with its `-wal`.
        case missing
    }

    /// What lies beside the file.
    enum Beside: String, CaseIterable {
        /// Nothing: a file made empty to start a jar, or left so by a process that ended before writing its
        /// schema; a path where no jar was yet.
        case nothing
        /// An empty `-wal`, which holds no frame (https://sqlite.org/walformat.html: a WAL is a 32-byte
        /// header and then its frames).
        case emptyWAL
        /// An empty `-wal` and its `-shm` index: another jar's, copied while in use just after a checkpoint
        /// that truncated its WAL (https://sqlite.org/pragma.html#pragma_wal_checkpoint, TRUNCATE).
        case emptyWALAndShm
        /// The `-wal` of another jar, holding the frames of a committed change, copied without its file's bytes.
        case walFrames
        /// The same `-wal`, and its `-shm` index.
        case walFramesAndShm
        /// The same `-wal`, beside an empty file reached through a symbolic link: SQLite opens the link's target
        /// and keeps the `-wal` beside it (https://sqlite.org/c3ref/open.html, SQLITE_OPEN_NOFOLLOW).
        case walFramesBesideALinksTarget

        var holdsFrames: Bool { self != .nothing && self != .emptyWAL && self != .emptyWALAndShm }
    }

    /// A file left so, with what lies beside it.
    struct Lost: CustomTestStringConvertible {
        var file: File
        var beside: Beside
        var testDescription: String { "\(file.rawValue) file, \(beside.rawValue) beside it" }

        /// Every file with every companion, but for a missing one reached through a symbolic link: a link
        /// whose target is missing is another case (SQLite opens a link's target, and the jar's opening does
        /// not create one).
        static let all = File.allCases.flatMap { file in
            Beside.allCases.filter { file == .empty || $0 != .walFramesBesideALinksTarget }
                .map { Lost(file: file, beside: $0) }
        }
        static let withFrames = all.filter(\.beside.holdsFrames)
        static let withoutFrames = all.filter { !$0.beside.holdsFrames }
    }

    /// The file of `lost`: at `path`, or for `walFramesBesideALinksTarget` at the target of the link `path` is,
    /// with what lies beside it. Returns the file the `-wal` and `-shm` are beside.
    func make(_ lost: Lost) throws -> String {
        let file = lost.beside == .walFramesBesideALinksTarget ? directory.file("target.sqlite") : path
        if file != path { try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: file) }
        if lost.file == .empty { try Data().write(to: URL(fileURLWithPath: file)) }
        let source = sourceDirectory.file("cookies.sqlite")
        switch lost.beside {
        case .nothing:
            break
        case .emptyWAL:
            try Data().write(to: URL(fileURLWithPath: file + "-wal"))
        case .emptyWALAndShm:
            try makeJarFile(at: source, leaving: .walAndShm)
            try commitWithoutCheckpoint("PRAGMA wal_checkpoint(TRUNCATE)", to: source, keepingIndex: true)
        case .walFrames, .walFramesAndShm, .walFramesBesideALinksTarget:
            try makeJarFile(at: source, leaving: lost.beside == .walFramesAndShm ? .walAndShm : .wal)
        }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: file + suffix)
        }
        return file
    }

    /// The names in the test's directory, and the bytes of the file, its `-wal` and its `-shm` (nil where missing).
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

    /// A file empty or missing while its `-wal` holds frames is refused as corrupt, naming the file and the bytes
    /// of its `-wal`, before SQLite opens it or a missing file is created: the file, its `-wal` and its `-shm`
    /// keep their bytes, and nothing is made beside them (opened, SQLite took the empty or created file for a
    /// new jar, deleting the `-wal`; `CookieImportFile.read` took an empty one for an empty cookies.txt;
    /// `snapshot` failed to open a missing one without saying why). `CookieImportFile.read` reads only a file
    /// there is: a missing one is a file it cannot read, and is left so.
    @Test(arguments: Lost.withFrames, Opening.allCases)
    func lostFileWithFramesBesideItIsRefusedAndLeftAsItIs(_ lost: Lost, _ opening: Opening) throws {
        let file = try make(lost)
        let before = try state(of: file)
        let walSize = try #require(before.bytes[1]?.count)
        #expect(walSize > 0)
        let expected: (code: CookieFileError.Code, description: String) =
            switch (lost.file, opening) {
            case (.empty, _):
                (.corrupt, "\(path): the file is empty while its -wal holds \(walSize) bytes: "
                    + "the database's main file was truncated or lost")
            case (.missing, .importFile):
                (.io, "\(path): cannot read the file: No such file or directory")
            case (.missing, _):
                (.corrupt, "\(path): the file is missing while its -wal holds \(walSize) bytes: "
                    + "the database's main file was lost")
            }
        #expect {
            switch opening {
            case .asJar: _ = try openTestJar(path)
            case .snapshot: _ = try CookieDatabase.snapshot(path)
            case .importFile: _ = try CookieImportFile.read(path: path, now: testEpoch)
            }
        } throws: { error in
            (error as? CookieFileError).map { ($0.code, $0.description) == expected } == true
        }
        let after = try state(of: file)
        #expect(after.entries == before.entries)
        #expect(after.bytes == before.bytes)
    }

    /// `.moveAside` moves the empty file aside with its `-wal` and `-shm`, or a missing file's `-wal` and `-shm`
    /// alone, under the name it gives a damaged file, the frames kept, and starts a new jar
    /// (`CookieJarFileOptions.UnreadableFile.moveAside`: an unreadable file is renamed, never deleted).
    @Test(arguments: Lost.withFrames.filter { $0.beside != .walFramesBesideALinksTarget })
    func moveAsideKeepsTheFramesBesideTheLostFile(_ lost: Lost) throws {
        let before = try state(of: make(lost))
        var options = testFileOptions()
        options.unreadableFile = .moveAside
        let jar = try openTestJar(path, options: options)
        #expect(jar.count == 0)
        jar.setCookie("new=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()
        let aside = "\(path).corrupt-\(testEpoch.secondsSinceEpoch)"
        #expect(["", "-wal", "-shm"].map { fileBytes(aside + $0) } == before.bytes)
        #expect(try openTestJar(path).allCookies().map(\.name) == ["new"])
    }

    /// Two processes find the same `-wal` beside a missing file: the first moves it aside and makes a new jar at
    /// the path; the second, moving aside only while the file is still missing and its `-wal` is the one it found
    /// (its device and inode), leaves that new jar where it is, open or closed, instead of moving it in its turn
    /// (this project's contract, `CookieFileSystem.moveAside(_:ifStill:seconds:)`).
    @Test func onlyTheWALFoundBesideAMissingFileIsMovedAside() throws {
        _ = try make(Lost(file: .missing, beside: .walFrames))
        let found = CookieFileSystem.jarFiles(at: path)
        var options = testFileOptions()
        options.unreadableFile = .moveAside
        let first = try openTestJar(path, options: options)
        first.setCookie("first=1; Max-Age=3600", from: url("https://example.com/"))
        try first.flush()
        #expect(try CookieFileSystem.moveAside(path, ifStill: found, seconds: testEpoch.secondsSinceEpoch) == false)
        try first.close()
        #expect(try CookieFileSystem.moveAside(path, ifStill: found, seconds: testEpoch.secondsSinceEpoch) == false)
        #expect(try openTestJar(path).allCookies().map(\.name) == ["first"])
    }

    /// A file empty or missing with no frames beside it is a new jar, as it always was (an empty `-wal` SQLite
    /// deletes, and a `-shm` it finds with no connection to the file it builds anew: https://sqlite.org/walformat.html):
    /// opened, it gets the jar's schema and keeps what is written to it; an empty one read without writing is an
    /// empty cookies.txt (`CookieFileFormat(sniffing:)`).
    @Test(arguments: Lost.withoutFrames)
    func lostFileWithoutFramesIsANewJar(_ lost: Lost) throws {
        let file = try make(lost)
        #expect(fileBytes(file + "-wal") ?? Data() == Data())
        #expect(FileManager.default.fileExists(atPath: file + "-shm") == (lost.beside == .emptyWALAndShm))
        if lost.file == .empty {
            let contents = try CookieImportFile.read(path: path, now: testEpoch)
            #expect(contents.format == .cookiesTxt && contents.cookies.isEmpty)
        }
        let jar = try openTestJar(path)
        #expect(jar.count == 0)
        jar.setCookie("new=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()
        #expect(try openTestJar(path).allCookies().map(\.name) == ["new"])
    }
}
