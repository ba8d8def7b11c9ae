import Foundation
import TestSupport
import Testing

@testable import Cookies

/// Whole-file reads. Facts: FileBytes' contract (every byte up to `limit`, a larger file refused, only
/// the first `prefix` bytes when asked) and POSIX `read(2)`; sizes around the 64 KiB chunk it reads in
/// when `fstat` cannot tell the size.
struct FileBytesTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [0, 1, 16, 17, 65_536, 65_537, 200_000])
    func readsRegularFile(size: Int) throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = directory.file("file")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try FileBytes.contents(atPath: path, limit: size) == bytes)
        #expect(try FileBytes.contents(atPath: path, limit: 1 << 20, prefix: 16) == Array(bytes.prefix(16)))
        if size > 0 {
            #expect(throws: FileBytes.Failure.self, "larger than the limit") { try FileBytes.contents(atPath: path, limit: size - 1) }
        }
    }

    /// A file is read from its first byte whatever its descriptor's offset, which stays where it stood
    /// (`pread(2)`): opening /dev/stdin on Darwin shares standard input's offset, which a first read of the
    /// file's first bytes moved. Asked to, a descriptor is read from where it stands (standard input).
    @Test(arguments: [0, 5, 16, 65_537])
    func readsRegularFileFromItsStartWhereverItsOffsetIs(offset: Int) throws {
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = directory.file("file")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        #expect(lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset))
        #expect(try FileBytes.contents(ofDescriptor: descriptor, limit: 1 << 20, prefix: 16, fromStartOfRegularFile: true)
            == Array(bytes.prefix(16)))
        #expect(try FileBytes.contents(ofDescriptor: descriptor, limit: 1 << 20, fromStartOfRegularFile: true) == bytes)
        #expect(lseek(descriptor, 0, SEEK_CUR) == off_t(offset))
        #expect(try FileBytes.contents(ofDescriptor: descriptor, limit: 1 << 20) == Array(bytes[offset...]))
    }

    /// A file whose size `fstat` does not tell (procfs reports 0) is read to its end all the same.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs procfs (Linux)"))
    func readsFileOfUnknownSize() throws {
        let bytes = try FileBytes.contents(atPath: "/proc/self/status", limit: 1 << 20)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("Name:") && text.contains("\nPid:") && text.hasSuffix("\n"))
    }
}
