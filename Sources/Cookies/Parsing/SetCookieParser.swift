extension ParsedSetCookie {
    /// Limits of rfc6265bis-22 §5.6 step 5 (and §5.7 step 4) and §5.6 attribute step 6 (also Chromium's
    /// `kMaxCookieNamePlusValueSize` and `kMaxCookieAttributeValueSize`).
    public enum Limits {
        /// The sum of the name and value lengths above which the whole line is ignored.
        public static let maxNameValueBytes = 4096

        /// True when a name and value of these lengths (octets) are within `maxNameValueBytes` together:
        /// the one test of step 5, which every cookie a jar holds meets, whatever its source.
        @inline(__always)
        static func nameAndValueFit(nameBytes: Int, valueBytes: Int) -> Bool {
            nameBytes + valueBytes <= maxNameValueBytes
        }
        /// The attribute-value length above which the attribute is ignored.
        public static let maxAttributeValueBytes = 1024
    }

    /// Parses one `Set-Cookie` field value (rfc6265bis-22 §5.6).
    /// - Throws: the reason the whole line is ignored.
    public init(parsing setCookie: String) throws(CookieRejection) {
        var line = setCookie
        line.makeContiguousUTF8()
        // The parts are read in place into `CookieParts`, which holds no reference (nothing is retained or
        // released while parsing); this value is made from it once.
        var parts = CookieParts()
        let rejection: CookieRejection? = line.withUTF8 { bytes in
            do throws(CookieRejection) {
                try parts.parse(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let rejection { throw rejection }
        self.init(line: line, parts: parts)
    }

    /// Parses the UTF-8 bytes of one `Set-Cookie` field value (rfc6265bis-22 §5.6).
    ///
    /// Ill-formed UTF-8 is replaced by U+FFFD before parsing (the bytes are not HTTP's to interpret), and
    /// the octet limits of step 5 and attribute step 6 apply to that text (deviation, 2026-11-21): U+FFFD
    /// takes three octets for as few as one, so a line within the limits could otherwise keep a longer
    /// name, value or attribute, and would not serialise to a line that parses back the same. The
    /// replacement only touches bytes from 0x80 on, so the CTLs, ";", "=" and WSP the algorithm looks
    /// for stay where they were.
    /// - Throws: the reason the whole line is ignored.
    public init(bytes: UnsafeBufferPointer<UInt8>) throws(CookieRejection) {
        try self.init(parsing: String(decoding: bytes, as: UTF8.self))
    }
}

/// What §5.6 makes of one line: the cookie-name and cookie-value and the cookie-attribute-list, "the last
/// one wins" applied, as ranges of the line. It holds no reference, so parsing into it retains nothing,
/// and a `ParsedSetCookie`, which keeps it beside its line, lends it to §5.7 as plain data.
struct CookieParts: Sendable, BitwiseCopyable {
    var name = LinePart(start: 0, end: 0)
    var value = LinePart(start: 0, end: 0)
    var expires: Int64?
    var maxAge: Int64?
    var domain: LinePart?
    /// The Domain holds an upper-case letter: it is read lower-cased (§5.6.3) through `withDomain(in:_:)`,
    /// the one place that lower-cases it, by the receive rules and by `ParsedSetCookie` alike.
    var domainHasUppercase = false
    /// An empty range stands for the default-path (§5.6.4).
    var path: LinePart?
    var secure = false
    var httpOnly = false
    var sameSite: SameSite?
    var partitioned = false
    /// The whole line is ASCII (known once parsing is done; false also when not known).
    var isASCII = false

    /// Calls `body` with the UTF-8 of the Domain attribute of `line` (these parts' line), lower-cased
    /// (§5.6.3) when it holds an upper-case letter; empty when there is none.
    @inline(__always)
    func withDomain<R>(in line: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let domain, domainHasUppercase else {
            return body(domain.map { $0.bytes(in: line) } ?? UnsafeBufferPointer(start: nil, count: 0))
        }
        return CookieParts.withLowercased(domain.bytes(in: line), body)
    }

    /// True when `bytes` hold an ASCII upper-case letter, which a Domain is read without (§5.6.3).
    @inline(__always)
    static func hasUppercase(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains(where: { $0 &- UInt8(ascii: "A") < 26 })
    }

    /// Calls `body` with `bytes` lower-cased (ASCII). Out of line: `withDomain`'s callers are inlined into
    /// it, and the rare upper-case Domain attribute would otherwise be a second copy of them.
    @inline(never)
    private static func withLowercased<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { lowercased in
            for index in bytes.indices { lowercased[index] = bytes[index].asciiLowercased }
            return body(UnsafeBufferPointer(lowercased))
        }
    }

    /// The Domain attribute of `line` (these parts' line) as text, lower-cased (§5.6.3); nil when there is
    /// none.
    func domain(in line: String) -> String? {
        guard domain != nil else { return nil }
        return line.withUTF8Bytes { line in withDomain(in: line) { String(wellFormedUTF8: $0, isASCII: $0.isASCII) } }
    }

    /// §5.6 on the bytes of `line`: the name-value-pair, then each cookie-av applied in turn. The parts
    /// are offsets into `line`.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) throws(CookieRejection) {
        var nowhere = IgnoredAttributesUntold()
        try parse(line, tellingIgnoredAttributesTo: &nowhere)
    }

    /// `parse(_:)`, telling `ignored` of each cookie-av the algorithm ignores or takes for its default.
    /// Inlined into `parse(_:)`, a function of concrete types, where the telling is left out.
    @inline(__always)
    mutating func parse<Ignored: IgnoredAttributeSink>(
        _ line: UnsafeBufferPointer<UInt8>, tellingIgnoredAttributesTo ignored: inout Ignored
    ) throws(CookieRejection) {
        // Steps 1–2: the name-value-pair runs up to the first ";"; `segments` throws on a CTL other than HTAB.
        var segments = SetCookieSegments(line)
        let pair = try segments.nameValuePair()
        // Step 3: split at the first "="; without one the name is empty and the pair is the value.
        // Step 4: remove leading and trailing WSP.
        if pair.equals < pair.end {
            name = LinePart(trimmingCookieWhitespaceFrom: pair.start, to: pair.equals, of: line)
            value = LinePart(trimmingCookieWhitespaceFrom: pair.equals + 1, to: pair.end, of: line)
        } else {
            name = LinePart(start: pair.start, end: pair.start)
            value = LinePart(trimmingCookieWhitespaceFrom: pair.start, to: pair.end, of: line)
        }
        var rejection: CookieRejection?
        if name.isEmpty && value.isEmpty {
            // §5.7 step 2 (checked here: it depends on the line alone): both empty ignores the cookie.
            rejection = .emptyNameAndValue
        } else if !ParsedSetCookie.Limits.nameAndValueFit(nameBytes: name.count, valueBytes: value.count) {
            // Step 5: name plus value over 4096 octets ignores the line.
            rejection = .nameAndValueTooLong
        }
        if let rejection {
            // Step 1 comes first: a CTL further on ignores the line for that reason instead.
            try segments.skipRemainingCookieAVs()
            throw rejection
        }
        // §5.6 "unparsed-attributes": each cookie-av in turn, the last occurrence of an attribute winning.
        while let cookieAV = try segments.nextCookieAV() {
            // Attribute step 4: attribute-name up to the first "=", attribute-value after it (else empty).
            // Step 5: remove leading and trailing WSP.
            let attributeName = LinePart(trimmingCookieWhitespaceFrom: cookieAV.start, to: cookieAV.equals, of: line)
            let attributeValue = cookieAV.equals < cookieAV.end
                ? LinePart(trimmingCookieWhitespaceFrom: cookieAV.equals + 1, to: cookieAV.end, of: line)
                : LinePart(start: cookieAV.end, end: cookieAV.end)
            // Step 6: an attribute-value over 1024 octets makes the cookie-av ignored.
            if attributeValue.count > ParsedSetCookie.Limits.maxAttributeValueBytes {
                ignored.ignore(name: attributeName, value: attributeValue, because: .valueTooLong)
                continue
            }
            // Step 7: process the attribute-name case-insensitively; unknown attributes are ignored.
            processAttribute(name: attributeName, value: attributeValue, of: line, tellingIgnoredAttributesTo: &ignored)
        }
        isASCII = segments.isASCII
    }

    /// Step 7: the attribute-name's octets or-ed with 0x20 (a lower-case name exactly when they are that
    /// name in any case: the names are letters and "-", and a name holds no CTL such as 0x0D, the one
    /// other octet that or-ing makes "-") compared with each name's at once, for names of up to eight.
    /// Tells `ignored` of the cookie-av when it is ignored or taken for its default.
    @inline(__always)
    private mutating func processAttribute<Ignored: IgnoredAttributeSink>(
        name: LinePart, value: LinePart, of line: UnsafeBufferPointer<UInt8>,
        tellingIgnoredAttributesTo ignored: inout Ignored
    ) {
        if name.count > 8 {
            if UnsafeBufferPointer(rebasing: line[name.start..<name.end]).caseInsensitivelyEquals("partitioned") {
                partitioned = true
            } else {
                ignored.ignore(name: name, value: value, because: .unknownName)
            }
            return
        }
        switch line.asciiCaseFoldedWord(from: name.start, count: name.count) {
        case AttributeWord.path:
            processPath(name: name, value: value, of: line, tellingIgnoredAttributesTo: &ignored)
        case AttributeWord.domain:
            processDomain(name: name, value: value, of: line, tellingIgnoredAttributesTo: &ignored)
        case AttributeWord.secure:
            // §5.6.5: append Secure with an empty value, whatever the value was.
            secure = true
        case AttributeWord.expires:
            // §5.6.1: a value that fails the cookie-date algorithm ignores the cookie-av.
            if let date = CookieDate.parse(UnsafeBufferPointer(rebasing: line[value.start..<value.end])) {
                expires = date
                ignored.replaceIgnored(.expiresNotACookieDate)
            } else {
                ignored.ignore(name: name, value: value, because: .expiresNotACookieDate)
            }
        case AttributeWord.maxAge:
            processMaxAge(name: name, value: value, of: line, tellingIgnoredAttributesTo: &ignored)
        case AttributeWord.httpOnly:
            httpOnly = true
        case AttributeWord.sameSite:
            processSameSite(name: name, value: value, of: line, tellingIgnoredAttributesTo: &ignored)
        default:
            // An empty cookie-av (";;", a trailing ";") names no attribute: nothing to tell.
            if !name.isEmpty || !value.isEmpty { ignored.ignore(name: name, value: value, because: .unknownName) }
        }
    }

    /// §5.6.2 Max-Age: the value must be an optional "-" followed by DIGITs; otherwise the cookie-av is
    /// ignored.
    private mutating func processMaxAge<Ignored: IgnoredAttributeSink>(
        name: LinePart, value: LinePart, of line: UnsafeBufferPointer<UInt8>,
        tellingIgnoredAttributesTo ignored: inout Ignored
    ) {
        guard let seconds = Self.maxAgeSeconds(UnsafeBufferPointer(rebasing: line[value.start..<value.end])) else {
            ignored.ignore(name: name, value: value, because: .maxAgeNotAnInteger)
            return
        }
        maxAge = seconds
        ignored.replaceIgnored(.maxAgeNotAnInteger)
    }

    /// §5.6.2: the delta-seconds of the Max-Age attribute-value `digits` (WSP trimmed), an optional "-"
    /// followed by DIGITs; nil for any other value, which ignores the cookie-av. Values beyond Int64
    /// saturate (the cookie-age-limit of §5.5 caps them, §5.6.2 steps 5–6).
    @inline(__always)
    static func maxAgeSeconds(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let first = digits.first else { return nil }
        var index = 0
        var negative = false
        if first == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        guard index < digits.count else { return nil }
        var seconds: Int64 = 0
        while index < digits.count {
            let byte = digits[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflow) = seconds.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            seconds = overflow || overflow2 ? .max : sum
            index += 1
        }
        return negative ? -seconds : seconds
    }

    /// §5.6.3 Domain: one leading "." is removed, the rest lower-cased (once parsing is done). An empty
    /// result is kept: it overrides earlier Domain attributes and makes the cookie host-only (§5.7 steps
    /// 7 and 10).
    private mutating func processDomain<Ignored: IgnoredAttributeSink>(
        name: LinePart, value: LinePart, of line: UnsafeBufferPointer<UInt8>,
        tellingIgnoredAttributesTo ignored: inout Ignored
    ) {
        let cookieDomain = value.droppingLeadingDot(in: line)
        domain = cookieDomain
        domainHasUppercase = CookieParts.hasUppercase(cookieDomain.bytes(in: line))
        if cookieDomain.isEmpty { ignored.ignore(name: name, value: value, because: .emptyDomain) }
    }

    /// §5.6.4 Path: a value that is empty or does not start with "/" stands for the default-path.
    private mutating func processPath<Ignored: IgnoredAttributeSink>(
        name: LinePart, value: LinePart, of line: UnsafeBufferPointer<UInt8>,
        tellingIgnoredAttributesTo ignored: inout Ignored
    ) {
        if !value.isEmpty && line[value.start] == UInt8(ascii: "/") {
            path = value
        } else {
            path = LinePart(start: 0, end: 0)
            ignored.ignore(name: name, value: value, because: .pathWithoutLeadingSlash)
        }
    }

    /// §5.6.7 SameSite: "None", "Strict" or "Lax" case-insensitively (their octets or-ed with 0x20, as for
    /// the attribute-names); anything else is "Default".
    private mutating func processSameSite<Ignored: IgnoredAttributeSink>(
        name: LinePart, value: LinePart, of line: UnsafeBufferPointer<UInt8>,
        tellingIgnoredAttributesTo ignored: inout Ignored
    ) {
        guard value.count <= 8 else {
            sameSite = .default
            ignored.ignore(name: name, value: value, because: .unknownSameSiteValue)
            return
        }
        switch line.asciiCaseFoldedWord(from: value.start, count: value.count) {
        case SameSiteWord.none: sameSite = SameSite.none
        case SameSiteWord.strict: sameSite = .strict
        case SameSiteWord.lax: sameSite = .lax
        default:
            sameSite = .default
            ignored.ignore(name: name, value: value, because: .unknownSameSiteValue)
        }
    }
}
