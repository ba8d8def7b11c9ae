/// Reads a fuzz input as lines (split at "\n"), and each line as one choice byte after another followed
/// by a payload. A choice byte `"0"`, `"1"`, … picks the first, second, … option (any byte picks one),
/// so that seeds can be written by hand.
struct FuzzInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next line (without its "\n"), or nil at the end of the input.
    mutating func nextLine() -> FuzzLine? {
        guard index < bytes.count else { return nil }
        let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        let line = FuzzLine(UnsafeBufferPointer(rebasing: bytes[index..<end]))
        index = end + 1
        return line
    }
}

/// One line of a fuzz input: choice bytes, then the payload (the rest).
struct FuzzLine {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next byte as is (0 past the end).
    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// One of `options`, picked by the next byte (`"0"` the first).
    mutating func choice<T>(_ options: [T]) -> T {
        options[Int(byte() &- UInt8(ascii: "0")) % options.count]
    }

    /// The bytes after the choices read so far.
    var payload: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[min(index, bytes.count)...])
    }
}
