/// One `Set-Cookie` field value after the parsing algorithm of rfc6265bis-22 §5.6: a cookie-name, a
/// cookie-value and the attributes the algorithm keeps, with "the last one wins" already applied.
/// No policy is applied here (that is §5.7, `CookieJar`).
///
/// A parsed value keeps the line it came from and reads its name, value, Domain and Path out of it when
/// they are asked for (`LinePart`), so parsing allocates nothing per part; a Domain with upper-case
/// letters is lower-cased (§5.6.3) as it is read. A part given as text (by a setter) is a range of the
/// line too: the line is then rebuilt from the texts.
public struct ParsedSetCookie: Sendable, Hashable {
    /// The field value the parts below refer to (ill-formed UTF-8 already replaced by U+FFFD), and the
    /// texts given for parts after it.
    var line: String
    /// The parts as ranges of `line`, and the other attributes.
    var parts: CookieParts

    /// The cookie-name (may be empty: a nameless cookie, §5.6 step 3).
    public var name: String {
        get { parts.name.string(in: line) }
        set { setParts(name: newValue, value: value, domain: domain, path: path) }
    }
    /// The cookie-value, exactly as sent after trimming WSP (quotes are part of the value).
    public var value: String {
        get { parts.value.string(in: line) }
        set { setParts(name: name, value: newValue, domain: domain, path: path) }
    }
    /// The last valid Expires attribute, as seconds since the Unix epoch (§5.6.1).
    public var expires: Int64? {
        get { parts.expires }
        set { parts.expires = newValue }
    }
    /// The last valid Max-Age attribute in seconds; zero or negative means "expire now" (§5.6.2).
    public var maxAge: Int64? {
        get { parts.maxAge }
        set { parts.maxAge = newValue }
    }
    /// The last Domain attribute, without one leading "." and lower-cased (§5.6.3). An empty string
    /// (from `Domain=` or `Domain=.`) makes the cookie host-only (§5.7 step 10).
    public var domain: String? {
        get { parts.domain(in: line) }
        set { setParts(name: name, value: value, domain: newValue, path: path) }
    }
    /// The last Path attribute (§5.6.4). An empty string stands for a Path attribute whose value was
    /// empty or did not start with "/", for which the default-path applies.
    public var path: String? {
        get { parts.path?.string(in: line) }
        set { setParts(name: name, value: value, domain: domain, path: newValue) }
    }
    /// A Secure attribute is present (§5.6.5).
    public var secure: Bool {
        get { parts.secure }
        set { parts.secure = newValue }
    }
    /// An HttpOnly attribute is present (§5.6.6).
    public var httpOnly: Bool {
        get { parts.httpOnly }
        set { parts.httpOnly = newValue }
    }
    /// The last SameSite attribute's enforcement (§5.6.7); nil when there is none.
    public var sameSite: SameSite? {
        get { parts.sameSite }
        set { parts.sameSite = newValue }
    }
    /// A Partitioned attribute is present (CHIPS, draft-cutler-httpbis-partitioned-cookies-01 §2.1).
    public var partitioned: Bool {
        get { parts.partitioned }
        set { parts.partitioned = newValue }
    }

    /// A `Set-Cookie` line with these attributes, as a server would build it (`serialized()` writes the
    /// line): `expires` in seconds since the Unix epoch, `maxAge` in seconds; nil leaves an attribute out.
    public init(
        name: String, value: String, expires: Int64? = nil, maxAge: Int64? = nil, domain: String? = nil,
        path: String? = nil, secure: Bool = false, httpOnly: Bool = false, sameSite: SameSite? = nil,
        partitioned: Bool = false
    ) {
        self.init(line: "", parts: CookieParts())
        setParts(name: name, value: value, domain: domain, path: path)
        self.expires = expires
        self.maxAge = maxAge
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.partitioned = partitioned
    }

    /// The cookie of `line` whose parts are `parts`.
    init(line: String, parts: CookieParts) {
        self.line = line
        self.parts = parts
    }

    /// Makes the line the four texts, one after the other, and each part the range of its text: what the
    /// line held before is no longer referred to.
    private mutating func setParts(name: String, value: String, domain: String?, path: String?) {
        line = ""
        parts.isASCII = false
        parts.name = appendToLine(name)
        parts.value = appendToLine(value)
        parts.domain = domain.map { appendToLine($0) }
        // A Domain given as text is kept as it is given.
        parts.domainHasUppercase = false
        parts.path = path.map { appendToLine($0) }
    }

    /// The part holding `text`, appended to the line for it.
    mutating func appendToLine(_ text: String) -> LinePart {
        let start = line.utf8.count
        line.append(text)
        return LinePart(start: start, end: line.utf8.count)
    }

    public static func == (lhs: ParsedSetCookie, rhs: ParsedSetCookie) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value && lhs.expires == rhs.expires && lhs.maxAge == rhs.maxAge
            && lhs.domain == rhs.domain && lhs.path == rhs.path && lhs.secure == rhs.secure
            && lhs.httpOnly == rhs.httpOnly && lhs.sameSite == rhs.sameSite && lhs.partitioned == rhs.partitioned
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
        hasher.combine(expires)
        hasher.combine(maxAge)
        hasher.combine(domain)
        hasher.combine(path)
        hasher.combine(secure)
        hasher.combine(httpOnly)
        hasher.combine(sameSite)
        hasher.combine(partitioned)
    }
}
