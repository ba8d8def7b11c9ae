extension String {
    /// True when a UTF-8 byte of the string satisfies `predicate`. A native string's bytes are scanned
    /// in place, through a buffer pointer rather than `utf8`'s index-by-index iteration.
    @inline(__always)
    func containsUTF8Byte(where predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(where: predicate) } ?? utf8.contains(where: predicate)
    }
}
