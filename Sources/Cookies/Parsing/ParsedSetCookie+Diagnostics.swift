extension ParsedSetCookie {
    /// The cookie-avs of `setCookie` that rfc6265bis-22 §5.6 ignores or takes for their default, in line
    /// order, and why: what a tool that explains a line tells its author (the cookie the line parses to
    /// shows only what was applied). Empty when §5.6 ignores the whole line (`init(parsing:)` throws).
    ///
    /// The same parser as `init(parsing:)`, told to keep its reports; the jar's parsing keeps none.
    public static func ignoredAttributes(of setCookie: String) -> [IgnoredAttribute] {
        var list = IgnoredAttributeList()
        return setCookie.withUTF8Bytes { line in
            var parts = CookieParts()
            guard (try? parts.parse(line, tellingIgnoredAttributesTo: &list)) != nil else { return [] }
            return list.reports.map { report in
                IgnoredAttribute(
                    name: report.name.string(in: setCookie), value: report.value.string(in: setCookie), reason: report.reason,
                    isReplacedByLaterValue: report.isReplaced)
            }
        }
    }

    /// The first character of the cookie-value (inside its DQUOTEs, when it has them) that is no
    /// cookie-octet, nil when there is none. rfc6265bis-22 §4.1.1: servers SHOULD NOT send others
    /// (cookie-value = *cookie-octet / ( DQUOTE *cookie-octet DQUOTE )); §5.6 keeps them, but a server or
    /// client along the way may not, so a value holding one is better encoded (e.g. base64url).
    public var firstNonCookieOctet: Unicode.Scalar? {
        let value = self.value
        let octets = value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2
            ? value.dropFirst().dropLast() : Substring(value)
        return octets.unicodeScalars.first { $0.value > 0x7F || !UInt8($0.value).isCookieOctet }
    }
}
