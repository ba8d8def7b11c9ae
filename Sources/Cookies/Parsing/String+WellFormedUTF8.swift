extension String {
    /// A String of `bytes`, which the caller knows to be well-formed UTF-8 (copied out of Strings and cut
    /// at ASCII bytes, or checked when read from a file), and all ASCII when `isASCII`. Where the standard
    /// library can take UTF-8 unchecked (`UTF8Span`, Swift 6.2 runtimes) the bytes are only copied; a
    /// Cookie header of 700 bytes with one non-ASCII cookie otherwise costs a validation pass six times
    /// as long as the copy. Elsewhere they are validated.
    init(wellFormedUTF8 bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) {
        // Checked in debug builds and under the fuzzers (release builds with FUZZING).
        #if FUZZING
        precondition(String(validating: bytes, as: UTF8.self) != nil, "bytes taken as well-formed UTF-8 are not")
        precondition(!isASCII || bytes.isASCII, "bytes taken as ASCII are not")
        #else
        assert(String(validating: bytes, as: UTF8.self) != nil, "bytes taken as well-formed UTF-8 are not")
        assert(!isASCII || bytes.isASCII, "bytes taken as ASCII are not")
        #endif
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            self.init(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
        } else {
            self.init(decoding: bytes, as: UTF8.self)
        }
    }
}

extension String {
    /// Calls `body` with the UTF-8 bytes, lent through `utf8.span` where the runtime has spans (a bridged
    /// string is transcoded to contiguous UTF-8 once): that lending is inlined with `body`, so closures
    /// nested around it capture the values they use in place instead of copying them (each copy of a
    /// value holding Strings retains them). For the receiving path and the URL's own reads, where it costs
    /// less than `withUTF8Bytes`; elsewhere `withUTF8Bytes` costs less.
    @inline(__always)
    func withUTF8BytesViaSpan<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return utf8.span.withUnsafeBufferPointer(body)
        }
        return withUTF8Bytes(body)
    }
}

extension Optional<String> {
    /// `String.withUTF8BytesViaSpan` for a string that may be absent: `body` gets nil for none.
    @inline(__always)
    func withUTF8BytesViaSpan<R>(_ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let string = self else { return body(nil) }
        return string.withUTF8BytesViaSpan { body($0) }
    }
}

/// Calls `body` with `bytes` when they are well-formed UTF-8, else with the UTF-8 of the String they
/// decode to (each ill-formed sequence replaced by U+FFFD), as a `String` made of them would hold.
func withWellFormedUTF8<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if bytes.isASCII { return body(bytes) }
    var repaired = String(decoding: bytes, as: UTF8.self)
    return repaired.withUTF8(body)
}

extension UnsafeBufferPointer<UInt8> {
    /// True when every byte is ASCII (below 0x80), read eight at a time (the last word overlapping the
    /// one before it when the count is not a multiple of eight).
    var isASCII: Bool {
        guard let base = baseAddress, count > 0 else { return true }
        guard count >= 8 else {
            var bits: UInt8 = 0
            for offset in 0..<count { bits |= base[offset] }
            return bits < 0x80
        }
        var bits = UnsafeRawPointer(base + (count - 8)).loadUnaligned(as: UInt64.self)
        var offset = 0
        while count - offset > 8 {
            bits |= UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            offset += 8
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}
