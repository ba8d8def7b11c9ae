/// Lending a string's (or any byte collection's) UTF-8 as an `UnsafeBufferPointer<UInt8>`: the one way
/// the engine reads text as bytes. `withContiguousBytes` is the mechanism (in place when the bytes are
/// contiguous, else from a copy); the others are it for a purpose of their own.

extension Collection<UInt8> {
    /// Calls `body` with the bytes: in place when the collection holds them contiguously (a native
    /// string's UTF-8, an array, `Data`), else from a copy (a bridged string, a lazy collection).
    @inline(__always)
    package func withContiguousBytes<R, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> R
    ) throws(Failure) -> R {
        let inPlace = withContiguousStorageIfAvailable { bytes in Result { () throws(Failure) -> R in try body(bytes) } }
        if let inPlace { return try inPlace.get() }
        return try withCopiedBytes(body)
    }

    /// `withContiguousBytes` from a copy: out of line, so that `body` is not inlined a second time where
    /// it is lent (the copy is for the rare bridged string or lazy collection).
    @inline(never)
    private func withCopiedBytes<R, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> R
    ) throws(Failure) -> R {
        try Array(self).withUnsafeBufferPointer { bytes in Result { () throws(Failure) -> R in try body(bytes) } }.get()
    }
}

extension String {
    /// Calls `body` with the UTF-8 bytes (`utf8.withContiguousBytes`).
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        utf8.withContiguousBytes(body)
    }

    /// `withUTF8Bytes` lent through `utf8.span` where the runtime has spans (a bridged string is
    /// transcoded to contiguous UTF-8 once): that lending is inlined with `body`, so closures nested
    /// around it capture the values they use in place instead of copying them (each copy of a value
    /// holding Strings retains them). For the receiving path and the URL's own reads, where it costs less
    /// than `withUTF8Bytes`; elsewhere `withUTF8Bytes` costs less.
    @inline(__always)
    func withUTF8BytesViaSpan<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return utf8.span.withUnsafeBufferPointer(body)
        }
        return withUTF8Bytes(body)
    }

    /// True when both strings have the same UTF-8 bytes. Cookies compare names, domains and paths as
    /// octets (rfc6265bis-22 §5.7 step 23); `==` would also equate canonically equivalent Unicode ("é"
    /// and "e" + U+0301), which are different cookies.
    @inline(__always)
    func hasSameUTF8(as other: String) -> Bool {
        other.withUTF8Bytes(hasUTF8)
    }

    /// True when the UTF-8 of this string is `bytes`.
    @inline(__always)
    func hasUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        withUTF8Bytes { $0.hasSameBytes(as: bytes) }
    }

    /// Feeds the UTF-8 bytes (and their count) to `hasher`: a hash agreeing with `hasSameUTF8(as:)`.
    func hashUTF8(into hasher: inout Hasher) {
        hasher.combine(utf8.count)
        for byte in utf8 { hasher.combine(byte) }
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
