extension Collection<UInt8> {
    /// Runs `body` on the bytes in place when they are contiguous, on a copy otherwise.
    func withCookieFileBytes<R>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(CookieFileError) -> R
    ) throws(CookieFileError) -> R {
        let result = withContiguousStorageIfAvailable { buffer in
            Result { () throws(CookieFileError) -> R in try body(buffer) }
        }
        if let result { return try result.get() }
        return try Array(self).withUnsafeBufferPointer { buffer in
            Result { () throws(CookieFileError) -> R in try body(buffer) }
        }.get()
    }
}
