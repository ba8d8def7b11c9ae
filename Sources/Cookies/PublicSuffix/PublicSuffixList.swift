/// A public suffix list (https://publicsuffix.org/list/), ICANN and private sections, with the "*" default rule.
///
/// Cookie stores use it to refuse Domain attributes that name a public suffix (RFC 6265bis-22 §5.7 step 9).
public protocol PublicSuffixList: Sendable {
    /// The registrable domain (public suffix plus one label) of `domain`, or nil when `domain` is itself a public suffix
    /// (or has no label left of its suffix). What a list of your own is asked: `domain` is lower-case ASCII, IDNA
    /// A-labels, no leading or trailing dot, not an IP literal. The lists of this package (`PublicSuffixRules`,
    /// `LibPSLList`) also take a name as a URL's host may be written, and canonicalise it first.
    func registrableDomain(of domain: String) -> String?

    /// Where the registrable domain of `domain` (its UTF-8; the same contract as `registrableDomain(of:)`) starts
    /// in it, nil when it has none. A list that reads bytes answers without making a String; the default asks
    /// `registrableDomain(of:)`.
    func registrableDomainStart(inUTF8 domain: UnsafeBufferPointer<UInt8>) -> Int?

    /// Which list this is and how old, when known (nil for a list made from text in memory).
    var info: PublicSuffixListInfo? { get }
}

extension PublicSuffixList {
    /// True when `domain` is a public suffix (incl. the "*" default rule: every single label is one). The
    /// name is taken as a URL's host may be written (any case, Unicode or A-labels, a trailing dot) and
    /// canonicalised first (`CanonicalHost`): `CO.UK`, `co.uk.` and `公司.cn` are public suffixes as `co.uk`
    /// and `xn--55qx5d.cn` are. An IP address is none; a name that is no host counts as one (no cookie may
    /// name it either).
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard let host = CanonicalHost(domain) else { return true }
        return host.kind == .domain && host.withNameBytes { isPublicSuffix(canonicalDomain: $0) }
    }

    public func registrableDomainStart(inUTF8 domain: UnsafeBufferPointer<UInt8>) -> Int? {
        Self.start(ofRegistrableDomain: registrableDomain(of: String(decoding: domain, as: UTF8.self)), in: domain)
    }

    /// Where `answer`, a list's registrable domain of `domain` (UTF-8), starts in it. The registrable domain
    /// is a suffix of the domain: it starts its length before the end. An answer that is no suffix of it (a
    /// list that breaks its contract) counts as none.
    static func start(ofRegistrableDomain answer: String?, in domain: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let answer, answer.utf8.count <= domain.count else { return nil }
        let start = domain.count - answer.utf8.count
        return answer.hasUTF8(UnsafeBufferPointer(rebasing: domain[start...])) ? start : nil
    }

    /// Nil: a list says where it came from only when it knows.
    public var info: PublicSuffixListInfo? { nil }
}
