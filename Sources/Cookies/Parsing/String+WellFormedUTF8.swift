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
