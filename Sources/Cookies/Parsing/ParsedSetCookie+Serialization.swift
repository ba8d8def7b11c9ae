extension ParsedSetCookie {
    /// A `Set-Cookie` field value that parses back (§5.6) to exactly this value.
    ///
    /// A nameless cookie is written `=value`, so that a value holding "=" does not become a name; a
    /// Domain starting with "." or WSP gets a "." in front, because parsing trims WSP and then removes one
    /// "." (§5.6.3), and no other Domain does (a 1024-octet one stays within §5.6 cookie-av step 6);
    /// Expires is an IMF-fixdate.
    public var setCookieString: String {
        var line = name.isEmpty ? "=" + value : name + "=" + value
        if let expires { line += "; Expires=" + CookieDate.format(expires) }
        if let maxAge { line += "; Max-Age=" + String(maxAge) }
        if let domain {
            let needsDot = domain.utf8.first.map { $0 == UInt8(ascii: ".") || $0.isCookieWhitespace } ?? false
            line += needsDot ? "; Domain=." + domain : "; Domain=" + domain
        }
        if let path { line += "; Path=" + path }
        if secure { line += "; Secure" }
        if httpOnly { line += "; HttpOnly" }
        if let sameSite { line += "; SameSite=" + sameSite.rawValue }
        if partitioned { line += "; Partitioned" }
        return line
    }
}
