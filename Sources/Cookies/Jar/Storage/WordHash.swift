// The hash of the storage's byte-keyed tables (`DomainTable`, `CookieIdentityBytes`' tags): every receipt
// and request hashes a host or an identity, so it reads the bytes in place, a word at a time, where SipHash
// over a String would cost several times as much.

extension UnsafeBufferPointer<UInt8> {
    /// A 64-bit hash of these bytes from `seed`: each eight bytes mixed in with a multiply, then the
    /// bits folded down so that the low ones depend on all of them. The bytes after the last whole word
    /// are read in one load that ends with them (a shorter buffer: two loads of four, or of two, that
    /// may overlap; a single byte alone). The length is mixed in first, so the overlap is
    /// never ambiguous. Not a cryptographic hash: its users compare the bytes themselves whenever two
    /// hashes are equal, so a collision costs a comparison, never a wrong answer.
    @inline(__always)
    func wordHash(seed: UInt64) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = seed ^ UInt64(count)
        if let base = baseAddress.map(UnsafeRawPointer.init) {
            var offset = 0
            while count &- offset >= 8 {
                hash = (hash ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* multiplier
                offset &+= 8
            }
            let rest = count &- offset
            if rest > 0 {
                let last = count >= 8
                    ? UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) &>> ((8 &- rest) &* 8)
                    : shortWord
                hash = (hash ^ last) &* multiplier
            }
        }
        hash ^= hash &>> 32
        hash = hash &* multiplier
        return hash ^ hash &>> 29
    }

    /// The bytes of a buffer of one to seven bytes in one word: two loads of four, or of two, that may
    /// overlap, or the one byte (the bytes read are a function of the bytes and the count alone).
    @inline(__always)
    var shortWord: UInt64 {
        let base = UnsafeRawPointer(baseAddress.unsafelyUnwrapped)
        if count >= 4 {
            return UInt64(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
                | UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))) &<< 32
        }
        if count >= 2 {
            return UInt64(UInt16(littleEndian: base.loadUnaligned(as: UInt16.self)))
                | UInt64(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))) &<< 16
        }
        return UInt64(base.load(as: UInt8.self))
    }
}
