import Cookies

/// The domains a `CookieStoreSync` may touch: a cookie is in scope when its domain is one of them or a
/// subdomain of one. Cookies out of scope are never read into the merge, copied or deleted, on either
/// side: the app's unrelated cookies (an analytics or a payment provider's) stay as they are.
///
/// Partitioned (CHIPS) cookies are out of scope too: `HTTPCookie` has no partition key, so a platform
/// store would make them unpartitioned cookies.
public struct CookieSyncScope: Sendable, Hashable {
    /// The domains, canonical as the jar keeps a cookie's domain (`CanonicalHost`: IDNA A-labels,
    /// lower case, an IP address in its canonical text), without a leading dot.
    public let domains: [String]

    /// A scope of `domains` (e.g. `["example.com"]` for example.com and every subdomain), each written as
    /// a URL's host may be: in Unicode or A-labels, in any case, with or without a leading dot. Throws
    /// `CookieSyncError.invalidDomain` for the first that is no host name or IP address.
    public init(domains: [String]) throws(CookieSyncError) {
        var canonical: [String] = []
        for domain in domains { canonical.append(try Self.canonicalDomain(domain)) }
        self.domains = canonical
    }

    /// The scope of no domain: nothing is in it.
    static let none = CookieSyncScope(canonicalDomains: [])

    /// A scope of `domains`, canonical already.
    private init(canonicalDomains domains: [String]) {
        self.domains = domains
    }

    /// `domain` as the jar keeps a cookie's domain: one leading dot dropped (as from a Domain attribute,
    /// rfc6265bis-22 §5.6.3), then canonicalised as a host (§5.1.2: `www.bücher.test` is
    /// `www.xn--bcher-kva.test`). Throws `CookieSyncError.invalidDomain` when it is no host name or IP
    /// address: compared as written, it would match no cookie the jar holds.
    static func canonicalDomain(_ domain: String) throws(CookieSyncError) -> String {
        let host = domain.hasPrefix(".") ? String(domain.dropFirst()) : domain
        guard let canonical = CanonicalHost(host) else { throw .invalidDomain(domain) }
        return canonical.name
    }

    /// True when `cookie` may be synchronised.
    public func contains(_ cookie: Cookie) -> Bool {
        cookie.partitionKey == nil && covers(cookie.domain)
    }

    /// True when `domain` is one of the scope's domains or a subdomain of one.
    func covers(_ domain: String) -> Bool {
        domains.contains { Self.domain(domain, isWithin: $0) }
    }

    /// True when `domain` is `parent` or a subdomain of it (rfc6265bis-22 §5.1.3 domain-match, on
    /// canonical lower-case names: an IP address matches only itself).
    static func domain(_ domain: String, isWithin parent: String) -> Bool {
        if domain == parent { return true }
        let isIPAddress = domain.contains(":")
            || domain.utf8.allSatisfy { $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return !isIPAddress && domain.hasSuffix("." + parent)
    }
}
