extension ParsedSetCookie {
    /// A `Set-Cookie` field value that parses back (§5.6) to exactly this value.
    ///
    /// A nameless cookie is written `=value`, so that a value holding "=" does not become a name; a
    /// Domain starting with "." or WSP gets a "." in front, because parsing trims WSP and then removes one
    /// "." (§5.6.3), and no other Domain does (a 1024-octet one stays within §5.6 cookie-av step 6);
    /// Expires is an IMF-fixdate.
    public var setCookieString: String {
        // The parts are appended from the line they were read from (no String of their own).
        var output = ""
        parts.name.append(in: line, to: &output)
        output.append("=")
        parts.value.append(in: line, to: &output)
        if let expires { output += "; Expires=" + CookieDate.format(expires) }
        if let maxAge { output += "; Max-Age=" + String(maxAge) }
        if let domain = parts.domain {
            output.append(Self.domainNeedsDot(startingWith: domain.firstByte(in: line)) ? "; Domain=." : "; Domain=")
            if parts.domainHasUppercase, let lowercased = self.domain {
                output.append(lowercased)
            } else {
                domain.append(in: line, to: &output)
            }
        }
        if let path = parts.path {
            output.append("; Path=")
            path.append(in: line, to: &output)
        }
        if secure { output.append("; Secure") }
        if httpOnly { output.append("; HttpOnly") }
        if let sameSite { output += "; SameSite=" + sameSite.rawValue }
        if partitioned { output.append("; Partitioned") }
        return output
    }

    /// True when `setCookieString` writes a "." before a Domain whose first byte is `first`: parsing trims
    /// WSP from an attribute value and then removes one "." (§5.6.3), which would take that byte with it.
    static func domainNeedsDot(startingWith first: UInt8?) -> Bool {
        first.map { $0 == UInt8(ascii: ".") || $0.isCookieWhitespace } ?? false
    }
}
