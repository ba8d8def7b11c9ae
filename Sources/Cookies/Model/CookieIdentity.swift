/// What makes two cookies the same cookie: the identity of rfc6265bis-22 §5.7 step 23 (name, domain,
/// host-only-flag, path) plus the CHIPS partition key. A cookie received with the identity of a stored
/// one replaces it; a jar file has one row per identity; a mirror of a jar (a web view's store) keys its
/// cookies by it.
public struct CookieIdentity: Hashable, Sendable {
    public let name: String
    public let domain: String
    public let isHostOnly: Bool
    public let path: String
    public let partitionKey: String?

    public init(_ cookie: Cookie) {
        name = cookie.name
        domain = cookie.domain
        isHostOnly = cookie.isHostOnly
        path = cookie.path
        partitionKey = cookie.partitionKey
    }
}
