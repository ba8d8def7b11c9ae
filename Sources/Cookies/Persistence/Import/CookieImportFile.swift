/// Reads a cookie file of any format this library imports (cookies.txt, swift-cookiejar JSON, binarycookies,
/// a swift-cookiejar SQLite jar, Firefox's cookies.sqlite), its format told by its content, for
/// `CookieJar.insert(contentsOf:)`.
public enum CookieImportFile {
    /// The largest file `read(path:now:lenient:)` loads: 256 MiB, some 800,000 cookies as JSON, far beyond
    /// any browser's limits (3,000 to 180,000 cookies); a larger "cookie file" is something else.
    public static let maximumSize = 256 << 20

    /// The cookies in the file at `path`: cookies.txt, swift-cookiejar JSON or binarycookies, sniffed from
    /// the content (`CookieFileFormat(sniffing:)`), never from the name. The file is only read.
    ///
    /// - Parameters:
    ///   - path: the file to read.
    ///   - now: the import time, for formats without creation times (cookies.txt).
    ///   - lenient: skip and report bad entries instead of throwing at the first one.
    /// An SQLite file is read without writing to it: a swift-cookiejar jar (every row, expired and
    /// session cookies included) or Firefox's `cookies.sqlite`. An empty file is an empty cookies.txt, but
    /// for one whose `-wal` holds bytes: what is left of a database whose file was truncated or lost, refused
    /// as `corrupt` (`CookieDatabase.snapshot`).
    ///
    /// - Throws: `io`, `unknownFormat`, `foreign` (another application's database), `corrupt` (a damaged
    ///   database), or the format's own errors; every error names `path`.
    public static func read(path: String, now: CookieTime, lenient: Bool = false) throws(CookieFileError) -> CookieFileContents {
        // A database is read by SQLite: its header tells, without loading the whole file, or for an empty
        // file the bytes of its -wal (SQLite keeps it beside the target of a symbolic link). A file that a
        // connection of this process locks (a jar open in this process) is a database, and is not opened to see:
        // its descriptor could be closed only once that connection is (`SQLiteLockedFiles`). What is not a
        // regular file (a pipe, /dev/stdin) can be read only once: all of it, then sniffed (an SQLite
        // database read that way is refused by `parse`).
        let isDatabase: Bool
        let bytes: [UInt8]
        do {
            if SQLiteLockedFiles.isLocked(fileAt: path) {
                isDatabase = true
                bytes = []
            } else if FileBytes.isRegularFile(atPath: path) {
                let magic = try FileBytes.contents(atPath: path, limit: maximumSize, prefix: CookieFileFormat.sqliteMagic.count)
                isDatabase = magic == CookieFileFormat.sqliteMagic || (magic.isEmpty
                    && CookieFileSystem.jarFiles(at: CookieFileSystem.resolvedPath(path)).walSizeBesideLostFile != nil)
                bytes = isDatabase ? [] : try FileBytes.contents(atPath: path, limit: maximumSize)
            } else {
                isDatabase = false
                bytes = try FileBytes.contents(atPath: path, limit: maximumSize)
            }
        } catch {
            throw CookieFileError(.io, path: path, detail: "cannot read the file: \(error.explanation)")
        }
        if isDatabase { return try readDatabase(path: path, lenient: lenient) }
        do {
            var contents = try parse(bytes, now: now, lenient: lenient)
            contents.skipped = contents.skipped.map { $0.inFile(path) }
            return contents
        } catch {
            throw error.inFile(path)
        }
    }

    /// An SQLite file: a swift-cookiejar jar (every row, read without writing; a bad row is corruption,
    /// whatever `lenient`) or Firefox's `cookies.sqlite` (bad rows skipped when `lenient`); any other
    /// database is foreign.
    private static func readDatabase(path: String, lenient: Bool) throws(CookieFileError) -> CookieFileContents {
        do {
            return CookieFileContents(format: .sqlite, cookies: try CookieDatabase.snapshot(path))
        } catch where error.code == .foreign {
            do {
                return try FirefoxCookies.read(contentsOf: path, lenient: lenient)
            } catch where error.code == .foreign {
                throw CookieFileError(
                    .foreign, path: path, detail: "an SQLite database, but neither a swift-cookiejar jar nor Firefox's cookies.sqlite")
            }
        }
    }

    /// The cookies in `bytes`, whatever their format (see `read(path:now:lenient:)`).
    public static func parse(_ bytes: some Collection<UInt8>, now: CookieTime, lenient: Bool = false) throws(CookieFileError) -> CookieFileContents {
        switch CookieFileFormat(sniffing: bytes) {
        case .cookiesTxt: try CookiesTxt.parse(bytes, now: now, lenient: lenient)
        case .json: try CookieJSON.parse(bytes, lenient: lenient)
        case .binaryCookies: try BinaryCookies.parse(bytes, lenient: lenient)
        case .sqlite, .firefox:
            throw CookieFileError(.unsupportedFormat, offset: 0, detail: "an SQLite database, which is read from its file (a path), not from bytes or a pipe")
        case nil:
            throw CookieFileError(.unknownFormat, offset: 0, detail: "not a cookies.txt, swift-cookiejar JSON or binarycookies file")
        }
    }
}
