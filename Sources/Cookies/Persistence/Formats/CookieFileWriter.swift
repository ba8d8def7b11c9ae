/// The bytes of a cookie file as a writer builds them, filled through a pointer, so that writing
/// 100,000 cookies costs no check of the array's uniqueness and capacity per field: either one
/// allocation sized beforehand for the whole file (`bytes(capacity:_:)`), or one buffer handed on in
/// chunks as it fills (`chunks(of:to:_:)`), and no String of the whole document either way.
struct CookieFileWriter {
    private var next: UnsafeMutablePointer<UInt8>
    /// The buffer's first byte and its end.
    private var start: UnsafeMutablePointer<UInt8>
    private var end: UnsafeMutablePointer<UInt8>
    /// Where a writer of chunks hands its full buffer; nil for a writer of one allocation.
    private let flush: ((UnsafeBufferPointer<UInt8>) -> Void)?

    /// A file of at most `capacity` bytes, written by `body`. The caller counts every byte `body` may
    /// write: writing past `capacity` is a programming error, which traps (`room(for:)`).
    static func bytes(capacity: Int, _ body: (inout CookieFileWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            guard let start = buffer.baseAddress else { return }
            var writer = CookieFileWriter(start: start, capacity: capacity, flush: nil)
            body(&writer)
            count = writer.next - start
        }
    }

    /// A file of any size written by `body` into a buffer of `chunkSize` bytes, handed to `write`
    /// whenever `body` reserves room for more than is left (`reserve(_:)`), and at the end: the whole
    /// file never needs more memory than the buffer.
    static func chunks(
        of chunkSize: Int, to write: (UnsafeBufferPointer<UInt8>) -> Void, _ body: (inout CookieFileWriter) -> Void
    ) {
        withoutActuallyEscaping(write) { write in
            let start = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
            var writer = CookieFileWriter(start: start, capacity: chunkSize, flush: write)
            body(&writer)
            writer.handOn()
            writer.start.deallocate()
        }
    }

    private init(start: UnsafeMutablePointer<UInt8>, capacity: Int, flush: ((UnsafeBufferPointer<UInt8>) -> Void)?) {
        self.next = start
        self.start = start
        self.end = start + capacity
        self.flush = flush
    }

    /// Makes room for the next `count` bytes: a writer of chunks hands on its buffer when they might
    /// not fit (and takes a larger one when they would not fit in an empty one); a writer of one
    /// allocation has room for everything its caller counted.
    @inline(__always)
    mutating func reserve(_ count: Int) {
        guard flush != nil, count > end - next else { return }
        handOn()
        if count > end - start {
            start.deallocate()
            start = .allocate(capacity: count)
            end = start + count
            next = start
        }
    }

    /// Hands the bytes written since the last time (if any) to `flush`, and empties the buffer.
    private mutating func handOn() {
        guard next > start else { return }
        flush?(UnsafeBufferPointer(start: start, count: next - start))
        next = start
    }

    /// Where the next `count` bytes go; traps when the buffer has no room for them (a caller that
    /// counted wrong), so that nothing is written past it.
    @inline(__always)
    private func room(for count: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(count <= end - next, "a cookie file writer was given too little room")
        return next
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        room(for: 1).initialize(to: byte)
        next += 1
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        room(for: text.utf8CodeUnitCount).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        next += text.utf8CodeUnitCount
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        room(for: bytes.count).update(from: base, count: bytes.count)
        next += bytes.count
    }

    /// The two digits of `value` (0–99).
    @inline(__always)
    mutating func appendTwoDigits(_ value: Int) {
        _ = room(for: 2)
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
        _ = room(for: digits)
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
