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
}
