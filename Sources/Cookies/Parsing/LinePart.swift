/// A name, value or attribute-value of a parsed `Set-Cookie` line: the range of its UTF-8 bytes in the
/// line, read into a `String` only when asked for, or a `String` given in its place.
///
/// Parsing a line thus allocates nothing for its parts (§5.6 only splits and trims the line); a cookie
/// that is stored makes each `String` once, from the line's bytes.
enum LinePart: Sendable {
    /// Bytes `start..<end` of the line's UTF-8; both offsets fall on ASCII delimiters or the line's ends,
    /// so on scalar boundaries.
    case bytes(start: Int, end: Int)
    case text(String)

    /// The part made of `bytes`, a slice of `line`.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>, of line: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, let lineStart = line.baseAddress else {
            self = .bytes(start: 0, end: 0)
            return
        }
        let offset = lineStart.distance(to: start)
        self = .bytes(start: offset, end: offset + bytes.count)
    }

    /// The text of this part of `line`.
    @inline(__always)
    func string(in line: String) -> String {
        switch self {
        case .bytes(let start, let end):
            return line.withUTF8Bytes { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
        case .text(let text):
            return text
        }
    }

    /// Appends the text of this part of `line` to `output`, without a `String` of its own.
    @inline(__always)
    func append(in line: String, to output: inout String) {
        switch self {
        case .bytes(let start, let end):
            let utf8 = line.utf8
            let first = utf8.index(utf8.startIndex, offsetBy: start)
            output.append(contentsOf: line[first..<utf8.index(first, offsetBy: end - start)])
        case .text(let text):
            output.append(text)
        }
    }

    /// The first UTF-8 byte of this part of `line`, nil when it is empty.
    @inline(__always)
    func firstByte(in line: String) -> UInt8? {
        switch self {
        case .bytes(let start, let end): start < end ? line.utf8[line.utf8.index(line.utf8.startIndex, offsetBy: start)] : nil
        case .text(let text): text.utf8.first
        }
    }
}
