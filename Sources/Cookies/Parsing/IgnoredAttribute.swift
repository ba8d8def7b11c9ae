/// A cookie-av of a `Set-Cookie` line that the parsing algorithm of rfc6265bis-22 §5.6 ignored, or took
/// for its default, and why (`ParsedSetCookie.ignoredAttributes(of:)`). The parsed cookie is the same
/// either way: this tells a server author what became of an attribute that the cookie does not show.
public struct IgnoredAttribute: Sendable, Hashable {
    /// Why §5.6 ignored a cookie-av or took it for its default. The raw values are stable identifiers
    /// (for tools, logs and JSON); `explanation` is one line for a person.
    public enum Reason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// §5.6 attribute step 6: the attribute-value is longer than 1024 octets; the cookie-av is ignored.
        case valueTooLong = "value-too-long"
        /// §5.6 attribute step 7: the attribute-name is none the algorithm processes; the cookie-av is
        /// ignored.
        case unknownName = "unknown-attribute"
        /// §5.6.1 step 2: the Expires value failed the cookie-date algorithm (§5.1.1); the cookie-av is
        /// ignored.
        case expiresNotACookieDate = "expires-not-a-cookie-date"
        /// §5.6.2 steps 1-3: the Max-Age value is not an optional "-" followed by DIGITs; the cookie-av is
        /// ignored.
        case maxAgeNotAnInteger = "max-age-not-an-integer"
        /// §5.6.3: the Domain value is empty (or only "."): it is kept, and makes the cookie host-only
        /// (§5.7 step 10), overriding any earlier Domain.
        case emptyDomain = "empty-domain"
        /// §5.6.4 step 1: the Path value is empty or does not start with "/": the default-path applies.
        case pathWithoutLeadingSlash = "path-without-leading-slash"
        /// §5.6.7 step 5: the SameSite value is not "None", "Strict" or "Lax" (in any case): the
        /// enforcement is "Default".
        case unknownSameSiteValue = "unknown-samesite-value"

        public var description: String { rawValue }

        /// One line saying what became of the attribute, for people.
        public var explanation: String {
            switch self {
            case .valueTooLong: "its value is longer than 1024 bytes (§5.6), so it was ignored"
            case .unknownName: "it is not an attribute that cookies have (§5.6), so it was ignored"
            case .expiresNotACookieDate: "it did not parse as a cookie-date (§5.1.1), so it was ignored"
            case .maxAgeNotAnInteger: "it is not an integer (§5.6.2), so it was ignored"
            case .emptyDomain: "it is empty: the cookie is host-only (§5.6.3)"
            case .pathWithoutLeadingSlash: "it does not start with \"/\": the default-path applies (§5.6.4)"
            case .unknownSameSiteValue: "it is not None, Strict or Lax: the cookie gets SameSite=Default (§5.6.7)"
            }
        }
    }

    /// The attribute-name as the line has it (WSP trimmed, case kept).
    public let name: String
    /// The attribute-value as the line has it (WSP trimmed).
    public let value: String
    /// Why it was ignored or taken for its default.
    public let reason: Reason
    /// True for an ignored Expires or Max-Age that a later cookie-av of its name, whose value parsed,
    /// replaces (§5.6.1, §5.6.2: the last of them in the list applies): ignored or not, it would not
    /// apply. False when none follows it, so that the value that applies, if any, came before it.
    public let isReplacedByLaterValue: Bool

    /// An attribute of this name and value, ignored for `reason`.
    public init(name: String, value: String, reason: Reason, isReplacedByLaterValue: Bool = false) {
        (self.name, self.value, self.reason) = (name, value, reason)
        self.isReplacedByLaterValue = isReplacedByLaterValue
    }
}

/// Where §5.6 tells of each cookie-av it ignores or takes for its default (`CookieParts.parse`).
protocol IgnoredAttributeSink {
    /// The cookie-av `name`=`value` (ranges of the line) was ignored or defaulted for `reason`.
    mutating func ignore(name: LinePart, value: LinePart, because reason: IgnoredAttribute.Reason)
    /// An Expires or Max-Age whose value parsed, which replaces the earlier ones of its name: those
    /// ignored for `reason` (`.expiresNotACookieDate`, `.maxAgeNotAnInteger`) included.
    mutating func replaceIgnored(_ reason: IgnoredAttribute.Reason)
}

/// The sink of the jar's own parsing: told nothing is kept, so the parser specialised for it records
/// nothing.
struct IgnoredAttributesUntold: IgnoredAttributeSink {
    @inline(__always)
    mutating func ignore(name: LinePart, value: LinePart, because reason: IgnoredAttribute.Reason) {}
    @inline(__always)
    mutating func replaceIgnored(_ reason: IgnoredAttribute.Reason) {}
}

/// The sink of `ParsedSetCookie.ignoredAttributes(of:)`: every report, in line order.
struct IgnoredAttributeList: IgnoredAttributeSink {
    var reports: [(name: LinePart, value: LinePart, reason: IgnoredAttribute.Reason, isReplaced: Bool)] = []

    mutating func ignore(name: LinePart, value: LinePart, because reason: IgnoredAttribute.Reason) {
        reports.append((name, value, reason, false))
    }

    mutating func replaceIgnored(_ reason: IgnoredAttribute.Reason) {
        for index in reports.indices where reports[index].reason == reason { reports[index].isReplaced = true }
    }
}
