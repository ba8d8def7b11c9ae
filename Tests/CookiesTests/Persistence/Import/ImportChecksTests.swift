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

    /// `checkPair` lets through what §5.6 steps 1-5 let through, and refuses the rest with a reason.
    @Test(arguments: [
        ("a", "b", nil, "§5.6: a plain pair"),
        ("", "b", nil, "§5.6 step 3: a nameless cookie"),
        ("", "", "the cookie has neither a name nor a value", "§5.7 step 2"),
        ("a=b", "c", "the name holds a control character, \";\" or \"=\"", "§5.6 step 3: the name ends at the first ="),
        ("a", "b\u{7}", "the value holds a control character or \";\"", "§5.6 step 1"),
        ("a", String(repeating: "v", count: 4095), nil, "§5.6 step 5: 4,096 bytes"),
        ("a", String(repeating: "v", count: 4096), "name and value together exceed 4096 bytes", "§5.6 step 5: 4,097 bytes"),
    ] as [(String, String, String?, String)])
    func checkPairRefusesWhatSection5_6Refuses(name: String, value: String, detail: String?, source: String) {
        do {
            try ImportChecks.checkPair(name: name, value: value)
            #expect(detail == nil, "\(source)")
        } catch {
            #expect(error.code == .invalidCookie && error.detail == detail, "\(source)")
        }
    }
}
