import Testing
@testable import Cookies

/// `CookieJar.setCookie(_:from:context:)` reports what rfc6265bis-22 §5.7 did with a line: the rules'
/// rejection (steps 1–22), or what steps 23–24 did, with the cookies.
struct SetCookieOutcomeTests {
    enum Expected: Sendable, Equatable {
        /// A new cookie, `name=value`.
        case stored(String)
        /// `name=value` replaced `previous` (also `name=value`), keeping its creation time.
        case replaced(String, previous: String)
        case deleted(previous: String)
        case expired
        case rejected(CookieRejection)
    }

    struct Row: CustomTestStringConvertible, Sendable {
        /// Lines received before the one reported on, from the same URL.
        var before: [String]
        var line: String
        var context = CookieRequestContext()
        var expected: Expected
        var source: String
        var testDescription: String { "\(source): \(line)" }
    }

    static let rows: [Row] = [
        Row(before: [], line: "a=1", expected: .stored("a=1"), source: "§5.7 step 24: inserted"),
        Row(before: ["a=1"], line: "a=2", expected: .replaced("a=2", previous: "a=1"), source: "§5.7 step 23: same identity"),
        Row(before: ["a=1; Path=/x"], line: "a=2", expected: .stored("a=2"), source: "§5.7 step 23: another path is another identity"),
        Row(before: ["a=1"], line: "a=; Max-Age=0", expected: .deleted(previous: "a=1"), source: "§5.7 step 23 with an expired cookie: the old one goes"),
        Row(before: [], line: "a=; Max-Age=0", expected: .expired, source: "§5.7 step 24: an expired cookie is not inserted"),
        Row(before: [], line: "a=1; Domain=com", expected: .rejected(.domainIsPublicSuffix), source: "§5.7 step 9"),
        Row(before: [], line: "=", expected: .rejected(.emptyNameAndValue), source: "§5.7 step 2 (while parsing)"),
        Row(before: ["a=1; HttpOnly"], line: "a=2", context: .init(api: .nonHTTP), expected: .rejected(.wouldOverwriteHTTPOnlyCookie),
            source: "§5.7 step 23.2: a non-HTTP API cannot replace an HttpOnly cookie"),
        Row(before: ["a=1; HttpOnly"], line: "a=; Max-Age=0", context: .init(api: .nonHTTP), expected: .rejected(.wouldOverwriteHTTPOnlyCookie),
            source: "§5.7 step 23.2: nor delete one"),
    ]

    @Test(arguments: rows, [false, true])
    func reportsWhatTheStoreDid(_ row: Row, observed: Bool) {
        let (jar, clock) = makeTestJar()
        // With an observer the store records its changes too; the outcome must not depend on it.
        let token = observed ? jar.addObserver { _ in } : nil
        defer { if let token { jar.removeObserver(token) } }
        for line in row.before { jar.setCookie(line, from: url("https://h.test/")) }
        let firstCreation = jar.allCookies().first?.creation
        clock.advance(seconds: 5)
        let outcome = jar.setCookie(row.line, from: url("https://h.test/"), context: row.context)
        func pair(_ cookie: Cookie) -> String { cookie.name + "=" + cookie.value }
        switch (outcome, row.expected) {
        case (.stored(let cookie), .stored(let expected)):
            #expect(pair(cookie) == expected)
            #expect(cookie.creation == testEpoch.adding(seconds: 5) && cookie.lastAccess == cookie.creation)
            #expect(jar.allCookies().contains(cookie), "the reported cookie is the stored one")
        case (.replaced(let cookie, let previous), .replaced(let expected, let expectedPrevious)):
            #expect(pair(cookie) == expected && pair(previous) == expectedPrevious)
            #expect(cookie.creation == firstCreation && previous.creation == firstCreation, "§5.7 step 23.3")
            #expect(jar.allCookies() == [cookie], "the reported cookie is the stored one")
        case (.deleted(let previous), .deleted(let expected)):
            #expect(pair(previous) == expected)
            #expect(jar.count == 0)
        case (.expired, .expired):
            #expect(jar.count == 0)
        case (.rejected(let reason), .rejected(let expected)):
            #expect(reason == expected)
            #expect(jar.count == row.before.count, "nothing changed")
        default:
            Issue.record("\(outcome) is not \(row.expected)")
        }
    }

