import Foundation

/// A file of the tool's output that holds credentials (cookies): written whole or not at all, and
/// readable by its owner only from its first byte.
enum PrivateFile {
    /// Replaces the file at `path` (or, when `path` is a symbolic link, the file it points to) with
    /// `bytes`: they go to a new file beside it, created with mode 0600, flushed to disk, then renamed
    /// over it, so that no reader ever sees a part of them, nor anyone else the cookies. Throws a line to
    /// tell the user when it cannot; the file is then as it was.
    ///
    /// What is not a regular file is written to as it is, never replaced: a device (`/dev/stdout`,
    /// `/dev/null`), a pipe or a socket gets the bytes (renamed over, it would become a file holding
    /// them, its readers left with nothing); a directory is refused.
    static func replace(_ path: String, with bytes: Data) throws(OutputError) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            guard status.st_mode & S_IFMT != S_IFDIR else { throw OutputError(path: path, reason: EISDIR) }
            try write(bytes, into: path)
            return
        }
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
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
    /// Writes `bytes` to the device, pipe or socket at `path`, opened as it is (no file is made).
    private static func write(_ bytes: Data, into path: String) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw OutputError(path: path, reason: errno) }
        var failure = bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw OutputError(path: path, reason: failure) }
    }
}

/// An output file the tool cannot write: one line on stderr, exit code 4.
struct OutputError: Error, CustomStringConvertible {
    var path: String
    var reason: Int32

    var description: String { "\(path): cannot write the output file: \(String(cString: strerror(reason)))" }
}
