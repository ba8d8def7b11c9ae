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