    struct InsertRow: CustomTestStringConvertible, Sendable {
        var name: String
        var valueLength: Int
        /// The value, when not `valueLength` times "v".
        var value: String? = nil
        var domain = "h.test"
        var isHostOnly = true
        var path = "/"
        var isSecure = false
        var sameSite = SameSite.default
        var sourcePort: Int?
        var partitionKey: String?
        /// nil: stored.
        var rejection: CookieRejection?
        var source: String
        var testDescription: String { "\(source): \(name.utf8.count) + \(valueLength) bytes, port \(sourcePort.map(String.init) ?? "none")" }
    }

    static let insertRows: [InsertRow] = [
        InsertRow(name: "a", valueLength: 4095, rejection: nil, source: "§5.6 step 5: 4,096 bytes of name and value pass"),
        InsertRow(name: "a", valueLength: 4096, rejection: .nameAndValueTooLong, source: "§5.6 step 5: 4,097 bytes do not"),
        InsertRow(name: "", valueLength: 4096, rejection: nil, source: "§5.6 step 5: a nameless cookie's 4,096 bytes pass"),
        InsertRow(name: "", valueLength: 70_000, rejection: .nameAndValueTooLong, source: "§5.6 step 5: far past it"),
        InsertRow(name: String(repeating: "n", count: 4096), valueLength: 1, rejection: .nameAndValueTooLong, source: "§5.6 step 5: a long name"),
        InsertRow(name: "", valueLength: 0, rejection: .emptyNameAndValue, source: "§5.7 step 2: neither a name nor a value"),
        InsertRow(
            name: "sid", valueLength: 10, value: "x; admin=1", rejection: .separatorCharacter,
            source: "§5.6 step 2: a line's pair ends at the first ; (the Cookie header would carry admin=1 as a pair)"),
        InsertRow(name: "a;b", valueLength: 1, rejection: .separatorCharacter, source: "§5.6 step 2: nor may a name hold a ;"),
        InsertRow(name: "a=b", valueLength: 1, rejection: .separatorCharacter, source: "§5.6 step 3: a line's name ends at the first ="),
        InsertRow(name: "a", valueLength: 3, value: "b=c", rejection: nil, source: "§5.6 step 3: a value may hold ="),
        InsertRow(name: "a", valueLength: 1, path: "", rejection: .relativePath, source: "§5.7 step 11: a cookie-path starts with /"),
        InsertRow(name: "a", valueLength: 1, path: "x/", rejection: .relativePath, source: "§5.7 step 11: a cookie-path starts with /"),
        InsertRow(name: "a", valueLength: 1, path: "/a;b", rejection: nil, source: "§5.1.4: the default-path of https://h.test/a;b/c holds a ;"),
        InsertRow(name: "a", valueLength: 1, sourcePort: 0, rejection: nil, source: "ports are 0-65535 (RFC 6335 §6)"),
        InsertRow(name: "a", valueLength: 1, sourcePort: 65535, rejection: nil, source: "ports are 0-65535 (RFC 6335 §6)"),
        InsertRow(name: "a", valueLength: 1, sourcePort: 65536, rejection: .invalidSourcePort, source: "no port is 65536"),
        InsertRow(name: "a", valueLength: 1, sourcePort: -1, rejection: .invalidSourcePort, source: "no port is negative"),
        InsertRow(name: "a", valueLength: 3, value: "x\u{0}y", rejection: .controlCharacter, source: "§5.6 step 1: a NUL (no header carries it, no PostgreSQL text holds it)"),
        InsertRow(name: "a\u{1}", valueLength: 1, rejection: .controlCharacter, source: "§5.6 step 1: a CTL in the name"),
        InsertRow(name: "a", valueLength: 2, value: "x\u{7F}", rejection: .controlCharacter, source: "§5.6 step 1: DEL is a CTL (RFC 5234 B.1)"),
        InsertRow(name: "a", valueLength: 3, value: "x\ty", rejection: nil, source: "§5.6 step 1: HTAB is the CTL a line may hold"),
        InsertRow(name: "a", valueLength: 1, path: "/a\u{0}b", rejection: .controlCharacter, source: "§5.6 step 1: nor may a Path attribute"),
        InsertRow(name: "a", valueLength: 1, domain: "h\u{1}.test", rejection: .controlCharacter, source: "§5.6 step 1: nor a Domain attribute"),
        InsertRow(
            name: "a", valueLength: 1, partitionKey: "https://top\u{7F}.test", rejection: .controlCharacter,
            source: "§5.6 step 1: nor the site a partition key names (CHIPS §2.1: a request's top-level site)"),
        InsertRow(name: "a", valueLength: 1, partitionKey: "", rejection: .emptyPartitionKey, source: "CHIPS: a partition key names a site; a jar file keeps none as an empty one"),
        InsertRow(name: "a", valueLength: 1, domain: "H.test", rejection: .domainNotCanonical, source: "§5.1.2: a host is kept lower-cased; no request host would match"),
        InsertRow(name: "a", valueLength: 1, domain: "bücher.test", rejection: .domainNotCanonical, source: "§5.1.2: a host is kept in IDNA A-labels (xn--bcher-kva.test)"),
        InsertRow(name: "a", valueLength: 1, domain: "", rejection: .domainNotCanonical, source: "§5.1.2: no host is empty"),
        InsertRow(name: "a", valueLength: 1, domain: "co.uk", rejection: nil, source: "§5.7 step 9: the host a public suffix names may set a host-only cookie"),
        InsertRow(name: "a", valueLength: 1, sameSite: SameSite.none, rejection: .sameSiteNoneWithoutSecure, source: "§5.7 step 19: SameSite=None requires Secure"),
        InsertRow(name: "a", valueLength: 1, isSecure: true, sameSite: SameSite.none, rejection: nil, source: "§5.7 step 19: SameSite=None with Secure"),
        InsertRow(name: "__Secure-a", valueLength: 1, rejection: .securePrefixViolation, source: "§5.7 step 20: __Secure- requires Secure"),
        InsertRow(name: "__SECURE-a", valueLength: 1, rejection: .securePrefixViolation, source: "§5.7 step 20: matched case-insensitively"),
        InsertRow(name: "__Secure-a", valueLength: 1, isSecure: true, rejection: nil, source: "§5.7 step 20: with Secure"),
        InsertRow(name: "__Host-a", valueLength: 1, isSecure: true, rejection: nil, source: "§5.7 step 21: Secure, host-only, path /"),
        InsertRow(name: "__Host-a", valueLength: 1, rejection: .hostPrefixViolation, source: "§5.7 step 21: without Secure"),
        InsertRow(name: "__Host-a", valueLength: 1, isHostOnly: false, isSecure: true, rejection: .hostPrefixViolation, source: "§5.7 step 21: with a Domain"),
        InsertRow(name: "__Host-a", valueLength: 1, path: "/x", isSecure: true, rejection: .hostPrefixViolation, source: "§5.7 step 21: a path other than /"),
        InsertRow(name: "", valueLength: 8, value: "__Host-x", isSecure: true, rejection: .namelessWithPrefix, source: "§5.7 step 22: a nameless cookie posing as a prefixed one"),
        InsertRow(name: "a", valueLength: 1, partitionKey: "https://h.test", rejection: .partitionedWithoutSecure, source: "CHIPS §2.1: Partitioned requires Secure"),
        InsertRow(name: "a", valueLength: 1, isSecure: true, partitionKey: "https://h.test", rejection: nil, source: "CHIPS §2.1: partitioned and Secure"),
    ]

