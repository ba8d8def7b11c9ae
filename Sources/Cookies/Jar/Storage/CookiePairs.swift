/// The name-value pairs of one site's cookies, each as the `Cookie` header carries it (rfc6265bis-22
/// §5.8.3 step 4: `name=value`, or the value alone for a nameless cookie), one after another in one
/// buffer. A cookie's entry says where its pair starts, how long it is and how long its name is.
///
/// A header is copied out of the buffer pair by pair, its length known from the entries alone, and a
/// received cookie's pair is copied into it from the line: no String per name or value, no reference
/// count, no allocation per cookie. A removed pair, or one replaced by a longer pair (written at the
/// end), leaves garbage; the buffer is rewritten in send order once garbage is an eighth of it. Offsets
/// are 32-bit: a site's pairs stay far below 4 GiB (a pair holds at most 4,097 bytes, §5.6 step 5, so
/// its lengths are 16-bit, `StoredCookie`; and a site keeps `maxCookiesPerSite` cookies).
struct CookiePairs: Sendable {
    private(set) var bytes: [UInt8] = []
    /// How many bytes of `bytes` no entry refers to.
    private(set) var garbage = 0

    /// Removes every pair, keeping the buffer's memory.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        garbage = 0
    }

    /// The length of the pair of a cookie named `name` (UTF-8) whose value is `value`.
    @inline(__always)
    static func length(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Int {
        name.isEmpty ? value.count : name.count + 1 + value.count
    }

    /// Writes the pair of `name` and `value` at the end; sets `entry`'s pair fields to it (`isKnownASCII`:
    /// the caller knows the pair is ASCII, as when the line it came from is; otherwise its bytes tell).
    mutating func append(
        name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, isKnownASCII: Bool, to entry: inout StoredCookie
    ) {
        let length = CookiePairs.length(name: name, value: value)
        let start = bytes.count
        if start + length > bytes.capacity {
            // Grown by an eighth (not doubled) past 1 KiB, as the site's arrays are.
            bytes.reserveCapacity(max(start + length, start < 1024 ? 2 * start : start + start / 8))
        }
        if !name.isEmpty {
            bytes.append(contentsOf: name)
            bytes.append(UInt8(ascii: "="))
        }
        bytes.append(contentsOf: value)
        entry.pairStart = UInt32(start)
        entry.pairLength = UInt16(length)
        entry.nameLength = UInt16(name.count)
        CookiePairs.noteASCII(of: name, value, isKnownASCII: isKnownASCII, in: &entry)
    }

    /// Sets `entry`'s `asciiPair` flag for the pair of `name` and `value`: set when `isKnownASCII`, else
    /// worked out from the bytes.
    @inline(__always)
    private static func noteASCII(
        of name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>, isKnownASCII: Bool,
        in entry: inout StoredCookie
    ) {
        if isKnownASCII || (name.isASCII && value.isASCII) {
            entry.flags.insert(.asciiPair)
        } else {
            entry.flags.remove(.asciiPair)
        }
    }

    /// Gives `entry` (whose pair fields are those of `old`, a cookie of the same name) the pair of its
    /// name `name` and `value`: written over the old pair when it fits, else at the end (`isKnownASCII`
    /// as for `append`).
    mutating func replace(
        _ old: StoredCookie, with entry: inout StoredCookie, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
        isKnownASCII: Bool
    ) {
        let length = CookiePairs.length(name: name, value: value)
        guard length <= Int(old.pairLength) else {
            release(old)
            append(name: name, value: value, isKnownASCII: isKnownASCII, to: &entry)
            return
        }
        // The name is the same: only the value is written, after it.
        let valueStart = Int(old.pairStart) + length - value.count
        bytes.withUnsafeMutableBufferPointer { bytes in
            if let source = value.baseAddress { copyBytes(from: source, to: bytes.baseAddress! + valueStart, count: value.count) }
        }
        garbage += Int(old.pairLength) - length
        entry.pairStart = old.pairStart
        entry.pairLength = UInt16(length)
        entry.nameLength = old.nameLength
        CookiePairs.noteASCII(of: name, value, isKnownASCII: isKnownASCII, in: &entry)
    }

    /// Counts the pair of `entry`, which leaves the site, as garbage.
    @inline(__always)
    mutating func release(_ entry: StoredCookie) {
        garbage += Int(entry.pairLength)
    }

    /// True when garbage is an eighth of the buffer (and worth a rewrite): a rewrite then copies seven
    /// live bytes for each byte of garbage it drops, and the buffer holds little that no cookie uses (a
    /// jar's memory is mostly its entries and pairs).
    var needsCompaction: Bool { garbage > 256 && 8 * garbage > bytes.count }

    /// Rewrites the buffer with the pairs of `entries` only, in their order, and points them to their new
    /// places; a sixteenth more room is left for the pairs to come.
    mutating func compact(_ entries: UnsafeMutableBufferPointer<StoredCookie>) {
        let live = entries.reduce(0) { $0 + Int($1.pairLength) }
        let compacted = bytes.withUnsafeBufferPointer { bytes in
            [UInt8](unsafeUninitializedCapacity: live + live / 16) { buffer, initialized in
                initialized = 0
                for index in entries.indices {
                    let (start, length) = (Int(entries[index].pairStart), Int(entries[index].pairLength))
                    entries[index].pairStart = UInt32(initialized)
                    if length > 0 { (buffer.baseAddress! + initialized).initialize(from: bytes.baseAddress! + start, count: length) }
                    initialized += length
                }
            }
        }
        bytes = compacted
        garbage = 0
    }

    /// Calls `body` with the buffer in place.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer(body)
    }

    /// The name of `entry`'s cookie, as UTF-8 in `bytes` (the buffer, from `withBytes`).
    @inline(__always)
    static func name(of entry: StoredCookie, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[Int(entry.pairStart)..<Int(entry.pairStart) + Int(entry.nameLength)])
    }

    /// The value of `entry`'s cookie, as UTF-8 in `bytes`.
    @inline(__always)
    static func value(of entry: StoredCookie, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let start = Int(entry.pairStart) + (entry.nameLength == 0 ? 0 : Int(entry.nameLength) + 1)
        return UnsafeBufferPointer(rebasing: bytes[start..<Int(entry.pairStart) + Int(entry.pairLength)])
    }

    /// True when the cookie of `entry` is named `name` (UTF-8).
    @inline(__always)
    static func name(of entry: StoredCookie, in bytes: UnsafeBufferPointer<UInt8>, is name: UnsafeBufferPointer<UInt8>) -> Bool {
        Int(entry.nameLength) == name.count
            && (name.isEmpty || memoryEqual(bytes.baseAddress! + Int(entry.pairStart), name.baseAddress!, name.count))
    }

    /// The name and value of `entry`'s cookie as Strings, from `bytes` (the buffer, from `withBytes`; its
    /// bytes are well-formed UTF-8: they came from Strings, or were checked when read from a file).
    static func nameAndValue(of entry: StoredCookie, in bytes: UnsafeBufferPointer<UInt8>) -> (name: String, value: String) {
        let isASCII = entry.flags.contains(.asciiPair)
        return (String(wellFormedUTF8: CookiePairs.name(of: entry, in: bytes), isASCII: isASCII),
                String(wellFormedUTF8: CookiePairs.value(of: entry, in: bytes), isASCII: isASCII))
    }
}
