/// A public suffix list (https://publicsuffix.org/list/), ICANN and private sections, with the "*" default rule.
///
/// Cookie stores use it to refuse Domain attributes that name a public suffix (RFC 6265bis, "Storage Model").
public protocol PublicSuffixList: Sendable {
    /// The registrable domain (public suffix plus one label) of `domain`, or nil when `domain` is itself a public suffix
    /// (or has no label left of its suffix). `domain`: lower-case ASCII, IDNA A-labels, no leading or trailing dot, not an IP literal.
    func registrableDomain(of domain: String) -> String?
}

extension PublicSuffixList {
    /// True when `domain` is a public suffix (incl. the "*" default rule: every single label is one).
    /// Same input contract as `registrableDomain(of:)`.
    public func isPublicSuffix(_ domain: String) -> Bool {
        // A domain is a public suffix exactly when no label is left of its public suffix.
        registrableDomain(of: domain) == nil
    }
}

/// The list the machine has: on Linux libpsl's newest list (`psl_latest`, falling back to the built-in one);
/// elsewhere a `PublicSuffixRules` loaded from a well-known path if present, else fail closed (only the "*" rule, so every
/// TLD is a suffix and no Domain attribute above a registrable domain is accepted).
public enum SystemPublicSuffixList {
    /// The list, loaded once, on first use.
    public static let shared: any PublicSuffixList = load()

    #if canImport(CLibPSL)
    private static func load() -> any PublicSuffixList {
        LibPSLList.latest()
    }
    #else
    /// Where package managers install the list (Debian/Ubuntu `publicsuffix`, Fedora `publicsuffix-list`,
    /// Homebrew on Apple silicon and Intel, FreeBSD/MacPorts style prefixes).
    private static let wellKnownPaths = [
        "/usr/share/publicsuffix/public_suffix_list.dat",
        "/opt/homebrew/share/publicsuffix/public_suffix_list.dat",
        "/usr/local/share/publicsuffix/public_suffix_list.dat",
        "/opt/local/share/publicsuffix/public_suffix_list.dat",
    ]

    private static func load() -> any PublicSuffixList {
        for path in wellKnownPaths {
            if let rules = try? PublicSuffixRules(contentsOfFile: path) {
                return rules
            }
        }
        return PublicSuffixRules(parsing: "")
    }
    #endif
}
