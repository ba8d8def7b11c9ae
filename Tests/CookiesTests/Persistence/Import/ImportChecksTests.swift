import Testing
@testable import Cookies

/// The fast path of `ImportChecks.canonicalDomain` must agree with `CanonicalHost` (the §5.1.2
/// canonicalisation) on every input it takes; hosts chosen at the edges of the WHATWG "ends in a number"
/// rule and of IDNA. Names with an empty label other than a final one ("a..b", ".a") are refused: no
/// cookie domain has one, and cookies.txt would read a leading dot back as a domain cookie.
struct ImportChecksTests {
    static let hosts = [
        "example.com", "www.example.com", "a-b.example", "example.com.", "example.cafe", "example.0x1f",
        "1.2.3.4", "1.2.3.0x4", "0x7f.1", "example.123", "123.example", "a.b-", "-a.example", "xn--bcher-kva.example",
        "Example.COM", "bücher.example", "exa mple.com", "a..b", ".a", "a", "localhost", "[::1]", "::1", "",
        "a.b.c.d.e.f.g", "0xg.example", "example.0xg", "example.de", "example.fe", "example.0x", "example.9a",
        "example.0x1fg", "a.0", "example.x1",
    ]

    @Test(arguments: hosts)
    func fastPathAgreesWithCanonicalHost(host: String) {
        let hasEmptyLabel = host.hasPrefix(".") || host.contains("..")
        let canonical = hasEmptyLabel ? nil : CanonicalHost(host)?.name
        if !hasEmptyLabel, host.withUTF8Bytes(CanonicalHost.isCanonicalDomainName) {
            #expect(canonical == host)
        }
        #expect((try? ImportChecks.canonicalDomain(host)) == canonical)
    }

    /// `checkPair` lets through what §5.6 steps 1-5 let through, and refuses the rest with the reason a
    /// jar gives for it (`CookieTextRules.pairRejection`, as `CookieJar.insert(_:)` refuses them).
    @Test(arguments: [
        ("a", "b", nil, "§5.6: a plain pair"),
        ("", "b", nil, "§5.6 step 3: a nameless cookie"),
        ("a", "b=c", nil, "§5.6 step 3: the value runs past a second ="),
        ("", "", .emptyNameAndValue, "§5.7 step 2"),
        ("a=b", "c", .separatorCharacter, "§5.6 step 3: the name ends at the first ="),
        ("a;b", "c", .separatorCharacter, "§5.6 step 2: the pair ends at the first ;"),
        ("a", "b; c=d", .separatorCharacter, "§5.6 step 2: the pair ends at the first ;"),
        ("a", "b\u{7}", .controlCharacter, "§5.6 step 1"),
        ("a\u{7F}", "b", .controlCharacter, "§5.6 step 1: DEL is a CTL (RFC 5234 B.1)"),
        ("a\tb", "c\td", nil, "§5.6 step 1: HTAB is the one CTL a line may hold"),
        ("a\t;", "c", .separatorCharacter, "§5.6 steps 1-2: HTAB passes, \";\" ends the pair"),
        ("é", "ü", nil, "§5.6: any other octet"),
        ("a ", "b", .whitespaceAtEnds, "§5.6 step 4: WSP at the ends of the name goes"),
        ("a", "\tb", .whitespaceAtEnds, "§5.6 step 4: WSP at the ends of the value goes"),
        ("a b", "c d", nil, "§5.6 step 4: only the ends; WSP inside stays"),
        ("a", " ", .whitespaceAtEnds, "§5.6 step 4: a value of WSP alone is an empty one"),
        ("a", String(repeating: "v", count: 4095), nil, "§5.6 step 5: 4,096 bytes"),
        ("a", String(repeating: "v", count: 4096), .nameAndValueTooLong, "§5.6 step 5: 4,097 bytes"),
    ] as [(String, String, CookieRejection?, String)])
    func checkPairRefusesWhatSection5_6Refuses(name: String, value: String, rejection: CookieRejection?, source: String) {
        do {
            try ImportChecks.checkPair(name: name, value: value)
            #expect(rejection == nil, "\(source)")
        } catch {
            #expect(error.code == .invalidCookie && error.detail == rejection?.explanation, "\(source)")
        }
    }

    /// `CookieTextRules.pairCheck` tells whether a pair it lets through is ASCII (the flag a stored pair
    /// keeps), by its one pass over the bytes or, for a text holding HTAB, by a second.
    @Test(arguments: [
        ("a", "b", true), ("a", "é", false), ("é", "b", false), ("a", "b\tc", true), ("a\tb", "é", false),
        ("", String(repeating: "v", count: 19), true), ("", String(repeating: "v", count: 18) + "é", false),
    ])
    func pairCheckTellsWhetherAPairIsASCII(name: String, value: String, isASCII: Bool) {
        let check = name.withUTF8Bytes { name in value.withUTF8Bytes { CookieTextRules.pairCheck(name: name, value: $0) } }
        #expect(check.rejection == nil && check.isASCII == isASCII)
    }

    /// `checkPath` lets through every cookie-path §5.7 step 11 can give: a Path attribute starting with "/"
    /// (§5.6.4) or a default-path (§5.1.4), which is the request path's up to its last "/", ";" included.
    @Test(arguments: [
        ("/", true, "§5.1.4: the default-path of a path without a second /"),
        ("/a;b", true, "§5.1.4: the default-path of https://h.example/a;b/c"),
        ("", false, "§5.7 step 11: no cookie-path is empty"),
        ("a/b", false, "§5.6.4: a Path attribute without a leading / is the default-path, which has one"),
        ("/a\u{0}", false, "§5.6 step 1: no CTL"),
    ] as [(String, Bool, String)])
    func checkPathLetsThroughEveryCookiePath(path: String, isValid: Bool, source: String) {
        #expect(((try? ImportChecks.checkPath(path)) != nil) == isValid, "\(source)")
    }
}
