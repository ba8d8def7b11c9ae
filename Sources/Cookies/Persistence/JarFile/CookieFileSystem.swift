#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations a jar file needs beyond SQLite: creating it private, and moving an
/// unreadable one aside without ever replacing another file.
enum CookieFileSystem {
    /// The companions SQLite keeps next to a database file.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates an empty file readable and writable by its owner only (0600), unless it exists
    /// already. SQLite treats an empty file as an empty database, and creates its `-wal` and `-shm`
    /// files with the database file's permissions.
    static func createPrivateFile(_ path: String) throws(CookieFileError) {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let reason = errno
        if reason == EEXIST { return }
        throw CookieFileError(
            reason == EROFS || reason == EACCES || reason == EPERM ? .readOnly : .io, path: path,
            detail: "cannot create the jar file: \(String(cString: strerror(reason)))")
    }

    /// Throws `.readOnly` when the jar file at `path` lacks its `-wal` or `-shm` and its directory cannot
    /// take new files (no write permission, an immutable directory, a read-only file system): a jar in WAL
    /// mode is read and written through them, and SQLite makes them beside the file when they are missing.
    /// Checked with the effective user's rights, as SQLite's `open` is.
    static func checkCompanionsCanBeMade(_ path: String) throws(CookieFileError) {
        guard !exists(path + "-wal") || !exists(path + "-shm") else { return }
        let directory = directory(of: path)
        guard faccessat(AT_FDCWD, directory, W_OK | X_OK, AT_EACCESS) != 0 else { return }
        let reason = errno
        guard reason == EACCES || reason == EPERM || reason == EROFS else { return }
        throw CookieFileError(
            .readOnly, path: path,
            detail: "cannot open the jar file for writing: its directory \(directory) cannot be written "
                + "(\(String(cString: strerror(reason)))), and SQLite must make the jar's -wal and -shm files there")
    }

    /// The directory holding `path`: what comes before its last "/" ("/" at the root, "." for a bare name).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Which file a path names: its device and inode.
    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// The identity of the file at `path`, nil when there is none.
    static func identity(_ path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// `moveAside`, when `path` still names the file `found` (the one found unreadable); false, moving
    /// nothing, when it names another: a process that found the file unreadable too may have moved it
    /// aside and made a new jar there since, which must not be moved in its turn.
    static func moveAside(_ path: String, ifStill found: FileIdentity?, seconds: Int64) throws(CookieFileError) -> Bool {
        guard let found, identity(path) == found else { return false }
        _ = try moveAside(path, seconds: seconds)
        return true
    }

    /// Moves the file at `path` and its companions to `<path>.corrupt-<seconds>` (with `-2`, `-3`, …
    /// appended if that name is taken), never replacing an existing file. Returns the new path.
    static func moveAside(_ path: String, seconds: Int64) throws(CookieFileError) -> String {
        var target = "\(path).corrupt-\(seconds)"
        var attempt = 1
        while ([""] + companionSuffixes).contains(where: { exists(target + $0) }) {
            attempt += 1
            target = "\(path).corrupt-\(seconds)-\(attempt)"
        }
        for suffix in [""] + companionSuffixes where exists(path + suffix) {
            guard rename(path + suffix, target + suffix) == 0 else {
                throw CookieFileError(
                    .io, path: path, detail: "cannot move the unreadable file aside: \(String(cString: strerror(errno)))")
            }
        }
        return target
    }
}
