#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The workload files of ../shared/bench (gen.py): `receipts-*.tsv` (`url<TAB>set-cookie-value`) and
/// `queries.tsv` (one URL per line), read whole before any timing.
enum WorkloadFiles {
    struct Receipt {
        let url: String
        let setCookie: String
    }

    /// The receipts of `path`, in arrival order; lines without a TAB are skipped.
    static func receipts(atPath path: String) -> [Receipt] {
        var receipts: [Receipt] = []
        receipts.reserveCapacity(lineCount(atPath: path))
        forEachLine(atPath: path) { line in
            guard let tab = line.firstIndex(of: UInt8(ascii: "\t")) else { return }
            receipts.append(Receipt(
                url: String(decoding: UnsafeBufferPointer(rebasing: line[..<tab]), as: UTF8.self),
                setCookie: String(decoding: UnsafeBufferPointer(rebasing: line[(tab + 1)...]), as: UTF8.self)))
        }
        return receipts
    }

    /// The non-empty lines of `path`.
    static func lines(atPath path: String) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(lineCount(atPath: path))
        forEachLine(atPath: path) { line in
            if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
        }
        return lines
    }

    /// How many lines `path` has (a last line without a newline counts), so that the arrays holding
    /// them are allocated once, at their final size.
    private static func lineCount(atPath path: String) -> Int {
        var count = 0
        forEachLine(atPath: path) { _ in count += 1 }
        return count
    }

    /// Calls `body` with each line of `path`, read through one buffer of `bufferSize` bytes (grown only
    /// for a longer line). Reading leaves no freed memory behind: the harness's `rss-jar` minus
    /// `rss-input` is a difference of peak RSS, and memory freed while the inputs were read would be
    /// reused by the jar without raising the peak, hiding the jar's own footprint.
    private static func forEachLine(atPath path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            printError("cannot open '\(path)'")
            exit(3)
        }
        defer { close(descriptor) }
        var buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bufferSize)
        defer { buffer.deallocate() }
        // Bytes of an unfinished line kept at the start of `buffer`.
        var kept = 0
        while true {
            if kept == buffer.count {
                let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 2 * buffer.count)
                _ = larger.initialize(fromContentsOf: buffer)
                buffer.deallocate()
                buffer = larger
            }
            let count = Glibc.read(descriptor, buffer.baseAddress! + kept, buffer.count - kept)
            if count < 0 {
                if errno == EINTR { continue }
                printError("cannot read '\(path)'")
                exit(3)
            }
            if count == 0 { break }
            let filled = kept + count
            var start = 0
            while let end = buffer[start..<filled].firstIndex(of: UInt8(ascii: "\n")) {
                body(UnsafeBufferPointer(rebasing: buffer[start..<end]))
                start = end + 1
            }
            kept = filled - start
            if kept > 0, start > 0 { buffer.baseAddress!.update(from: buffer.baseAddress! + start, count: kept) }
        }
        if kept > 0 { body(UnsafeBufferPointer(rebasing: buffer[..<kept])) }
    }

    /// Below glibc's smallest mmap threshold (128 KiB): the buffer comes from, and returns to, the heap
    /// where the next file's buffer reuses it.
    private static let bufferSize = 64 << 10

    /// The bytes of the file at `path`; exits with status 3 when it cannot be read.
    static func read(_ path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            printError("cannot open '\(path)'")
            exit(3)
        }
        defer { close(descriptor) }
        // One allocation of the file's size: a growing buffer would raise the peak RSS that the
        // harness subtracts as "inputs" (its rss-input phase) above the jar's own footprint.
        let size = Int(lseek(descriptor, 0, SEEK_END))
        // Files of /proc have no size: read those in chunks.
        if size <= 0 { return readChunks(descriptor, path: path) }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            printError("cannot read '\(path)'")
            exit(3)
        }
        var filled = 0
        let contents = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            while filled < size {
                let count = Glibc.read(descriptor, buffer.baseAddress! + filled, size - filled)
                if count == 0 { break }
                if count < 0 {
                    if errno == EINTR { continue }
                    printError("cannot read '\(path)'")
                    exit(3)
                }
                filled += count
            }
            initialized = filled
        }
        return contents
    }

    private static func readChunks(_ descriptor: Int32, path: String) -> [UInt8] {
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                printError("cannot read '\(path)'")
                exit(3)
            }
            contents.append(contentsOf: chunk[..<count])
        }
    }
}

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    var line = "cookiejar-bench: " + message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// The peak resident set size of this process (VmHWM of /proc/self/status), in kB; -1 when unknown.
func peakResidentKilobytes() -> Int {
    let status = String(decoding: WorkloadFiles.read("/proc/self/status"), as: UTF8.self)
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.dropFirst(6).drop { $0 == " " || $0 == "\t" }.prefix { $0 != " " }
        return Int(digits) ?? -1
    }
    return -1
}
