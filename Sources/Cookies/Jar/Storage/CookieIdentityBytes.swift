/// The identity of a cookie (`CookieIdentity`: rfc6265bis-22 §5.7 step 23's name, domain,
/// host-only-flag and path, plus the partition key of CHIPS §2.1) as the UTF-8 bytes of its parts, with
/// a 32-bit tag of them. A site keeps the tag of each of its cookies in an array of its own, so that
/// finding the cookie a new one replaces reads four bytes per cookie and compares the parts of only
/// those whose tag is equal. The tag's upper half is the tag of the name alone (`nameTag(of:)`), which
/// the search for a Secure cookie of a name (§5.7 step 16) reads the same way.
///
/// The bytes are borrowed: an identity lives only as long as the call that lends them.
struct CookieIdentityBytes {
    let name: UnsafeBufferPointer<UInt8>
    let domain: UnsafeBufferPointer<UInt8>
    let isHostOnly: Bool
    let path: UnsafeBufferPointer<UInt8>
    /// nil for an unpartitioned cookie.
    let partitionKey: UnsafeBufferPointer<UInt8>?
    /// The tag of all the parts: equal identities have equal tags.
    let tag: UInt32

    init(
        name: UnsafeBufferPointer<UInt8>, domain: UnsafeBufferPointer<UInt8>, isHostOnly: Bool,
        path: UnsafeBufferPointer<UInt8>, partitionKey: UnsafeBufferPointer<UInt8>?
    ) {
        (self.name, self.domain, self.isHostOnly, self.path, self.partitionKey) = (name, domain, isHostOnly, path, partitionKey)
        let nameHash = name.wordHash(seed: CookieIdentityBytes.seed)
        // The lower half: the name's hash, then the domain's and the path's ends and lengths (cookies of one
        // site differing only inside a domain or path of more than 16 bytes share a tag, which only costs
        // a comparison), each multiplied in, the flag and the partition key (hashed whole) mixed in too.
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = (nameHash ^ CookieIdentityBytes.ends(of: domain) ^ (isHostOnly ? 1 : 0)) &* multiplier
        hash = (hash ^ CookieIdentityBytes.ends(of: path)) &* multiplier
        if let partitionKey { hash = partitionKey.wordHash(seed: hash ^ 1) }
        tag = UInt32(truncatingIfNeeded: nameHash &>> 48) &<< 16 | UInt32(truncatingIfNeeded: (hash ^ hash &>> 29) &>> 48)
    }

    /// The first and last eight bytes of `bytes` (overlapping when fewer than sixteen; fewer than eight:
    /// its `shortWord`) and its length, in one word.
    @inline(__always)
    private static func ends(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init), count > 0 else { return 0 }
        let ends: UInt64
        if count >= 8 {
            // The last word turned by 29 bits, so that equal halves do not cancel.
            let last = base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            ends = base.loadUnaligned(as: UInt64.self) ^ (last &<< 29 | last &>> 35)
        } else {
            ends = bytes.shortWord
        }
        return ends &+ UInt64(truncatingIfNeeded: count) &* 0x0100_0000_0000_0001
    }

    /// Calls `body` with the identity of `cookie`.
    static func of<R>(_ cookie: Cookie, _ body: (CookieIdentityBytes) -> R) -> R {
        cookie.name.withUTF8Bytes { name in
            cookie.domain.withUTF8Bytes { domain in
                cookie.path.withUTF8Bytes { path in
                    cookie.partitionKey.withUTF8BytesViaSpan { partitionKey in
                        body(CookieIdentityBytes(
                            name: name, domain: domain, isHostOnly: cookie.isHostOnly, path: path, partitionKey: partitionKey))
                    }
                }
            }
        }
    }

    /// The tag of a name (its UTF-8 bytes): the upper half of the tag of every identity with that name.
    @inline(__always)
    static func nameTag(of name: UnsafeBufferPointer<UInt8>) -> UInt16 {
        UInt16(truncatingIfNeeded: name.wordHash(seed: seed) &>> 48)
    }

    /// The seed of every hash of this process (tags are never stored).
    private static let seed = UInt64.random(in: .min ... .max)
}
