import Cookies
import Foundation

/// Text built as UTF-8 bytes in one buffer and written with `write(2)`: a table of 100,000 cookies costs
/// no String per line or cell and no `print` per line. An append is a capacity check and a copy (no
/// array's uniqueness check per byte); the buffer is not copyable, so it is never shared.
///
/// A buffer made with `streaming: true` is written to standard output whenever it holds more than
/// `streamingThreshold` bytes at the end of a line (`endLine()`), so that output of any size needs only
/// that much memory; any other keeps every byte until written.
struct OutputText: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    private let streaming: Bool

    /// The size at which a streaming buffer is written out.
    static let streamingThreshold = 1 << 20

    init(streaming: Bool = false) {
        self.streaming = streaming
        capacity = streaming ? Self.streamingThreshold + 4096 : 256
        start = .allocate(capacity: capacity)
    }

    deinit { start.deallocate() }

    var string: String { String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) }

    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > self.capacity { grow(to: capacity) }
    }

    @inline(never)
    private mutating func grow(to minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: start, count: count)
        start.deallocate()
        start = grown
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (start + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// A string's UTF-8 in one copy, rather than through its UTF-8 view's iterator.
    mutating func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        start[count] = byte
        count += 1
    }

    mutating func append(_ text: borrowing OutputText, from range: Range<Int>) {
        append(UnsafeBufferPointer(start: text.start + range.lowerBound, count: range.count))
    }

    /// `text` with each character a terminal would obey written as an escape (`\u{1B}`): the controls
    /// and the bidirectional formatting characters (`TerminalControlCharacter`), which a terminal would act
    /// on, or which reorder what follows them on the line, so that a cookie's name could show as another's
    /// or hide a cell of its row. Cookie texts come from files and servers: shown, never obeyed.
    /// `keepingLineBreaks`: line feeds are appended as they are (a message of several lines).
    mutating func appendShowingControls(_ text: String, keepingLineBreaks: Bool = false) {
        var text = text
        text.withUTF8 { appendShowingControls(utf8: $0, keepingLineBreaks: keepingLineBreaks) }
    }

    /// `appendShowingControls(_:)` for UTF-8 bytes.
    mutating func appendShowingControls(utf8 bytes: UnsafeBufferPointer<UInt8>, keepingLineBreaks: Bool = false) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A, keepingLineBreaks {
                append(byte)
                index += 1
            } else if TerminalControlCharacter.mayStart(byte), let control = TerminalControlCharacter.at(index, in: bytes) {
                appendEscape(control.scalar)
                index += control.length
            } else {
                append(byte)
                index += 1
            }
        }
    }

    /// `\u{XX}` (`\u{XXXX}` above U+00FF) for a control character's scalar value.
    private mutating func appendEscape(_ value: UInt32) {
        let hex: StaticString = "0123456789ABCDEF"
        append("\\u{")
        for shift in stride(from: value > 0xFF ? 12 : 4, through: 0, by: -4) {
            append(hex.utf8Start[Int(value >> UInt32(shift) & 0xF)])
        }
        append(UInt8(ascii: "}"))
    }

    mutating func appendSpaces(_ count: Int) {
        guard count > 0 else { return }
        if self.count + count > capacity { grow(to: self.count + count) }
        (start + self.count).update(repeating: UInt8(ascii: " "), count: count)
        self.count += count
    }

    /// The two digits of `value` (0–99).
    @inline(__always)
    mutating func appendTwoDigits(_ value: Int) {
        append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }

    /// A number in decimal.
    mutating func appendDecimal(_ value: some BinaryInteger) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, least significant first
        var count = 0
        withUnsafeMutableBytes(of: &digits) { digits in
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { append(digits[index]) }
        }
    }

    /// Removes the spaces at the end.
    mutating func removeTrailingSpaces() {
        while count > 0, start[count - 1] == UInt8(ascii: " ") { count -= 1 }
    }

    /// Ends a line: a streaming buffer holding more than `streamingThreshold` bytes is written out.
    mutating func endLine() {
        append(UInt8(ascii: "\n"))
        if streaming, count >= Self.streamingThreshold { writeToStandardOutput() }
    }

    /// How many terminal columns the text of the bytes in `range` takes (`Unicode.Scalar.terminalColumns`):
    /// its byte count when it is ASCII (read eight bytes at a time), else the sum over its scalars.
    func terminalColumns(_ range: Range<Int>) -> Int {
        var highBits: UInt64 = 0
        var index = range.lowerBound
        while index + 8 <= range.upperBound {
            highBits |= UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        while index < range.upperBound {
            highBits |= UInt64(start[index])
            index += 1
        }
        guard highBits & 0x8080_8080_8080_8080 != 0 else { return range.count }
        var columns = 0
        var decoder = Unicode.UTF8.ForwardParser()
        var bytes = UnsafeBufferPointer(start: start + range.lowerBound, count: range.count).makeIterator()
        while true {
            switch decoder.parseScalar(from: &bytes) {
            case .valid(let encoded): columns += Unicode.UTF8.decode(encoded).terminalColumns
            // Shown as U+FFFD, one column.
            case .error: columns += 1
            case .emptyInput: return columns
            }
        }
    }

    /// Writes the bytes to standard output and empties the buffer.
    mutating func writeToStandardOutput() {
        Self.writeToStandardOutput(UnsafeBufferPointer(start: start, count: count))
        count = 0
    }

    /// Writes the bytes to standard error (all of them, `writeAll`; a failure there has nowhere to be told).
    func writeToStandardError() {
        _ = writeAll(UnsafeRawBufferPointer(start: start, count: count), to: STDERR_FILENO)
    }

    /// Writes `bytes` to standard output (`StandardOutput`); false when the output is lost.
    @discardableResult
    static func writeToStandardOutput(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        StandardOutput.write(UnsafeRawBufferPointer(bytes))
    }
}

extension String {
    /// The string with its control characters shown as escapes (`OutputText.appendShowingControls`): a
    /// text of a file or a server, to be printed among others.
    var showingControls: String {
        var out = OutputText()
        out.appendShowingControls(self)
        return out.string
    }
}
