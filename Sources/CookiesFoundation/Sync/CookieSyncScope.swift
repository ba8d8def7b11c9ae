import Cookies

/// The domains a `CookieStoreSync` may touch: a cookie is in scope when its domain is one of them or a
/// subdomain of one. Cookies out of scope are never read into the merge, copied or deleted, on either
/// side: the app's unrelated cookies (an analytics or a payment provider's) stay as they are.
///
/// Partitioned (CHIPS) cookies are out of scope too: `HTTPCookie` has no partition key, so a platform
/// store would make them unpartitioned cookies.
public struct CookieSyncScope: Sendable, Hashable {
    /// The domains, lower-cased, without a leading dot.
    public let domains: [String]

    /// A scope of `domains` (e.g. `["example.com"]` for example.com and every subdomain).
    public init(domains: [String]) {
        self.domains = domains.map { domain in
            let lowered = domain.lowercased()
            return lowered.hasPrefix(".") ? String(lowered.dropFirst()) : lowered
        }
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
