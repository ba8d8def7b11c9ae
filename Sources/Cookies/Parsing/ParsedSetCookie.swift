/// One `Set-Cookie` field value after the parsing algorithm of rfc6265bis-22 §5.6: a cookie-name, a
/// cookie-value and the attributes the algorithm keeps, with "the last one wins" already applied.
/// No policy is applied here (that is §5.7, `CookieJar`).
///
/// A parsed value keeps the line it came from and reads its name, value, Domain and Path out of it when
/// they are asked for (`LinePart`), so parsing allocates nothing per part; a Domain with upper-case
/// letters is lower-cased (§5.6.3) as it is read. A value built from its parts
/// (`init(name:value:expires:maxAge:domain:path:secure:httpOnly:sameSite:partitioned:)`, `setName(_:)`
/// and the other setters) holds only what a line could give: each part is what parsing its
/// `setCookieString` would make of it, and a text no line could give is refused. Its line is then the
/// texts given, one after the other, and its parts their ranges.
public struct ParsedSetCookie: Sendable, Hashable {
    /// The field value the parts below refer to (ill-formed UTF-8 already replaced by U+FFFD), or the
    /// texts the parts were given as.
    var line: String
    /// The parts as ranges of `line`, and the other attributes.
    var parts: CookieParts

    /// The cookie-name (may be empty: a nameless cookie, §5.6 step 3). `setName(_:)` changes it.
    public var name: String { parts.name.string(in: line) }
    /// The cookie-value, exactly as sent after trimming WSP (quotes are part of the value). `setValue(_:)`
    /// changes it.
    public var value: String { parts.value.string(in: line) }
    /// The last valid Expires attribute, as seconds since the Unix epoch (§5.6.1). One set outside the
    /// years 1601 through 9999 is clamped to the nearer end: no cookie-date names another (§5.1.1), and
    /// `setCookieString` writes none.
    public var expires: Int64? {
        get { parts.expires }
        set { parts.expires = newValue.map(CookieDate.clamped) }
    }
    /// The last valid Max-Age attribute in seconds; zero or negative means "expire now" (§5.6.2).
    /// `Int64.min` is set as `-Int64.max`, what parsing makes of its digits (they saturate).
    public var maxAge: Int64? {
        get { parts.maxAge }
        set { parts.maxAge = newValue.map { max($0, -Int64.max) } }
    }
    /// The last Domain attribute, without one leading "." and lower-cased (§5.6.3). An empty string
    /// (from `Domain=` or `Domain=.`) makes the cookie host-only (§5.7 step 10). `setDomain(_:)` changes
    /// it.
    public var domain: String? { parts.domain(in: line) }
    /// The last Path attribute (§5.6.4). An empty string stands for a Path attribute whose value was
    /// empty or did not start with "/", for which the default-path applies. `setPath(_:)` changes it.
    public var path: String? { parts.path?.string(in: line) }
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