    /// `insert(_:)` skips §5.7 but refuses a cookie no `Set-Cookie` line could have given (as Chromium
    /// holds every cookie to §5.6 step 5's limit), leaving the cookie of the same identity in place;
    /// every other cookie is stored as it is, the longest name and value and the ports' bounds included.
    /// An expired cookie handed to `insert` deletes the cookie of its identity whatever its attributes
    /// (an app's sign-out that builds the expired copy without Secure): the attribute rules (§5.7 steps
    /// 19–22, CHIPS §2.1) are for what a jar stores, and it stores no expired cookie.
    @Test(arguments: [
        Cookie(name: "__Host-sid", value: "", domain: "h.test", expiry: testEpoch.adding(seconds: -1), creation: testEpoch),
        Cookie(name: "sid", value: "", domain: "h.test", expiry: testEpoch.adding(seconds: -1), creation: testEpoch, sameSite: .none),
        Cookie(
            name: "sid", value: "", domain: "h.test", expiry: testEpoch.adding(seconds: -1), creation: testEpoch,
            partitionKey: "https://h.test"),
    ])
    func anExpiredCopyDeletesWhateverItsAttributes(_ expired: Cookie) {
        let (jar, _) = makeTestJar()
        var live = expired
        live.expiry = testEpoch.adding(seconds: 3600)
        live.isSecure = true
        #expect(jar.insert(live) == .stored(live))
        #expect(jar.insert(expired) == .deleted(previous: live))
        #expect(jar.allCookies().isEmpty)
    }

