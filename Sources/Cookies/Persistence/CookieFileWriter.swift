/// The bytes of a cookie file as a writer builds them: one allocation sized beforehand for the whole
/// file, filled through a pointer, so that writing 100,000 cookies costs no check of the array's
/// uniqueness and capacity per field, and no String of the whole document.
struct CookieFileWriter {
    private var next: UnsafeMutablePointer<UInt8>

    /// A file of at most `capacity` bytes, written by `body`. The caller counts every byte `body` may
    /// write: writing past `capacity` is a programming error, caught in debug builds.
    static func bytes(capacity: Int, _ body: (inout CookieFileWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            guard let start = buffer.baseAddress else { return }
            var writer = CookieFileWriter(next: start)
            body(&writer)
            count = writer.next - start
            assert(count <= capacity, "a cookie file writer wrote past the capacity it was given")
        }
    }

    private init(next: UnsafeMutablePointer<UInt8>) {
        self.next = next
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        next.initialize(to: byte)
        next += 1
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        next.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        next += text.utf8CodeUnitCount
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        next.update(from: base, count: bytes.count)
        next += bytes.count
    }

    /// The two digits of `value` (0–99).
    @inline(__always)
    mutating func appendTwoDigits(_ value: Int) {
        next[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
        next[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
        next += 2
    }

    /// A number in decimal, at most 20 bytes.
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 0
        var rest = magnitude
        repeat {
            digits += 1
            rest /= 10
        } while rest > 0
        for position in stride(from: digits - 1, through: 0, by: -1) {
            next[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
        next += digits
    }

    /// A string's UTF-8, in one copy.
    mutating func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }
}