    /// A `Set-Cookie` line with these attributes, as a server would build it (`setCookieString` writes the
    /// line): `expires` in seconds since the Unix epoch, `maxAge` in seconds; nil leaves an attribute out.
    ///
    /// Each text is taken as parsing the line would take it (§5.6): WSP at the ends of the name, value,
    /// Domain and path is removed (step 4, cookie-av step 5), the Domain is read as its attribute,
    /// without one leading "." and lower-cased (§5.6.3: `domain: ".Example.com"` is "example.com"), and
    /// a path that does not start with "/" stands for the default-path (§5.6.4: `path` is then "").
    /// `expires` and `maxAge` are set as their properties set them.
    /// - Throws: `.controlCharacter` for a CTL other than HTAB in any text (§5.6 step 1),
    ///   `.separatorCharacter` for a ";" in any text or an "=" in the name, where a line would end the
    ///   part (§5.6 steps 2–3, cookie-av step 1), `.emptyNameAndValue` when both are empty (§5.7 step 2),
    ///   `.nameAndValueTooLong` when together they exceed 4096 octets (§5.6 step 5), and
    ///   `.attributeValueTooLong` for a Domain or Path over 1024 octets as the line writes it (cookie-av
    ///   step 6, which ignores such an attribute).
    public init(
        name: String, value: String, expires: Int64? = nil, maxAge: Int64? = nil, domain: String? = nil,
        path: String? = nil, secure: Bool = false, httpOnly: Bool = false, sameSite: SameSite? = nil,
        partitioned: Bool = false
    ) throws(CookieRejection) {
        self.init(line: "", parts: CookieParts())
        try setTexts(name: name, value: value, domain: domain, path: path, givenDomain: true)
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

    /// Sets the cookie-name, taken as the initialiser takes it.
    /// - Throws: what the initialiser throws for it; the cookie is then left as it was.
    public mutating func setName(_ name: String) throws(CookieRejection) {
        try setTexts(name: name, value: value, domain: domain, path: path)
    }

    /// Sets the cookie-value, taken as the initialiser takes it.
    /// - Throws: what the initialiser throws for it; the cookie is then left as it was.
    public mutating func setValue(_ value: String) throws(CookieRejection) {
        try setTexts(name: name, value: value, domain: domain, path: path)
    }

    /// Sets the Domain attribute (nil: none), taken as the initialiser takes it: as the attribute's value,
    /// one leading "." removed (the `domain` property reads it without).
    /// - Throws: what the initialiser throws for it; the cookie is then left as it was.
    public mutating func setDomain(_ domain: String?) throws(CookieRejection) {
        try setTexts(name: name, value: value, domain: domain, path: path, givenDomain: true)
    }

    /// Sets the Path attribute (nil: none), taken as the initialiser takes it.
    /// - Throws: what the initialiser throws for it; the cookie is then left as it was.
    public mutating func setPath(_ path: String?) throws(CookieRejection) {
        try setTexts(name: name, value: value, domain: domain, path: path)
    }

    /// Makes the line the four texts, one after the other, and each part the range of its text that
    /// parsing the line `setCookieString` writes would give (what the line held before is no longer
    /// referred to), or throws, leaving this value as it was, when no line would give them. The parts
    /// this value holds already are given again as they read: taken again, they stay as they are.
    /// `givenDomain`: `domain` is a Domain attribute's value as given (its leading WSP and one "." go, as
    /// §5.6.3 takes them), not the cookie-domain this value holds already.
    private mutating func setTexts(
        name: String, value: String, domain: String?, path: String?, givenDomain: Bool = false
    ) throws(CookieRejection) {
        var given = ParsedSetCookie(line: "", parts: parts)
        let nameText = given.appendToLine(name)
        let valueText = given.appendToLine(value)
        let domainText = domain.map { given.appendToLine($0) }
        let pathText = path.map { given.appendToLine($0) }
        var parts = given.parts
        parts.isASCII = false
        let rejection: CookieRejection? = given.line.withUTF8Bytes { line in
            // §5.6 step 1: a CTL anywhere ignores the line, whatever else is wrong with it.
            if line.containsForbiddenControl { return .controlCharacter }
            // Step 4 and cookie-av step 5: WSP at the ends goes.
            parts.name = LinePart(trimmingCookieWhitespaceFrom: nameText.start, to: nameText.end, of: line)
            parts.value = LinePart(trimmingCookieWhitespaceFrom: valueText.start, to: valueText.end, of: line)
            if let rejection = CookieTextRules.pairRejection(name: parts.name.bytes(in: line), value: parts.value.bytes(in: line)) {
                return rejection
            }
            // The attribute's value, as cookie-av step 6 counts it: as given (the "." included), or as
            // `setCookieString` writes the cookie-domain held.
            var attributeCount = 0
            parts.domain = domainText.map { domain in
                guard givenDomain else {
                    // A cookie-domain held already is one a line gave (trimmed, its "." removed): it keeps WSP
                    // at its start, which `setCookieString` writes after a ".", an octet more.
                    attributeCount = domain.count + (Self.domainNeedsDot(startingWith: domain.isEmpty ? nil : line[domain.start]) ? 1 : 0)
                    return domain
                }
                // Cookie-av step 5, then §5.6.3: WSP at the ends goes, then one leading ".".
                let value = LinePart(trimmingCookieWhitespaceFrom: domain.start, to: domain.end, of: line)
                attributeCount = value.count
                return value.droppingLeadingDot(in: line)
            }
            if let domain = parts.domain {
                let bytes = domain.bytes(in: line)
                if let rejection = CookieTextRules.attributeRejection(bytes) { return rejection }
                if attributeCount > Limits.maxAttributeValueBytes { return .attributeValueTooLong }
                parts.domainHasUppercase = CookieParts.hasUppercase(bytes)
            } else {
                parts.domainHasUppercase = false
            }
            parts.path = pathText.map { LinePart(trimmingCookieWhitespaceFrom: $0.start, to: $0.end, of: line) }
            if let path = parts.path {
                let bytes = path.bytes(in: line)
                if let rejection = CookieTextRules.attributeRejection(bytes) { return rejection }
                if bytes.count > Limits.maxAttributeValueBytes { return .attributeValueTooLong }
                // §5.6.4: a path that does not start with "/" stands for the default-path.
                if bytes.first != UInt8(ascii: "/") { parts.path = LinePart(start: 0, end: 0) }
            }
            return nil
        }
        if let rejection { throw rejection }
        self = ParsedSetCookie(line: given.line, parts: parts)
    }

    /// The part holding `text`, appended to the line for it.
    private mutating func appendToLine(_ text: String) -> LinePart {
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
