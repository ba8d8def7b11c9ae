extension String {
    /// `bytes` as a String when they are well-formed UTF-8, else nil. ASCII, the usual case in cookie
    /// files, takes a fast path that avoids the generic `String(validating:as:)`.
    init?(validatingUTF8Bytes bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.isASCII {
            self = String(decoding: bytes, as: UTF8.self)
        } else {
            guard let string = String(validating: bytes, as: UTF8.self) else { return nil }
            self = string
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// True when the bytes are well-formed UTF-8, which a String made of them holds unchanged (of other
    /// bytes, `String(decoding:as:)` makes U+FFFD of each ill-formed sequence). ASCII, the usual case in
    /// cookie files, is told a word at a time (`isASCII`); only other bytes are validated.
    var isWellFormedUTF8: Bool {
        isASCII || String(validating: self, as: UTF8.self) != nil
    }
}