    /// §5.7 step 9: a public suffix is a cookie's domain only as the host of that name that set it, which
    /// makes the cookie host-only. `insert` cannot know the host that set a cookie (a curl cookies.txt holds
    /// `.localhost` for a `Domain=localhost` localhost set): it stores such a cookie host-only, where it
    /// reaches that host alone, never the hosts below the suffix.
    @Test(arguments: ["localhost", "co.uk"])
    func aDomainCookieOfAPublicSuffixIsStoredHostOnly(_ domain: String) {
        let (jar, _) = makeTestJar()
        let cookie = Cookie(name: "a", value: "1", domain: domain, isHostOnly: false, creation: testEpoch)
        var hostOnly = cookie
        hostOnly.isHostOnly = true
        #expect(jar.insert(cookie) == .stored(hostOnly))
        #expect(jar.cookieHeader(for: url("http://\(domain)/")) == "a=1")
        #expect(jar.cookieHeader(for: url("http://www.\(domain)/")) == nil)
    }

    /// An IP address is no public suffix (the list never sees one, §5.7 step 9 applies to names): a domain
    /// cookie of an IP address, as a file may hold one, is stored as it is.
    @Test(arguments: ["192.0.2.1", "[2001:db8::1]"])
    func aDomainCookieOfAnIPAddressIsStoredAsItIs(_ domain: String) {
        let (jar, _) = makeTestJar()
        let cookie = Cookie(name: "a", value: "1", domain: domain, isHostOnly: false, creation: testEpoch)
        #expect(jar.insert(cookie) == .stored(cookie))
    }

    @Test(arguments: insertRows)
    func insertRefusesCookiesNoLineCouldGive(_ row: InsertRow) {
        let (jar, _) = makeTestJar()
        func cookie(value: String, sourcePort: Int?) -> Cookie {
            Cookie(
                name: row.name, value: value, domain: row.domain, isHostOnly: row.isHostOnly, path: row.path,
                creation: testEpoch, isSecure: row.isSecure, sameSite: row.sameSite, partitionKey: row.partitionKey,
                sourcePort: sourcePort)
        }
        // A cookie of the same identity first, Secure (so that the attribute rules let it in where a cookie
        // of that identity may be at all): one no cookie may be (a CTL in its name) leaves the jar empty.
        var before = cookie(value: row.name.isEmpty ? "old" : "", sourcePort: 443)
        before.isSecure = true
        before.sameSite = .default
        let hadBefore = jar.insert(before).rejection == nil
        let cookie = cookie(value: row.value ?? String(repeating: "v", count: row.valueLength), sourcePort: row.sourcePort)
        let outcome = jar.insert(cookie)
        if let rejection = row.rejection {
            #expect(outcome == .rejected(rejection))
            #expect(jar.allCookies() == (hadBefore ? [before] : []), "the jar is as it was")
        } else {
            #expect(outcome == .replaced(cookie, previous: before))
            #expect(jar.allCookies() == [cookie], "stored as it is")
            #expect(jar.cookieHeader(for: url("https://\(row.domain)\(row.path)")) == (row.name.isEmpty ? "" : row.name + "=") + cookie.value)
        }
    }

