import Cookies
import Foundation

/// A file of the tool's output that holds credentials (cookies): written whole or not at all, and
/// readable by its owner only from its first byte.
enum PrivateFile {
    /// Replaces the file at `path` (or, when `path` is a symbolic link, the file it points to) with
    /// `bytes`: they go to a new file beside it, created with mode 0600, flushed to disk, then renamed
    /// over it, so that no reader ever sees a part of them, nor anyone else the cookies. Throws a line to
    /// tell the user when it cannot; the file is then as it was.
    ///
    /// What is not a regular file is written to as it is, never replaced: this process's standard output
    /// (`/dev/stdout`, wherever it was redirected), a device (`/dev/null`), a named pipe or a socket of
    /// this user gets the bytes (renamed over, it would become a file holding them, its readers left with
    /// nothing); a directory, and a pipe or socket of another user (one planted in a shared `/tmp` to
    /// catch the cookies), are refused. A symbolic link is followed only when it belongs to this user or
    /// to root, as Linux's `protected_symlinks` does in a shared directory: one another user planted would
    /// have a file of their choosing replaced. A link whose target does not exist yet (a dangling one)
    /// stays a link: the file is created where it points.
    static func replace(_ path: String, with bytes: Data) throws(OutputError) {
        let target = try target(of: path)
        if let file = CookieFileSystem.identity(path), file == CookieFileSystem.identity(ofDescriptor: STDOUT_FILENO) {
            let failure = bytes.withUnsafeBytes { writeAll($0, to: STDOUT_FILENO) }
            if failure != 0 { throw OutputError(path: path, reason: failure) }
            return
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            guard status.st_mode & S_IFMT != S_IFDIR else { throw OutputError(path: path, reason: EISDIR) }
            try write(bytes, into: path)
            return
        }
        let directory = (target as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\((target as NSString).lastPathComponent).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp"
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutputError(path: path, reason: errno) }
        var failure = bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, target) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw OutputError(path: path, reason: failure)
        }
    }
}

extension PrivateFile {
    /// The path of the file `path` names once its symbolic links are followed, each read with `readlink`
    /// (a relative target against the directory of the link holding it), the last one too when what it
    /// points to does not exist yet: the file to create or replace. (Foundation's `resolvingSymlinksInPath`
    /// leaves such a link as it is, and the file renamed over it replaced the link.) Throws when a link of
    /// the chain belongs to another user than this one and root, or the chain is longer than the 40 links
    /// the kernel follows.
    private static func target(of path: String) throws(OutputError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            guard status.st_uid == geteuid() || status.st_uid == 0 else {
                throw OutputError(path: path, detail: "\(current) is a symbolic link of another user, not followed")
            }
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                throw OutputError(path: path, detail: "cannot read the symbolic link \(current)")
            }
            let directory = (current as NSString).deletingLastPathComponent
            current = destination.hasPrefix("/") || directory.isEmpty ? destination : directory + "/" + destination
        }
        throw OutputError(path: path, reason: ELOOP)
    }

    /// Writes `bytes` to the device, pipe or socket at `path`, opened as it is (no file is made). What was
    /// opened is checked again: a regular file put in its place meanwhile is not written, nor a pipe or
    /// socket of another user.
    private static func write(_ bytes: Data, into path: String) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw OutputError(path: path, reason: errno) }
        var status = stat()
        var failure = fstat(descriptor, &status) == 0 ? 0 : errno
        if failure == 0 {
            let type = status.st_mode & S_IFMT
            if type == S_IFREG || type == S_IFDIR {
                close(descriptor)
                throw OutputError(path: path, detail: "it was replaced by a file while being opened")
            }
            if type == S_IFIFO || type == S_IFSOCK, status.st_uid != geteuid() {
                close(descriptor)
                throw OutputError(path: path, detail: "a \(type == S_IFIFO ? "named pipe" : "socket") of another user, not written")
            }
            failure = bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
        }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw OutputError(path: path, reason: failure) }
    }
}

/// An output file the tool cannot write: one line on stderr, exit code 4.
struct OutputError: Error, CustomStringConvertible {
    var path: String
    /// Why, in words; else the `errno` of the call that failed.
    var detail: String

    init(path: String, reason: Int32) {
        self.path = path
        detail = String(cString: strerror(reason))
    }

    init(path: String, detail: String) {
        self.path = path
        self.detail = detail
    }

    var description: String { "\(path): cannot write the output file: \(detail)" }
}
