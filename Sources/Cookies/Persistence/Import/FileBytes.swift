#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Whole-file reads through POSIX `open`/`read`, for the files the library loads (cookie files, public
/// suffix lists). A descriptor is closed through `SQLiteLockedFiles`: the file may be a jar that a connection of
/// this process has open, whose locks closing it would release. (The `cookiejar` tool reads its own
/// inputs, standard input included, through it too.)
package enum FileBytes {
    /// Why a read failed: the `errno` of the failing call, or nil when the file exceeded the limit.
    package struct Failure: Error {
        let errorNumber: Int32?

        /// True when the file exceeded the limit (no call failed).
        package var isOverLimit: Bool { errorNumber == nil }

        /// "No such file or directory", "Permission denied", "larger than N bytes".
        package var explanation: String {
            guard let errorNumber else { return "larger than the limit" }
            return String(cString: strerror(errorNumber))
        }
    }

    /// True when `path` names a regular file, which can be read more than once (a pipe such as
    /// /dev/stdin cannot).
    static func isRegularFile(atPath path: String) -> Bool {
        CookieFileSystem.state(path)?.isRegularFile ?? false
    }

    /// When the file at `path` was last modified, nil when it cannot be examined.
    static func modificationTime(atPath path: String) -> CookieTime? {
        CookieFileSystem.state(path).map { state in
            CookieTime(microsecondsSinceEpoch: state.modifiedSeconds * 1_000_000 + state.modifiedNanoseconds / 1_000)
        }
    }

    /// The bytes of the file at `path`, at most `limit` of them; with `prefix`, only its first `prefix`
    /// bytes (fewer when the file is shorter). A regular file is read from its first byte whatever the
    /// offset of the descriptor opened: opening /dev/stdin gives a new offset on Linux but shares standard
    /// input's on Darwin, where a second opening would otherwise go on after the bytes the first read.
    package static func contents(atPath path: String, limit: Int, prefix: Int? = nil) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(errorNumber: errno) }
        defer { SQLiteLockedFiles.closeWhenUnlocked(descriptor) }
        return try contents(ofDescriptor: descriptor, limit: limit, prefix: prefix, fromStartOfRegularFile: true)
    }

    /// The bytes `descriptor` reads from where it stands to its end, at most `limit` of them; with
    /// `prefix`, only the first `prefix` (fewer when there are fewer). With `fromStartOfRegularFile`, a
    /// regular file is read from its first byte (`pread`), its offset left where it stood. The descriptor
    /// stays open.
    package static func contents(
        ofDescriptor descriptor: Int32, limit: Int, prefix: Int? = nil, fromStartOfRegularFile: Bool = false
    ) throws(Failure) -> [UInt8] {
        // A regular file's size is known: its bytes are read straight into one allocation (not zeroed
        // first), rather than into an array that grows chunk by chunk.
        var status = stat()
        let isRegularFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        let size = isRegularFile ? Int(status.st_size) : 0
        let expected = min(prefix ?? size, size, limit)
        // The offset of the next byte, for a read from the start of a regular file; nil: where it stands.
        var offset: off_t? = isRegularFile && fromStartOfRegularFile ? 0 : nil
        func readChunk(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
            guard let at = offset else { return read(descriptor, buffer, count) }
            let got = pread(descriptor, buffer, count, at)
            if got > 0 { offset = at + off_t(got) }
            return got
        }
        var failure: Int32?
        var contents = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, count in
            count = 0
            while count < buffer.count {
                let got = readChunk(into: buffer.baseAddress! + count, count: buffer.count - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { return }
                count += got
            }
        }
        if let failure { throw Failure(errorNumber: failure) }
        if let prefix, contents.count >= prefix { return Array(contents.prefix(prefix)) }
        guard contents.count <= limit else { throw Failure(errorNumber: nil) }
        if contents.count <= expected { return contents }
        // The file grew since fstat, or its size is unknown (a pipe): the rest in chunks.
        let chunkSize = 1 << 16
        while true {
            let start = contents.count
            contents.append(contentsOf: repeatElement(0, count: chunkSize))
            let count = contents.withUnsafeMutableBytes { buffer in
                readChunk(into: buffer.baseAddress! + start, count: chunkSize)
            }
            if count < 0 {
                let error = errno
                contents.removeLast(chunkSize)
                if error == EINTR { continue }
                throw Failure(errorNumber: error)
            }
            contents.removeLast(chunkSize - count)
            if let prefix, contents.count >= prefix { return Array(contents.prefix(prefix)) }
            if count == 0 { return contents }
            guard contents.count <= limit else { throw Failure(errorNumber: nil) }
        }
    }
}
