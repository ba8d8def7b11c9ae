#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// The few file operations a jar file needs beyond SQLite: creating it private, and moving an
/// unreadable one aside without ever replacing another file.
package enum CookieFileSystem {
    /// The companions SQLite keeps next to a database file.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates an empty file readable and writable by its owner only (0600), unless it exists
    /// already. SQLite treats an empty file as an empty database, and creates its `-wal` and `-shm`
    /// files with the database file's permissions. `file` is the path created (`resolvedPath`), `path` the
    /// one the caller gave, which an error names.
    static func createPrivateFile(_ file: String, path: String) throws(CookieFileError) {
        let descriptor = open(file, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            // Another jar of this process may have opened the new file already (`SQLiteLockedFiles`).
            SQLiteLockedFiles.closeWhenUnlocked(descriptor)
            return
        }
        let reason = errno
        if reason == EEXIST { return }
        throw CookieFileError(
            reason == EROFS || reason == EACCES || reason == EPERM ? .readOnly : .io, path: path,
            detail: "cannot create the jar file: \(String(cString: strerror(reason)))")
    }

    /// The path SQLite opens for `path`: every symbolic link resolved. SQLite follows a link to the
    /// database file and makes the `-wal` and `-shm` beside its target, so the checks of those files and of
    /// the directory that takes them are made there. A file not yet created is placed in its directory,
    /// resolved; a link to a file not yet created is followed to it first (the jar is made where the link
    /// points, as SQLite itself resolves a link); a path whose directory does not resolve either is given
    /// back as it is.
    static func resolvedPath(_ path: String) -> String {
        var path = path
        // At most as many links as the kernel follows (Linux's MAXSYMLINKS) before ELOOP.
        for _ in 0..<40 {
            if let resolved = realPath(path) { return resolved }
            guard let target = linkTarget(path) else { break }
            path = target.hasPrefix("/") ? target : directory(of: path) + "/" + target
        }
        guard let directory = realPath(directory(of: path)) else { return path }
        let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
        return (directory == "/" ? "" : directory) + "/" + name
    }

    /// `readlink(2)`: what the symbolic link at `path` holds; nil when `path` is no link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `realpath(3)`: the canonical absolute path of the existing file at `path`, nil when it cannot be found.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Throws `.readOnly` when the directory of the jar file `file` (a resolved path, `resolvedPath`) cannot
    /// take new files (no write permission, an immutable directory, a read-only file system), where the
    /// file's `-wal` or `-shm` is missing: a jar in WAL mode is read and written through them, and SQLite
    /// makes them beside the file. `path` is the file's path as the caller gave it, which the error names.
    /// `access` checks with the real user's rights, which are those SQLite's `open` has (the effective
    /// user's) in any process that is not setuid, and its EPERM is the file system's answer for an immutable
    /// directory. `faccessat` with `AT_EACCESS` is not used: it is the `faccessat2` system call (glibc 2.33 and
    /// later), which a container sandbox older than that call (Docker's seccomp profile before 20.10) answers
    /// with EPERM for any directory.
    static func checkDirectoryTakesCompanions(of file: String, path: String) throws(CookieFileError) {
        let directory = directory(of: file)
        guard access(directory, W_OK | X_OK) != 0 else { return }
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

    /// Which file a path names: its device and inode, the same for every path (a link, a hard link,
    /// `/dev/stdout`) and descriptor that leads to it. (The `cookiejar` tool compares its input and output
    /// by it too.)
    package struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// The identity of the file at `path`, nil when there is none.
    package static func identity(_ path: String) -> FileIdentity? {
        state(path)?.identity
    }

    /// Removes the file at `path` when it is still `identity`; leaves another that took its place.
    static func remove(_ path: String, ifStill identity: FileIdentity) {
        if self.identity(path) == identity { unlink(path) }
    }

    /// The identity of the file open as `descriptor`, nil when it cannot be examined.
    package static func identity(ofDescriptor descriptor: Int32) -> FileIdentity? {
        state(ofDescriptor: descriptor)?.identity
    }

    /// Which file a path names and what a write leaves on it: its size and its last modification, to the
    /// nanosecond the file system keeps.
    package struct FileState: Equatable {
        package let identity: FileIdentity
        /// A regular file (not a directory, device, pipe or socket).
        package let isRegularFile: Bool
        package let size: Int64
        let modifiedSeconds: Int64
        let modifiedNanoseconds: Int64

        /// A regular file of no bytes (one a shell's `>` has just emptied).
        package var isEmptyRegularFile: Bool { isRegularFile && size == 0 }
    }

    /// The state of the file at `path`, nil when there is none.
    package static func state(_ path: String) -> FileState? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return state(status)
    }

    /// The state of the file open as `descriptor`, nil when it cannot be examined.
    package static func state(ofDescriptor descriptor: Int32) -> FileState? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return state(status)
    }

    /// The state a `stat(2)` or `fstat(2)` reading gave.
    private static func state(_ status: stat) -> FileState {
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        return FileState(
            identity: FileIdentity(status), isRegularFile: status.st_mode & S_IFMT == S_IFREG,
            size: Int64(status.st_size), modifiedSeconds: Int64(modified.tv_sec),
            modifiedNanoseconds: Int64(modified.tv_nsec))
    }

    /// A jar file and the `-wal` and `-shm` SQLite keeps beside it in WAL mode, as found at one moment: each
    /// one's state, nil where it is missing. Each decision an opening makes from them is made from one
    /// reading, so that none sees them come or go between two others.
    struct JarFiles: Equatable {
        let file: FileState?
        let wal: FileState?
        let shm: FileState?

        /// The size of the `-wal` when it holds bytes while the file is empty or missing, nil otherwise: what is
        /// left of a database in WAL mode whose file was truncated, deleted, or lost in a copy. SQLite writes a
        /// database's header, which says WAL (https://sqlite.org/fileformat2.html#file_format_version_numbers), to
        /// the file when the database turns to WAL mode, a new one's too, so the file of a WAL is never empty, nor
        /// missing (a jar's file is made before SQLite opens it, `createPrivateFile`). SQLite takes an empty file
        /// for a new database, and deletes the `-wal` it finds beside one at its first read, frames and all
        /// (`pagerOpenWalIfPresent` in SQLite's pager.c); a missing file, created empty, would meet the same end.
        var walSizeBesideLostFile: Int64? {
            guard (file?.size ?? 0) == 0, let wal, wal.size > 0 else { return nil }
            return wal.size
        }
    }

    /// The jar file `file` (a resolved path, `resolvedPath`), its `-wal` and its `-shm`, as found now.
    static func jarFiles(at file: String) -> JarFiles {
        JarFiles(file: state(file), wal: state(file + "-wal"), shm: state(file + "-shm"))
    }

    /// `moveAside`, when `path` still names what an opening found unreadable, from its files as `found` then
    /// (`jarFiles` at `path` resolved): the same file (its device and inode), or, for a file found missing beside
    /// a `-wal` that holds bytes (`JarFiles.walSizeBesideLostFile`), still no file and the same `-wal`. False,
    /// moving nothing, otherwise: a process that found them unreadable too may have moved them aside and made a
    /// new jar there since, which must not be moved in its turn. A file reached through a symbolic link is
    /// moved where it is, with the `-wal` and `-shm` beside it, and the link is left: the new jar is made
    /// through it, where the link's owner keeps the jar (a shared container), not in the link's place.
    static func moveAside(_ path: String, ifStill found: JarFiles, seconds: Int64) throws(CookieFileError) -> Bool {
        let file = resolvedPath(path)
        let now = jarFiles(at: file)
        let isStill = switch (found.file, found.wal) {
        case (let file?, _): now.file?.identity == file.identity
        case (nil, let wal?): now.file == nil && now.wal?.identity == wal.identity
        case (nil, nil): false
        }
        guard isStill else { return false }
        _ = try moveAside(file, seconds: seconds)
        return true
    }

    /// Moves the file at `path` and its companions to `<path>.corrupt-<seconds>` (with `-2`, `-3`, …
    /// appended while a name is taken), never replacing a file, even one made meanwhile by another
    /// process: each file is first given its new name as a hard link (`link`, which fails rather than
    /// replace), and the old names are removed only once every file has one (companions first, so that the
    /// file is never found missing beside its `-wal`); when a name is taken, the links made so far are
    /// removed and the next name is tried. A missing file is skipped (the file itself, for a `-wal` left
    /// without it). Returns the new path. On a file system without hard links, each file is renamed to a
    /// name found free just before, which another process could take in between.
    static func moveAside(_ path: String, seconds: Int64) throws(CookieFileError) -> String {
        let suffixes = ([""] + companionSuffixes).filter { exists(path + $0) }
        var attempt = 1
        while true {
            let target = attempt == 1 ? "\(path).corrupt-\(seconds)" : "\(path).corrupt-\(seconds)-\(attempt)"
            attempt += 1
            if ([""] + companionSuffixes).contains(where: { exists(target + $0) }) { continue }
            switch linkAll(suffixes, of: path, to: target) {
            case .linked:
                for suffix in suffixes.reversed() { unlink(path + suffix) }
                return target
            case .nameTaken:
                continue
            case .noHardLinks:
                for suffix in suffixes where rename(path + suffix, target + suffix) != 0 {
                    throw moveAsideError(path, errno)
                }
                return target
            case .failed(let reason):
                throw moveAsideError(path, reason)
            }
        }
    }

    private enum LinkOutcome {
        case linked
        case nameTaken
        case noHardLinks
        case failed(Int32)
    }

    /// Links `path` + each of `suffixes` to `target` + the same suffix, all or none: on any failure the
    /// links made are removed. A file gone meanwhile (moved by another process) is passed over.
    private static func linkAll(_ suffixes: [String], of path: String, to target: String) -> LinkOutcome {
        var linked: [String] = []
        for suffix in suffixes {
            if link(path + suffix, target + suffix) == 0 {
                linked.append(target + suffix)
                continue
            }
            let reason = errno
            if reason == ENOENT { continue }
            for name in linked { unlink(name) }
            switch reason {
            case EEXIST: return .nameTaken
            case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV: return linked.isEmpty ? .noHardLinks : .failed(reason)
            default: return .failed(reason)
            }
        }
        return .linked
    }

    private static func moveAsideError(_ path: String, _ reason: Int32) -> CookieFileError {
        CookieFileError(.io, path: path, detail: "cannot move the unreadable file aside: \(String(cString: strerror(reason)))")
    }
}

extension CookieFileSystem.FileIdentity {
    /// The identity of the file `status` describes.
    init(_ status: stat) {
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