    /// A `ParsedSetCookie` built from its parts is received as the line giving the same texts is (§5.6:
    /// the Domain read lower-cased, §5.6.3; a Path not starting with "/" is the default-path, §5.6.4).
    struct BuiltRow: CustomTestStringConvertible, Sendable {
        var domain: String?
        var path: String?
        var line: String
        var source: String
        var testDescription: String { source }
    }

    @Test(arguments: [
        BuiltRow(domain: "Example.COM", line: "up=1; Domain=Example.COM", source: "§5.6.3, then §5.7 step 10: the host domain-matches example.com"),
        BuiltRow(domain: ".example.com", line: "up=1; Domain=.example.com", source: "§5.6.3 removes the leading . servers write, then §5.7 step 10"),
        BuiltRow(path: "foo", line: "up=1; Path=foo", source: "§5.6.4, then §5.7 step 11: the default-path /dir"),
    ])
    func aBuiltCookieIsReceivedAsItsLineIs(_ row: BuiltRow) throws {
        let built = try ParsedSetCookie(name: "up", value: "1", domain: row.domain, path: row.path)
        let (builtJar, _) = makeTestJar()
        let (lineJar, _) = makeTestJar()
        let page = url("https://www.example.com/dir/page")
        let outcome = builtJar.setCookie(built, from: page)
        #expect(outcome.rejection == nil)
        #expect(outcome == lineJar.setCookie(row.line, from: page))
        #expect(builtJar.allCookies() == lineJar.allCookies())
    }

    /// A cookie inserted with a creation time in the future (made where the clock was ahead) leaves the
    /// cookies the jar makes after it in the present: their creation times are now, not that future plus
    /// a microsecond each (at `.max`, all equal).
    @Test(arguments: [CookieTime(secondsSinceEpoch: Int64(4_000_000_000)), CookieTime(microsecondsSinceEpoch: .max)])
    func aFutureCreationTimeDoesNotCarryOver(_ future: CookieTime) {
        let (jar, clock) = makeTestJar()
        #expect(jar.insert(Cookie(name: "ahead", value: "1", domain: "h.test", creation: future)).rejection == nil)
        jar.setCookie("a=1", from: url("https://h.test/"))
        clock.advance(seconds: 1)
        jar.setCookie("b=1", from: url("https://h.test/"))
        let times = Dictionary(uniqueKeysWithValues: jar.allCookies().map { ($0.name, $0.creation) })
        // The insertion counts as made now: the next cookie comes a microsecond after it.
        #expect(times["a"] == CookieTime(microsecondsSinceEpoch: testEpoch.microsecondsSinceEpoch + 1))
        #expect(times["b"] == testEpoch.adding(seconds: 1))
    }

    /// A site is named as a URL's host may be written: any case, Unicode or A-labels.
    @Test func sitesAreNamedAsHosts() {
        let (jar, _) = makeTestJar()
        jar.setCookie("a=1", from: url("https://www.xn--bcher-kva.test/"))
        #expect(jar.cookies(forSite: "BÜCHER.test").map(\.name) == ["a"])
        #expect(jar.cookies(forSite: "Xn--Bcher-Kva.TEST").map(\.name) == ["a"])
        #expect(jar.deleteCookies(forSite: "Bücher.Test") == 1)
        #expect(jar.count == 0)
    }
}
