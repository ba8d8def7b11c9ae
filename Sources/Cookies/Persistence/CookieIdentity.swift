/// The identity of rfc6265bis-22 §5.7 step 23 (name, domain, host-only-flag, path) plus the CHIPS
/// partition key: the unique key of a jar file's rows.
struct CookieIdentity: Hashable, Sendable {
    let name: String
    let domain: String
    let isHostOnly: Bool
    let path: String
    let partitionKey: String?

    init(_ cookie: Cookie) {
        name = cookie.name
        domain = cookie.domain
        isHostOnly = cookie.isHostOnly
        path = cookie.path
        partitionKey = cookie.partitionKey
    }
}
