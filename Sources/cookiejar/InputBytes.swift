import Foundation

/// Whole inputs the tool reads itself (standard input, scenario and ratchet files), through `read(2)`:
/// a read that fails is an `InputError` naming the input and why, never a crash (Foundation's
/// `FileHandle.readDataToEndOfFile()` traps on a read error, a directory or a closed descriptor).
enum InputBytes {
    /// All of standard input.
    static func standardInput() throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        let failure = readAll(from: STDIN_FILENO, into: &bytes)
        if failure != 0 { throw InputError(description: "standard input: cannot read it: \(String(cString: strerror(failure)))") }
        return bytes
    }

    /// All of the file at `path`.
    static func file(_ path: String) throws(InputError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var failure = descriptor < 0 ? errno : 0
        var bytes: [UInt8] = []
        if descriptor >= 0 {
            failure = readAll(from: descriptor, into: &bytes)
            close(descriptor)
        }
        if failure != 0 { throw InputError(description: "\(path): cannot read the file: \(String(cString: strerror(failure)))") }
        return bytes
    }

    /// Appends what `descriptor` holds to its end to `bytes`, continuing reads an interrupt stopped;
    /// returns the `errno` of a read that failed, 0 when the end was reached.
    private static func readAll(from descriptor: Int32, into bytes: inout [UInt8]) -> Int32 {
        let chunkSize = 1 << 16
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunkSize))
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + start, chunkSize) }
            let failure = count < 0 ? errno : 0
            bytes.removeLast(chunkSize - max(count, 0))
            if failure == EINTR { continue }
            if failure != 0 { return failure }
            if count == 0 { return 0 }
        }
    }
}
