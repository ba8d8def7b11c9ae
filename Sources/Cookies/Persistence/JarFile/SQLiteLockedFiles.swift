#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// The files on which SQLite connections of this process hold POSIX advisory locks, so that no other descriptor
/// of one is closed while they do.
///
/// A process's `fcntl` locks on a file are the process's, not a descriptor's: closing any descriptor of the file
/// releases every one of them (https://pubs.opengroup.org/onlinepubs/9799919799/functions/fcntl.html). SQLite's
/// unix VFS keeps a descriptor of its own open while another connection of the process holds a lock on the same
/// file (`unixClose` in os_unix.c, https://sqlite.org/src/file/src/os_unix.c), so its connections, `immutable=1`
/// ones included, never close one too early; a descriptor opened elsewhere (bytes read with `open` and `read`, or a
/// connection over the `unix-none` VFS, whose descriptors are SQLite's but closed at once) would take the locks with
/// it. A connection in WAL mode holds a shared lock on the database file for as long as it is open: without it,
/// another process's last connection to close takes the exclusive lock, checkpoints the WAL and deletes the `-wal`
/// and `-shm` (https://sqlite.org/walformat.html), and this process's connection then commits to a WAL no other
/// connection reads, lost when the process ends without closing.
///
/// So every connection that locks its file counts the file here from its opening, before its first lock, to its
/// closing (`SQLiteConnection`), and any other descriptor of a file such a connection may have (a jar file, a file
/// to import, which may be one) is closed through `closeWhenUnlocked`: at once when no connection counts the file,
/// otherwise once the last one has closed, as SQLite defers its own. A file is known by its device and inode,
/// whatever path, link or name it is reached through. A reader that can do without the bytes asks `isLocked`
/// first and reads none (`CookieImportFile.read`): a descriptor kept open for each reading of a jar file that stays
/// open would run the process out of descriptors.
enum SQLiteLockedFiles {
    /// A file counted: how many connections lock it, and the closes of other descriptors waiting for the last one.
    private struct LockedFile {
        var connections = 0
        var waitingCloses: [@Sendable () -> Void] = []
    }

    private static let files = CookieLock<[CookieFileSystem.FileIdentity: LockedFile]>([:])

    /// Counts `file` as locked by one more connection: called once the connection has opened it, before its first
    /// statement takes a lock.
    static func add(_ file: CookieFileSystem.FileIdentity) {
        files.withLock { $0[file, default: LockedFile()].connections += 1 }
    }

    /// Counts one connection fewer on `file`, called once it has closed; after the last one, runs the closes that
    /// waited for it. They run under the lock, so that no connection counted meanwhile is locking the file yet.
    static func remove(_ file: CookieFileSystem.FileIdentity) {
        files.withLock { files in
            guard var locked = files[file] else { return }
            locked.connections -= 1
            guard locked.connections == 0 else {
                files[file] = locked
                return
            }
            files[file] = nil
            for close in locked.waitingCloses { close() }
        }
    }

    /// Whether a connection of this process locks the file at `path` now.
    static func isLocked(fileAt path: String) -> Bool {
        guard let file = CookieFileSystem.identity(path) else { return false }
        return files.withLock { $0[file] != nil }
    }

    /// Runs `close`, which closes a descriptor of `file`, now when no connection of this process locks the file
    /// (nil: no file is known), otherwise once the last one has closed. It runs under the lock, so that no
    /// connection counted meanwhile is locking the file yet.
    static func whenUnlocked(_ file: CookieFileSystem.FileIdentity?, close: @escaping @Sendable () -> Void) {
        files.withLock { files in
            guard let file, files[file] != nil else { return close() }
            files[file]?.waitingCloses.append(close)
        }
    }

    /// Closes `descriptor` now when no connection of this process locks its file, otherwise once the last one
    /// has closed (`whenUnlocked`).
    static func closeWhenUnlocked(_ descriptor: Int32) {
        whenUnlocked(CookieFileSystem.identity(ofDescriptor: descriptor)) { _ = close(descriptor) }
    }
}
