import Foundation

/// Text built as UTF-8 bytes and written to standard output at once: a table of 100,000 cookies costs
/// no String per line or cell, and one `write(2)` loop instead of a `print` per line.
struct OutputText {
    private(set) var bytes: [UInt8] = []

    var count: Int { bytes.count }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func reserveCapacity(_ capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func append(_ text: String) {
        // A native string's bytes in one copy, rather than through its UTF-8 view's iterator.
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ text: OutputText, from range: Range<Int>) { bytes.append(contentsOf: text.bytes[range]) }

    mutating func appendSpaces(_ count: Int) {
        var remaining = count
        while remaining > 0 {
            let chunk = min(remaining, Self.spaces.count)
            Self.spaces.withUnsafeBufferPointer { bytes.append(contentsOf: $0[..<chunk]) }
            remaining -= chunk
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 256)

    /// A number in decimal.
    mutating func appendDecimal(_ value: some BinaryInteger) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, least significant first
        var count = 0
        withUnsafeMutableBytes(of: &digits) { digits in
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(digits[index]) }
        }
    }

    /// Removes the spaces at the end.
    mutating func removeTrailingSpaces() {
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
    }

    /// How many Unicode scalars the bytes in `range` hold: the bytes that do not continue a UTF-8
    /// sequence (10xxxxxx), counted eight at a time: a continuation byte has its high bit set and the
    /// next bit clear.
    func scalarCount(_ range: Range<Int>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            var continuations = 0
            var index = range.lowerBound
            while index + 8 <= range.upperBound {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                continuations += (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
                index += 8
            }
            for byte in buffer[index..<range.upperBound] where byte & 0xC0 == 0x80 { continuations += 1 }
            return range.count - continuations
        }
    }

    func writeToStandardOutput() {
        bytes.withUnsafeBufferPointer { Self.writeToStandardOutput($0) }
    }

    /// Writes `bytes` to standard output, continuing partial writes; like `print`, a failed write (a
    /// closed pipe) ends the output quietly.
    static func writeToStandardOutput(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(STDOUT_FILENO, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            next += written
            remaining -= written
        }
    }
}
