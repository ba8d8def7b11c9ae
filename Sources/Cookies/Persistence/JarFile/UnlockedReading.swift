/// A reading of an SQLite database made without SQLite's locks: opened immutable
/// (https://sqlite.org/uri.html#uriimmutable), or with its WAL read into an index of the reader's own
/// (https://sqlite.org/wal.html#noshm). Nothing stops another process from opening the file during such a
/// reading, committing, and on closing checkpointing its WAL into the file
/// (https://sqlite.org/wal.html#the_wal_file): the reading would see a part of it, a mix of two saved states,
/// or pages that look malformed. A reading stands, whatever it gave, only when the files it depends on are as
/// they were before it (each one's identity, size and last modification, to the nanosecond the file system
/// keeps: `CookieFileSystem.FileState`); otherwise it is made again, and after `attempts` readings it throws
/// `.busy`.
enum UnlockedReading {
    /// How many times a reading is made before giving up: each time the files changed during it, another
    /// process had the file open; only processes opening, changing and closing the file again and again
    /// outrun three.
    static let attempts = 3

    /// The value `read` gives from the files as `files` finds them, once they are found the same after the
    /// reading as before it, or when `isUnlocked` says the reading of the files so found takes SQLite's locks
    /// (and is checked by them). Throws what `read` throws when it stands, or `.busy` naming `path`, detailed as
    /// `action` ("cannot read the jar file"), after `attempts` readings that each saw the files change.
    static func read<Files: Equatable, Value>(
        path: String, doing action: String, files: () -> Files, isUnlocked: (Files) -> Bool = { _ in true },
        _ read: (Files) throws(CookieFileError) -> Value
    ) throws(CookieFileError) -> Value {
        for _ in 0..<attempts {
            let found = files()
            let reading = Result { () throws(CookieFileError) -> Value in try read(found) }
            if !isUnlocked(found) || files() == found { return try reading.get() }
        }
        throw CookieFileError(
            .busy, path: path,
            detail: "\(action): in use: another process changed it during each of \(attempts) readings, "
                + "which SQLite's locks could not guard")
    }
}
