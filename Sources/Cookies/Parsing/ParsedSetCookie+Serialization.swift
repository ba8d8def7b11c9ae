extension ParsedSetCookie {
    /// A `Set-Cookie` field value that parses back (§5.6) to exactly this value.
    ///
    /// A nameless cookie is written `=value`, so that a value holding "=" does not become a name; the
    /// Domain gets a leading "." because parsing removes one; Expires is an IMF-fixdate.
    public var setCookieString: String {
        var line = name.isEmpty ? "=" + value : name + "=" + value
        if let expires { line += "; Expires=" + CookieDate.format(expires) }
        if let maxAge { line += "; Max-Age=" + String(maxAge) }
        if let domain { line += "; Domain=." + domain }
        if let path { line += "; Path=" + path }
        if secure { line += "; Secure" }
        if httpOnly { line += "; HttpOnly" }
        if let sameSite { line += "; SameSite=" + sameSite.rawValue }
        if partitioned { line += "; Partitioned" }
        return line
    }
}
