/// The identity of a cookie (`CookieIdentity`: rfc6265bis-22 §5.7 step 23's name, domain,
/// host-only-flag and path, plus the partition key of CHIPS §2.1) as the UTF-8 bytes of its parts, with
/// a 32-bit tag of them. A site keeps the tag of each of its cookies in an array of its own, so that
/// finding the cookie a new one replaces reads four bytes per cookie and compares the parts of only
/// those whose tag is equal.
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
    /// `StoredCookie.nameTag(ofUTF8:)` of the name, from the same hash.
    let nameTag: UInt16

    init(
        name: UnsafeBufferPointer<UInt8>, domain: UnsafeBufferPointer<UInt8>, isHostOnly: Bool,
        path: UnsafeBufferPointer<UInt8>, partitionKey: UnsafeBufferPointer<UInt8>?
    ) {
        (self.name, self.domain, self.isHostOnly, self.path, self.partitionKey) = (name, domain, isHostOnly, path, partitionKey)
        let nameHash = CookieIdentityBytes.hash(ofName: name)
        nameTag = UInt16(truncatingIfNeeded: nameHash >> 48)
        // Each part's hash seeds the next one's (each hash mixes in its part's length, so the parts'
        // boundaries count); the flag and the presence of a partition key go into the seeds.
        var hash = domain.wordHash(seed: nameHash ^ (isHostOnly ? 1 : 0))
        hash = path.wordHash(seed: hash)
        if let partitionKey { hash = partitionKey.wordHash(seed: hash ^ 1) }
        tag = UInt32(truncatingIfNeeded: hash >> 32)
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

    /// The hash of a name's UTF-8 bytes that its tags are made of.
    @inline(__always)
    static func hash(ofName name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        name.wordHash(seed: seed)
    }

    /// The seed of every hash of this process (tags are never stored).
    private static let seed = UInt64.random(in: .min ... .max)
}
