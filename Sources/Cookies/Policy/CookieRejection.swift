/// Why a `Set-Cookie` line, or a cookie built from it, was not stored: every rule of rfc6265bis-22
/// §5.6 and §5.7 that ignores a cookie has its own case. The raw values are stable identifiers (for
/// tools, logs and JSON); `explanation` is one line for a person.
public enum CookieRejection: String, Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// §5.6 step 1 (and §5.7 step 3): a control character other than HTAB.
    case controlCharacter = "control-character"
    /// §5.7 step 2: name and value are both empty.
    case emptyNameAndValue = "empty-name-and-value"
    /// §5.6 step 5: name plus value exceed 4096 octets.
    case nameAndValueTooLong = "name-and-value-too-long"
    /// A cookie given as text (`ParsedSetCookie(name:value:…)`, `CookieJar.insert(_:)`) whose name holds
    /// ";" or "=", or whose value or Domain or Path attribute (`ParsedSetCookie`) holds ";": a `Set-Cookie`
    /// line ends the name-value-pair at the first ";" (§5.6 step 2), the name at the first "=" (step 3)
    /// and a cookie-av at the next ";" (§5.6 cookie-av step 1), so none gives such a cookie, and a `Cookie`
    /// header would carry what follows a ";" as a pair of its own.
    case separatorCharacter = "separator-character"
    /// A cookie given as text (`CookieJar.insert(_:)`, a file's) whose name or value starts or ends with a
    /// space or HTAB: §5.6 step 4 removes them from what a `Set-Cookie` line gives, so none gives such a
    /// cookie, and a server reading the `Cookie` header removes them too (`a ` would be sent as a second
    /// `a`).
    case whitespaceAtEnds = "whitespace-at-ends"
    /// A Domain or Path given as text (`ParsedSetCookie(name:value:…)`) over 1024 octets: §5.6 cookie-av
    /// step 6 ignores such an attribute, so no `Set-Cookie` line gives it.
    case attributeValueTooLong = "attribute-value-too-long"
    /// §5.7 step 8: the Domain attribute holds a character that is not in CHAR (non-ASCII).
    case domainNotASCII = "domain-not-ascii"
    /// §5.7 step 9: the Domain attribute is a public suffix other than the request-host.
    case domainIsPublicSuffix = "domain-is-public-suffix"
    /// §5.7 step 10: the request-host does not domain-match the Domain attribute.
    case domainMismatch = "domain-mismatch"
    /// §5.7 step 10 as Chromium and Firefox apply it (a dated deviation, the Conformance article): the
    /// Domain attribute names a domain above the request-host's site (its registrable domain), across a
    /// public suffix between them (`Domain=amazonaws.com` from `b.s3.amazonaws.com`).
    case domainOfAnotherSite = "domain-of-another-site"
    /// §5.7 step 13: a Secure cookie from an insecure origin.
    case secureFromInsecureOrigin = "secure-from-insecure-origin"
    /// §5.7 step 15: an HttpOnly cookie from a non-HTTP API.
    case httpOnlyFromNonHTTPAPI = "httponly-from-non-http-api"
    /// §5.7 step 16: an insecure origin would overwrite or shadow a Secure cookie.
    case wouldShadowSecureCookie = "would-shadow-secure-cookie"
    /// §5.7 step 18: a Strict, Lax or Default cookie set by a cross-site request that is not a
    /// top-level navigation (or by a non-HTTP API in a cross-site document).
    case sameSiteFromCrossSite = "samesite-from-cross-site"
    /// §5.7 step 19: SameSite=None without Secure.
    case sameSiteNoneWithoutSecure = "samesite-none-without-secure"
    /// §5.7 step 22: a nameless cookie whose value starts with `__Secure-` or `__Host-`.
    case namelessWithPrefix = "nameless-with-prefix"
    /// §5.7 step 20: a `__Secure-` cookie without Secure.
    case securePrefixViolation = "secure-prefix-violation"
    /// §5.7 step 21: a `__Host-` cookie that is not Secure, not host-only, or has no `Path=/`.
    case hostPrefixViolation = "host-prefix-violation"
    /// §5.7 step 23.2: a non-HTTP API would overwrite or delete an HttpOnly cookie.
    case wouldOverwriteHTTPOnlyCookie = "would-overwrite-httponly-cookie"
    /// CHIPS (draft-cutler-httpbis-partitioned-cookies-01 §2.1): Partitioned without Secure.
    case partitionedWithoutSecure = "partitioned-without-secure"
    /// CHIPS §2.1: a Partitioned cookie from a request whose top-level site is unknown: an opaque site for
    /// cookies, and no partition given (`CookieRequestContext.partition`).
    case partitionedWithoutTopLevelSite = "partitioned-without-top-level-site"
    /// The request URL's scheme does not carry cookies (only http, https, ws and wss do).
    case unsupportedScheme = "unsupported-scheme"
    /// A cookie handed to the jar as it is (`CookieJar.insert(_:)`) whose source port is not a port
    /// (0–65535).
    case invalidSourcePort = "invalid-source-port"
    /// A cookie handed to the jar as it is whose partition key is empty: a partition key names a top-level
    /// site (CHIPS), and an empty one would be taken for none in a jar file or database, where the
    /// unpartitioned cookie of the same name would overwrite it or be overwritten.
    case emptyPartitionKey = "empty-partition-key"
    /// A cookie handed to the jar as it is whose partition key names no top-level site: not a scheme, "://"
    /// and a host alone (CHIPS keys a partition by the schemeful site of the top-level document; a port, a
    /// path or no scheme at all names none), or a host no URL could have. Stored, it would never be sent:
    /// no request's partition is such a key.
    case invalidPartitionKey = "invalid-partition-key"
    /// A cookie handed to the jar as it is whose path does not start with "/": the cookie-path of §5.7 step
    /// 11 always does (a Path attribute that does, §5.6.4, or the default-path, §5.1.4), and no request's
    /// path would path-match another (§5.1.4).
    case relativePath = "relative-path"
    /// A cookie handed to the jar as it is whose domain is not a host as the jar keeps one (§5.1.2: lower
    /// case, IDNA A-labels, an IP address in its canonical text; `CanonicalHost`): "Example.COM",
    /// "bücher.de" or "" would be stored and never sent, nor found by a sign-out.
    case domainNotCanonical = "domain-not-canonical"

    public var description: String { rawValue }

    /// One line saying what was wrong, for people.
    public var explanation: String {
        switch self {
        case .controlCharacter: return "the line or cookie contains a control character (other than TAB)"
        case .emptyNameAndValue: return "both the name and the value are empty"
        case .nameAndValueTooLong: return "name and value together exceed 4096 bytes"
        case .separatorCharacter:
            return "the name holds \";\" or \"=\", or the value or an attribute \";\", where a Set-Cookie line ends them"
        case .whitespaceAtEnds:
            return "the name or value starts or ends with a space or tab, which a Set-Cookie line's parsing removes"
        case .attributeValueTooLong: return "the Domain or Path exceeds 1024 bytes"
        case .domainNotASCII: return "the Domain attribute contains a non-ASCII character"
        case .domainIsPublicSuffix: return "the Domain attribute is a public suffix"
        case .domainMismatch: return "the request host is not within the Domain attribute"
        case .domainOfAnotherSite:
            return "the Domain attribute is above the request host's site (a public suffix lies between them)"
        case .secureFromInsecureOrigin: return "a Secure cookie can only be set from a secure origin"
        case .httpOnlyFromNonHTTPAPI: return "an HttpOnly cookie cannot be set through a non-HTTP API"
        case .wouldShadowSecureCookie:
            return "an insecure origin cannot overwrite or shadow a Secure cookie of the same name"
        case .sameSiteFromCrossSite:
            return "a cross-site response that is not a top-level navigation cannot set a SameSite Strict, Lax or Default cookie"
        case .sameSiteNoneWithoutSecure: return "SameSite=None requires the Secure attribute"
        case .namelessWithPrefix: return "a nameless cookie's value cannot start with __Secure- or __Host-"
        case .securePrefixViolation: return "a __Secure- cookie must be Secure and set from a secure origin"
        case .hostPrefixViolation: return "a __Host- cookie must be Secure, host-only (no Domain) and have Path=/"
        case .wouldOverwriteHTTPOnlyCookie: return "a non-HTTP API cannot overwrite or delete an HttpOnly cookie"
        case .partitionedWithoutSecure: return "a Partitioned cookie must be Secure"
        case .partitionedWithoutTopLevelSite:
            return "a Partitioned cookie needs the top-level site it is set under, which an opaque site for cookies does not give"
        case .unsupportedScheme: return "cookies are only set by http, https, ws and wss responses"
        case .invalidSourcePort: return "the source port is not between 0 and 65535"
        case .emptyPartitionKey: return "the partition key is empty (an unpartitioned cookie has none)"
        case .invalidPartitionKey:
            return "the partition key names no top-level site (a scheme, :// and a host, no port or path)"
        case .relativePath: return "the path does not start with \"/\", so no request path would match it"
        case .domainNotCanonical: return "the domain is not a canonical host (lower case, IDNA A-labels), so no request would match it"
        }
    }
}
