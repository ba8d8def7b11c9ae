/// What makes two cookies the same cookie: the identity of rfc6265bis-22 §5.7 step 23 (name, domain,
/// host-only-flag, path) plus the CHIPS partition key. A cookie received with the identity of a stored
/// one replaces it; a jar file has one row per identity; a mirror of a jar (a web view's store) keys its
/// cookies by it. Strings compare as UTF-8 bytes, as in a jar file's unique key: canonically equivalent
/// but different text ("é" and "e" + U+0301) makes different cookies.
public struct CookieIdentity: Hashable, Sendable {
    /// The cookie's name.
    public let name: String
    /// The cookie's domain (canonical, no leading dot).
    public let domain: String
    /// The cookie's host-only-flag.
    public let isHostOnly: Bool
    /// The cookie's path.
    public let path: String
    /// The cookie's CHIPS partition key; nil when unpartitioned.
    public let partitionKey: String?

    /// The identity of `cookie`.
    public init(_ cookie: Cookie) {
        name = cookie.name
        domain = cookie.domain
        isHostOnly = cookie.isHostOnly
        path = cookie.path
        partitionKey = cookie.partitionKey
    }

    /// The identity of the given texts.
    init(name: String, domain: String, isHostOnly: Bool, path: String, partitionKey: String?) {
        self.name = name
        self.domain = domain
        self.isHostOnly = isHostOnly
        self.path = path
        self.partitionKey = partitionKey
    }

    public static func == (first: CookieIdentity, second: CookieIdentity) -> Bool {
        guard first.isHostOnly == second.isHostOnly, first.name.hasSameUTF8(as: second.name),
            first.domain.hasSameUTF8(as: second.domain), first.path.hasSameUTF8(as: second.path)
        else { return false }
        switch (first.partitionKey, second.partitionKey) {
        case (nil, nil): return true
        case (let a?, let b?): return a.hasSameUTF8(as: b)
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        name.hashUTF8(into: &hasher)
        domain.hashUTF8(into: &hasher)
        hasher.combine(isHostOnly)
        path.hashUTF8(into: &hasher)
        if let partitionKey {
            hasher.combine(true)
            partitionKey.hashUTF8(into: &hasher)
        } else {
            hasher.combine(false)
        }
    }
}
