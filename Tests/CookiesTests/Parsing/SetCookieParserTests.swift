import Testing
@testable import Cookies

/// rfc6265bis-22 §5.6: the parsing algorithm, one row per rule.
struct SetCookieParserTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var line: String
        var expected: ParsedSetCookie?
        var rejection: CookieRejection?
        var source: String
        var testDescription: String { "\(source): \(line.debugDescription)" }
    }

    static let rows: [Row] = try! [
        Row(line: "SID=31d4d96e407aad42", expected: .init(name: "SID", value: "31d4d96e407aad42"), source: "§3.1 example"),
        Row(line: "a=b=c", expected: .init(name: "a", value: "b=c"), source: "§5.6 step 3: split at the first ="),
        Row(line: "foo", expected: .init(name: "", value: "foo"), source: "§5.6 step 3: no = makes a nameless cookie"),
        Row(line: "=foo", expected: .init(name: "", value: "foo"), source: "§5.6 step 3: empty name"),
        Row(line: "foo=", expected: .init(name: "foo", value: ""), source: "§5.6 step 3: empty value"),
        Row(line: " \t a \t = \t b \t ", expected: .init(name: "a", value: "b"), source: "§5.6 step 4: WSP trimmed"),
        Row(line: "a=\"b c\"", expected: .init(name: "a", value: "\"b c\""), source: "§5.6: quotes are part of the value"),
        Row(line: "a=b\tc", expected: .init(name: "a", value: "b\tc"), source: "§5.6 step 1: HTAB is allowed"),
        Row(line: "a=b\u{0}c", rejection: .controlCharacter, source: "§5.6 step 1: NUL"),
        Row(line: "a=b; Path=/\u{7F}", rejection: .controlCharacter, source: "§5.6 step 1: DEL in an attribute"),
        Row(line: "a=b\rc", rejection: .controlCharacter, source: "§5.6 step 1: CR"),
        Row(line: "", rejection: .emptyNameAndValue, source: "§5.7 step 2: empty line"),
        Row(line: "=", rejection: .emptyNameAndValue, source: "§5.7 step 2: both empty"),
        Row(line: " ; Secure", rejection: .emptyNameAndValue, source: "§5.7 step 2: both empty with attributes"),
        Row(line: " ; Secure\u{1}", rejection: .controlCharacter, source: "§5.6 step 1 comes before §5.7 step 2: CTL after an empty pair"),
        Row(line: "a=" + String(repeating: "v", count: 4096) + "; x=\u{7F}", rejection: .controlCharacter, source: "§5.6 step 1 comes before step 5"),
        Row(line: "a=" + String(repeating: "v", count: 4095), expected: .init(name: "a", value: String(repeating: "v", count: 4095)), source: "§5.6 step 5: 4096 octets is the limit"),
        Row(line: "a=" + String(repeating: "v", count: 4096), rejection: .nameAndValueTooLong, source: "§5.6 step 5: 4097 octets"),
        Row(line: "a=b; Secure; HttpOnly", expected: .init(name: "a", value: "b", secure: true, httpOnly: true), source: "§5.6.5, §5.6.6"),
        Row(line: "a=b; sEcUrE=ignored; HTTPONLY", expected: .init(name: "a", value: "b", secure: true, httpOnly: true), source: "§5.6: attribute names are case-insensitive; Secure's value is ignored"),
        Row(line: "a=b; Max-Age=60", expected: .init(name: "a", value: "b", maxAge: 60), source: "§5.6.2"),
        Row(line: "a=b; Max-Age=-5", expected: .init(name: "a", value: "b", maxAge: -5), source: "§5.6.2: negative"),
        Row(line: "a=b; Max-Age=1.5", expected: .init(name: "a", value: "b"), source: "§5.6.2: not DIGITs: ignored"),
        Row(line: "a=b; Max-Age=+5", expected: .init(name: "a", value: "b"), source: "§5.6.2: '+' is not allowed"),
        Row(line: "a=b; Max-Age=", expected: .init(name: "a", value: "b"), source: "§5.6.2: empty: ignored"),
        Row(line: "a=b; Max-Age=10; Max-Age=x", expected: .init(name: "a", value: "b", maxAge: 10), source: "§5.6.2: an invalid later value is ignored, the earlier stays"),
        Row(line: "a=b; Max-Age=10; Max-Age=20", expected: .init(name: "a", value: "b", maxAge: 20), source: "§5.7: the last attribute wins"),
        Row(line: "a=b; Max-Age=99999999999999999999999", expected: .init(name: "a", value: "b", maxAge: .max), source: "§5.6.2: huge values saturate (capped at 400 days later)"),
        Row(line: "a=b; Expires=Wed, 09 Jun 2021 10:18:14 GMT", expected: .init(name: "a", value: "b", expires: 1_623_233_894), source: "§5.6.1, §3.1 example date"),
        Row(line: "a=b; Expires=garbage", expected: .init(name: "a", value: "b"), source: "§5.6.1: an unparsable date is ignored"),
        Row(line: "a=b; Domain=.Example.COM", expected: .init(name: "a", value: "b", domain: "example.com"), source: "§5.6.3: leading dot removed, lower-cased"),
        Row(line: "a=b; Domain=", expected: .init(name: "a", value: "b", domain: ""), source: "§5.6.3: an empty Domain is kept (host-only, §5.7 step 10)"),
        Row(line: "a=b; Domain=x.com; Domain=", expected: .init(name: "a", value: "b", domain: ""), source: "§5.7 step 7: the last Domain wins, even an empty one"),
        Row(line: "a=b; Domain=.", expected: .init(name: "a", value: "b", domain: ""), source: "§5.6.3: '.' leaves an empty cookie-domain"),
        Row(line: "a=b; Path=/docs", expected: .init(name: "a", value: "b", path: "/docs"), source: "§5.6.4"),
        Row(line: "a=b; Path=docs", expected: .init(name: "a", value: "b", path: ""), source: "§5.6.4: not starting with / means default-path"),
        Row(line: "a=b; Path=/x; Path=", expected: .init(name: "a", value: "b", path: ""), source: "§5.6.4: an empty later Path wins (default-path)"),
        Row(line: "a=b; SameSite=strict", expected: .init(name: "a", value: "b", sameSite: .strict), source: "§5.6.7"),
        Row(line: "a=b; SameSite=LAX", expected: .init(name: "a", value: "b", sameSite: .lax), source: "§5.6.7"),
        Row(line: "a=b; SameSite=None", expected: .init(name: "a", value: "b", sameSite: SameSite.none), source: "§5.6.7"),
        Row(line: "a=b; SameSite=Bogus", expected: .init(name: "a", value: "b", sameSite: .default), source: "§5.6.7: unknown means Default"),
        Row(line: "a=b; SameSite=Lax; SameSite=", expected: .init(name: "a", value: "b", sameSite: .default), source: "§5.6.7: the last one wins"),
        Row(line: "a=b; Partitioned", expected: .init(name: "a", value: "b", partitioned: true), source: "CHIPS §2.1"),
        Row(line: "a=b; Path=/" + String(repeating: "p", count: 1023), expected: .init(name: "a", value: "b", path: "/" + String(repeating: "p", count: 1023)), source: "§5.6 attribute step 6: 1024-octet attribute value kept"),
        Row(line: "a=b; Path=/" + String(repeating: "p", count: 1024), expected: .init(name: "a", value: "b"), source: "§5.6 attribute step 6: 1025-octet attribute value ignored"),
        Row(line: "a=b; Domain=" + String(repeating: "d", count: 1024), expected: .init(name: "a", value: "b", domain: String(repeating: "d", count: 1024)), source: "§5.6 attribute step 6: a 1024-octet Domain kept (and serialised without a leading dot, fuzz crasher set-cookie-domain-1024-serialised-over-limit)"),
        Row(line: "a=b; Domain=..x", expected: .init(name: "a", value: "b", domain: "..x"), source: "§5.6.3: only one leading dot is removed"),
        Row(line: "a=b; Domain=. x", expected: .init(name: "a", value: "b", domain: ". x"), source: "§5.6.3: WSP is trimmed before the dot is removed, not after (fuzz crasher set-cookie-domain-space-after-dot)"),
        Row(line: "a=b;;; ; Unknown=1; =x; Secure", expected: .init(name: "a", value: "b", secure: true), source: "§5.6: empty and unknown attributes ignored"),
        Row(line: "a=b; Secure ; Path = /x ", expected: .init(name: "a", value: "b", path: "/x", secure: true), source: "§5.6 attribute step 5: WSP trimmed"),
        Row(line: "a=b, c=d", expected: .init(name: "a", value: "b, c=d"), source: "§3: a comma does not separate cookies"),
        Row(line: "na\u{E9}me=v\u{E4}l\u{FC}e", expected: .init(name: "na\u{E9}me", value: "v\u{E4}l\u{FC}e"), source: "§5.6: non-ASCII octets pass through"),
    ]

    @Test(arguments: rows)
    func parses(_ row: Row) {
        do {
            let parsed = try ParsedSetCookie(parsing: row.line)
            #expect(row.rejection == nil, "expected \(String(describing: row.rejection))")
            #expect(parsed == row.expected)
        } catch {
            #expect(error == row.rejection)
        }
    }

    /// §5.6 cookie-av step 7 and §5.6.1-§5.6.7: each attribute-name, and each SameSite value, with every
    /// byte at each of its positions. The oracle is i;ascii-casemap (RFC 4790): the attribute applies
    /// exactly when the bytes fold (`asciiLowercased`) to its name, and SameSite is None, Strict or Lax
    /// exactly when its value folds to that word (else Default); a CTL other than HTAB rejects the line
    /// (step 1). ";", "=" and WSP, which split or get trimmed, are left to the rows above.
    struct AttributeSweepRow: CustomTestStringConvertible, Sendable {
        var attribute: String
        var value: String
        var expected: ParsedSetCookie
        var source: String
        var testDescription: String { source }
    }

    static let attributeSweepRows: [AttributeSweepRow] = try! [
        .init(attribute: "path", value: "/x", expected: .init(name: "a", value: "b", path: "/x"), source: "§5.6.4 Path"),
        .init(attribute: "domain", value: "x", expected: .init(name: "a", value: "b", domain: "x"), source: "§5.6.3 Domain"),
        .init(attribute: "secure", value: "", expected: .init(name: "a", value: "b", secure: true), source: "§5.6.5 Secure"),
        .init(attribute: "expires", value: "Sun, 06 Nov 1994 08:49:37 GMT", expected: .init(name: "a", value: "b", expires: 784_111_777), source: "§5.6.1 Expires"),
        .init(attribute: "max-age", value: "5", expected: .init(name: "a", value: "b", maxAge: 5), source: "§5.6.2 Max-Age"),
        .init(attribute: "httponly", value: "", expected: .init(name: "a", value: "b", httpOnly: true), source: "§5.6.6 HttpOnly"),
        .init(attribute: "samesite", value: "lax", expected: .init(name: "a", value: "b", sameSite: .lax), source: "§5.6.7 SameSite"),
        .init(attribute: "partitioned", value: "", expected: .init(name: "a", value: "b", partitioned: true), source: "CHIPS §2.1 Partitioned"),
    ]

    @Test(arguments: attributeSweepRows)
    func attributeNameBytes(_ row: AttributeSweepRow) throws {
        let name = Array(row.attribute.utf8)
        for position in name.indices {
            for byte in UInt8(0)...UInt8(255) where ![UInt8(ascii: ";"), UInt8(ascii: "="), 0x20, 0x09].contains(byte) {
                var attribute = name
                attribute[position] = byte
                let line = Array("a=b; ".utf8) + attribute + (row.value.isEmpty ? [] : [UInt8(ascii: "=")] + Array(row.value.utf8))
                let result = line.withUnsafeBufferPointer { bytes in
                    Result { () throws(CookieRejection) in try ParsedSetCookie(bytes: bytes) }
                }
                if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                    #expect(throws: CookieRejection.controlCharacter) { try result.get() }
                } else {
                    let applies = attribute.map(\.asciiLowercased) == name
                    #expect(try result.get() == (applies ? row.expected : .init(name: "a", value: "b")), "\(attribute)")
                }
            }
        }
    }

    @Test(arguments: ["none", "strict", "lax"])
    func sameSiteValueBytes(_ word: String) throws {
        let enforcements: [String: SameSite] = ["none": SameSite.none, "strict": .strict, "lax": .lax]
        let original = Array(word.utf8)
        for position in original.indices {
            for byte in UInt8(0)...UInt8(255) where ![UInt8(ascii: ";"), 0x20, 0x09].contains(byte) {
                var value = original
                value[position] = byte
                let line = Array("a=b; SameSite=".utf8) + value
                let result = line.withUnsafeBufferPointer { bytes in
                    Result { () throws(CookieRejection) in try ParsedSetCookie(bytes: bytes) }
                }
                if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                    #expect(throws: CookieRejection.controlCharacter) { try result.get() }
                } else {
                    let folded = String(decoding: value.map(\.asciiLowercased), as: UTF8.self)
                    let expected = enforcements[folded] ?? .default
                    #expect(try result.get().sameSite == expected, "\(value)")
                }
            }
        }
    }

    /// Parse → serialise → parse gives the same value for every accepted row.
    @Test(arguments: rows.filter { $0.expected != nil })
    func serialisationRoundTrips(_ row: Row) throws {
        let parsed = try ParsedSetCookie(parsing: row.line)
        #expect(try ParsedSetCookie(parsing: parsed.setCookieString) == parsed)
    }

    /// A parsed cookie is a value: its parts read from the line compare and hash as the same text given
    /// directly, setting one part leaves the others as parsed, and a copy does not see the change.
    struct ValueRow: CustomTestStringConvertible, Sendable {
        var line: String
        var source: String
        var testDescription: String { source }
    }

    static let valueRows: [ValueRow] = [
        ValueRow(line: "SID=31d4d96e407aad42; Domain=Example.com; Path=/docs; Secure", source: "§3.1 example with an upper-case Domain (lower-cased, §5.6.3)"),
        ValueRow(line: " token = a-long-value-that-is-not-a-small-string ;Path=/;Domain=.example.com", source: "§5.6 steps 3–4 and attribute step 5: trimmed parts"),
        ValueRow(line: "v\u{E4}l=\u{1F36A}; Path=/\u{E9}", source: "§5.6: non-ASCII name, value and Path"),
    ]

    @Test(arguments: valueRows)
    func partsBehaveAsValues(_ row: ValueRow) throws {
        let parsed = try ParsedSetCookie(parsing: row.line)
        let given = try ParsedSetCookie(
            name: parsed.name, value: parsed.value, expires: parsed.expires, maxAge: parsed.maxAge, domain: parsed.domain,
            path: parsed.path, secure: parsed.secure, httpOnly: parsed.httpOnly, sameSite: parsed.sameSite,
            partitioned: parsed.partitioned)
        #expect(parsed == given)
        #expect(parsed.hashValue == given.hashValue)
        #expect(try ParsedSetCookie(parsing: parsed.setCookieString) == parsed)

        var changed = parsed
        try changed.setValue("other")
        try changed.setPath(nil)
        #expect(changed.name == parsed.name && changed.domain == parsed.domain)
        #expect(changed.value == "other" && changed.path == nil)
        #expect(changed != parsed)
        #expect(parsed == given)
    }

    /// A value built from its parts holds only what a line could give (§5.6): a text no line could give
    /// is refused with the reason the line would have been ignored for, or the cookie-av, where one part
    /// would have become another (a ";" ends the pair, an "=" the name) or been ignored (cookie-av step 6).
    struct RefusedPartsRow: CustomTestStringConvertible, Sendable {
        var name = "n"
        var value = "v"
        var domain: String?
        var path: String?
        var rejection: CookieRejection
        var source: String
        var testDescription: String { source }
    }

    static let refusedPartsRows: [RefusedPartsRow] = [
        RefusedPartsRow(name: "sid", value: "x\r\nX-Injected: 1; admin=1", rejection: .controlCharacter, source: "§5.6 step 1: CR LF, which would end the Cookie header field"),
        RefusedPartsRow(value: "x\u{0}", rejection: .controlCharacter, source: "§5.6 step 1: NUL"),
        RefusedPartsRow(name: "n\u{7F}", rejection: .controlCharacter, source: "§5.6 step 1: DEL in the name"),
        RefusedPartsRow(domain: "h.test\u{1}", rejection: .controlCharacter, source: "§5.6 step 1: in a Domain"),
        RefusedPartsRow(path: "/a\u{1F}", rejection: .controlCharacter, source: "§5.6 step 1: in a Path"),
        RefusedPartsRow(name: "sid", value: "x; admin=1", rejection: .separatorCharacter, source: "§5.6 step 2: the pair ends at the first ; (admin=1 would be a pair of its own in the Cookie header)"),
        RefusedPartsRow(name: "a;b", rejection: .separatorCharacter, source: "§5.6 step 2: in the name"),
        RefusedPartsRow(name: "a=b", rejection: .separatorCharacter, source: "§5.6 step 3: the name ends at the first ="),
        RefusedPartsRow(domain: "h.test; Secure", rejection: .separatorCharacter, source: "§5.6 cookie-av step 1: a cookie-av ends at the next ;"),
        RefusedPartsRow(path: "/a;b", rejection: .separatorCharacter, source: "§5.6 cookie-av step 1: in a Path"),
        RefusedPartsRow(name: "", value: "", rejection: .emptyNameAndValue, source: "§5.7 step 2"),
        RefusedPartsRow(name: " ", value: "\t", rejection: .emptyNameAndValue, source: "§5.6 step 4 removes the WSP, then §5.7 step 2"),
        RefusedPartsRow(value: String(repeating: "v", count: 4096), rejection: .nameAndValueTooLong, source: "§5.6 step 5: 4,097 octets"),
        RefusedPartsRow(value: String(repeating: "v", count: 5000), rejection: .nameAndValueTooLong, source: "§5.6 step 5: a value no jar keeps, nor a jar file loads"),
        RefusedPartsRow(domain: String(repeating: "d", count: 1025), rejection: .attributeValueTooLong, source: "§5.6 cookie-av step 6: a Domain of 1,025 octets"),
        RefusedPartsRow(
            domain: "." + String(repeating: "d", count: 1024), rejection: .attributeValueTooLong,
            source: "§5.6 cookie-av step 6: 1,025 octets as given, counted before §5.6.3 removes the ."),
        RefusedPartsRow(path: "/" + String(repeating: "p", count: 1024), rejection: .attributeValueTooLong, source: "§5.6 cookie-av step 6: a Path of 1,025 octets"),
    ]

    @Test(arguments: refusedPartsRows)
    func buildingRefusesWhatNoLineGives(_ row: RefusedPartsRow) {
        #expect(throws: row.rejection) {
            try ParsedSetCookie(name: row.name, value: row.value, domain: row.domain, path: row.path)
        }
    }

    /// Each setter refuses what the initialiser refuses (§5.6, as above) and then leaves the value as it
    /// was.
    @Test func settersRefuseWhatNoLineGivesAndChangeNothing() throws {
        let long = String(repeating: "v", count: 4096)
        let attempts: [(line: String, set: (inout ParsedSetCookie) throws -> Void, rejection: CookieRejection, source: String)] = [
            ("n=v; Domain=h.test; Path=/p", { try $0.setValue("x\r\nX-Injected: 1") }, .controlCharacter, "§5.6 step 1"),
            ("n=v; Domain=h.test; Path=/p", { try $0.setValue("x; admin=1") }, .separatorCharacter, "§5.6 step 2"),
            ("n=v; Domain=h.test; Path=/p", { try $0.setName("a=b") }, .separatorCharacter, "§5.6 step 3"),
            ("=v; Path=/p", { try $0.setValue(" ") }, .emptyNameAndValue, "§5.6 step 4, §5.7 step 2"),
            ("n=v; Path=/p", { try $0.setValue(long) }, .nameAndValueTooLong, "§5.6 step 5"),
            ("n=v; Domain=h.test", { try $0.setDomain("h.test;x") }, .separatorCharacter, "§5.6 cookie-av step 1"),
            ("n=v; Path=/p", { try $0.setPath("/" + long) }, .attributeValueTooLong, "§5.6 cookie-av step 6"),
        ]
        for attempt in attempts {
            let original = try ParsedSetCookie(parsing: attempt.line)
            var changed = original
            #expect(throws: attempt.rejection, "\(attempt.source)") { try attempt.set(&changed) }
            #expect(changed == original && changed.setCookieString == original.setCookieString, "\(attempt.source)")
        }
    }

    /// A value built from its parts is what its own `setCookieString` parses to, and what a line giving
    /// the same texts parses to: each text is taken as §5.6 takes it from a line.
    struct GivenPartsRow: CustomTestStringConvertible, Sendable {
        var name = "n"
        var value = "v"
        var domain: String?
        var path: String?
        var expires: Int64?
        var maxAge: Int64?
        /// A line whose parse is the same cookie.
        var line: String
        var source: String
        var testDescription: String { source }
    }

    static let givenPartsRows: [GivenPartsRow] = [
        GivenPartsRow(name: "up", value: "1", domain: "Example.COM", line: "up=1; Domain=Example.COM", source: "§5.6.3: the Domain is lower-cased"),
        GivenPartsRow(domain: "h.test \t", line: "n=v; Domain=h.test \t", source: "§5.6 cookie-av step 5: WSP at the end goes"),
        GivenPartsRow(domain: " h.test", line: "n=v; Domain= h.test", source: "§5.6 cookie-av step 5: WSP at the start goes"),
        GivenPartsRow(domain: ".Example.COM", line: "n=v; Domain=.Example.COM", source: "§5.6.3: one leading . is removed, as servers write it, and the rest lower-cased"),
        GivenPartsRow(domain: "..h.test", line: "n=v; Domain=..h.test", source: "§5.6.3 removes one . only"),
        GivenPartsRow(domain: ".", line: "n=v; Domain=.", source: "§5.6.3: Domain=. is an empty cookie-domain"),
        GivenPartsRow(path: "foo", line: "n=v; Path=foo", source: "§5.6.4: a path not starting with / is the default-path"),
        GivenPartsRow(path: "", line: "n=v; Path=", source: "§5.6.4: an empty path is the default-path"),
        GivenPartsRow(path: " /p\t", line: "n=v; Path= /p\t", source: "§5.6 cookie-av step 5: WSP at the ends goes"),
        GivenPartsRow(name: " n\t", value: "\t\"v w\" ", line: " n\t=\t\"v w\" ", source: "§5.6 step 4: WSP at the ends goes"),
        GivenPartsRow(name: "", value: "a=b", line: "=a=b", source: "§5.6 step 3: a nameless cookie's value may hold ="),
        GivenPartsRow(expires: .min, line: "n=v; Expires=Mon, 01 Jan 1601 00:00:00 GMT", source: "§5.1.1 step 5: no cookie-date is before 1601"),
        GivenPartsRow(expires: .max, line: "n=v; Expires=Fri, 31 Dec 9999 23:59:59 GMT", source: "§5.1.1: a year has at most four digits"),
        GivenPartsRow(maxAge: .min, line: "n=v; Max-Age=-9223372036854775808", source: "§5.6.2: the digits saturate at Int64.max"),
    ]

    @Test(arguments: givenPartsRows)
    func givenPartsAreTakenAsALineGivesThem(_ row: GivenPartsRow) throws {
        let parsed = try ParsedSetCookie(parsing: row.line)
        let built = try ParsedSetCookie(
            name: row.name, value: row.value, expires: row.expires, maxAge: row.maxAge, domain: row.domain, path: row.path)
        #expect(built == parsed)
        #expect(try ParsedSetCookie(parsing: built.setCookieString) == built)
        var set = try ParsedSetCookie(name: "x", value: "y")
        try set.setName(row.name)
        try set.setValue(row.value)
        try set.setDomain(row.domain)
        try set.setPath(row.path)
        set.expires = row.expires
        set.maxAge = row.maxAge
        #expect(set == parsed)
    }

    /// Ill-formed UTF-8 is kept as U+FFFD, three octets for one: the limits of §5.6 step 5 and cookie-av
    /// step 6 hold for the decoded text too, so what is kept stays within them and round-trips (found by
    /// the set-cookie fuzz target: corpus/crashers/set-cookie-invalid-utf8-path-over-1024).
    struct DecodedLimitRow: CustomTestStringConvertible, Sendable {
        var bytes: [UInt8]
        var expected: ParsedSetCookie?
        var source: String
        var testDescription: String { source }
    }

    static let decodedLimitRows: [DecodedLimitRow] = try! [
        DecodedLimitRow(
            bytes: Array("a=".utf8) + [0xFF] + Array(repeating: UInt8(ascii: "v"), count: 4093), expected: nil,
            source: "step 5: 4096 octets, 4098 decoded: line ignored"),
        DecodedLimitRow(
            bytes: Array("a=".utf8) + [0xFF] + Array(repeating: UInt8(ascii: "v"), count: 4092),
            expected: .init(name: "a", value: "\u{FFFD}" + String(repeating: "v", count: 4092)),
            source: "step 5: 4096 decoded octets kept"),
        DecodedLimitRow(
            bytes: Array("a=b; Path=/".utf8) + [0x88] + Array(repeating: UInt8(ascii: "p"), count: 1021),
            expected: .init(name: "a", value: "b"), source: "cookie-av step 6: a Path of 1025 decoded octets ignored"),
        DecodedLimitRow(
            bytes: Array("a=b; Path=/".utf8) + [0x88] + Array(repeating: UInt8(ascii: "p"), count: 1020),
            expected: .init(name: "a", value: "b", path: "/\u{FFFD}" + String(repeating: "p", count: 1020)),
            source: "cookie-av step 6: a Path of 1024 decoded octets kept"),
        DecodedLimitRow(
            bytes: Array("a=b; Domain=".utf8) + [0xFF] + Array(repeating: UInt8(ascii: "d"), count: 1022),
            expected: .init(name: "a", value: "b"), source: "cookie-av step 6: a Domain of 1025 decoded octets ignored"),
        DecodedLimitRow(
            bytes: Array("a=b; SameSite=".utf8) + [0xFF] + Array(repeating: UInt8(ascii: "x"), count: 1022),
            expected: .init(name: "a", value: "b"),
            source: "cookie-av step 6: a SameSite of 1023 octets, 1025 decoded, ignored (the limit holds for every attribute)"),
        DecodedLimitRow(
            bytes: Array("a=b; SameSite=".utf8) + [0xFF] + Array(repeating: UInt8(ascii: "x"), count: 1021),
            expected: .init(name: "a", value: "b", sameSite: .default),
            source: "cookie-av step 6: a SameSite of 1024 decoded octets kept (§5.6.7: unknown means Default)"),
    ]

    @Test(arguments: decodedLimitRows)
    func limitsHoldForDecodedText(_ row: DecodedLimitRow) throws {
        let result = row.bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(CookieRejection) in try ParsedSetCookie(bytes: bytes) }
        }
        guard let expected = row.expected else {
            #expect(throws: CookieRejection.nameAndValueTooLong) { try result.get() }
            return
        }
        let parsed = try result.get()
        #expect(parsed == expected)
        #expect(try ParsedSetCookie(parsing: parsed.setCookieString) == parsed)
    }

    /// Byte sweep: every byte in a name, a value and an attribute value (§5.6 step 1: only CTLs other
    /// than HTAB reject the line; "=" and ";" split; WSP at the ends is trimmed).
    @Test(arguments: 0...255)
    func byteSweep(_ value: Int) {
        let byte = UInt8(value)
        for template in [[UInt8]("n".utf8) + [byte] + [UInt8]("n=v".utf8), [UInt8]("n=v".utf8) + [byte] + [UInt8]("v".utf8), [UInt8]("n=v; Path=/a".utf8) + [byte] + [UInt8]("b".utf8)] {
            let result = template.withUnsafeBufferPointer { bytes in
                Result { () throws(CookieRejection) in try ParsedSetCookie(bytes: bytes) }
            }
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                #expect(throws: CookieRejection.controlCharacter) { try result.get() }
            } else {
                #expect(throws: Never.self) { try result.get() }
            }
        }
    }

    /// Every byte at every position of a 19-byte line of "a"s (two eight-byte words and three bytes after
    /// them, so both the word reads and the last, overlapping word see it). The oracle is §5.6 written
    /// with the standard library: a CTL other than HTAB rejects the line (step 1), the pair ends at the
    /// first ";" (step 2) and splits at its first "=" (step 3), WSP is trimmed (step 4), and what follows
    /// the ";" is an unknown attribute.
    @Test(arguments: 0...255)
    func byteAtEveryPosition(_ value: Int) throws {
        let byte = UInt8(value)
        for position in 0..<19 {
            var line = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
            line[position] = byte
            let result = line.withUnsafeBufferPointer { bytes in
                Result { () throws(CookieRejection) in try ParsedSetCookie(bytes: bytes) }
            }
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                #expect(throws: CookieRejection.controlCharacter, "byte \(byte) at \(position)") { try result.get() }
                continue
            }
            let pair = line.prefix { $0 != UInt8(ascii: ";") }
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
            func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
                String(decoding: bytes.drop(while: isWhitespace).reversed().drop(while: isWhitespace).reversed(), as: UTF8.self)
            }
            let name = equals.map { trimmed(pair[..<$0]) } ?? ""
            let cookieValue = trimmed(equals.map { pair[($0 + 1)...] } ?? pair[...])
            if name.isEmpty && cookieValue.isEmpty {
                #expect(throws: CookieRejection.emptyNameAndValue, "byte \(byte) at \(position)") { try result.get() }
            } else {
                #expect(try result.get() == ParsedSetCookie(name: name, value: cookieValue), "byte \(byte) at \(position)")
            }
        }
    }

    /// The parse tells whether the whole line is ASCII (every byte below 0x80), whatever its length (lines
    /// shorter than a word, whole words, an overlapping last word) and wherever a byte from 0x80 stands:
    /// each of 0x80, 0xC3 and 0xFF at every position of the first `length` bytes of a line of several
    /// attributes. The oracle is `allSatisfy`.
    @Test(arguments: 1...21)
    func lineIsASCIIAtEveryLength(length: Int) throws {
        let template = Array("a=b; c=d;e=f; Path=/x; g".utf8)
        for position in -1..<length {
            for high: UInt8 in [0x80, 0xC3, 0xFF] where position >= 0 || high == 0x80 {
                var line = Array(template.prefix(length))
                if position >= 0 { line[position] = high }
                var parts = CookieParts()
                let parsed = line.withUnsafeBufferPointer { bytes in
                    Result { () throws(CookieRejection) in try parts.parse(bytes) }
                }
                guard (try? parsed.get()) != nil else { continue }
                #expect(parts.isASCII == line.allSatisfy { $0 < 0x80 }, "\(high) at \(position) of \(length)")
            }
        }
    }
}
