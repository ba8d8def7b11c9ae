import Testing
@testable import Cookies

/// Cross-site cookie injection through a Domain attribute naming a public suffix (rfc6265bis-22 §5.7 step 9): the
/// default jar refuses it on every platform, with whichever list it chose. Facts: "co.uk" (ICANN section) and
/// "github.io" (PRIVATE section) are public suffixes of the list; before the list was compiled in, a platform without
/// libpsl and without a list file fell back to the "*" rule alone and stored both cookies for the whole suffix.
struct PublicSuffixSecurityTests {
    @Test(arguments: [
        ("https://evil.co.uk/", "sid=1; Domain=co.uk", "https://victim.co.uk/"),
        ("https://evil.github.io/", "sid=1; Domain=github.io", "https://victim.github.io/"),
        (
            "https://a.b.compute.amazonaws.com/", "sid=1; Domain=b.compute.amazonaws.com",
            "https://c.b.compute.amazonaws.com/"
        ),
        // A name with an empty label (WHATWG URL hosts may have one) is no name the list places: its Domain
        // attribute counts as a public suffix, as "com" would (it was stored for every "*.com.." host).
        ("https://evil.com../", "sid=1; Domain=com..", "https://victim.com../"),
    ])
    func domainAttributeNamingAPublicSuffixIsRejected(from: String, line: String, victim: String) throws {
        for jar in [CookieJar(), CookieJar(publicSuffixList: CompiledPublicSuffixList.shared)] {
            let outcome = jar.setCookie(line, from: try #require(CookieURL(from)))
            guard case .rejected(let reason) = outcome else {
                Issue.record("stored: \(outcome)")
                continue
            }
            #expect(reason == .domainIsPublicSuffix)
            #expect(jar.cookieHeader(for: try #require(CookieURL(victim))) == nil)
        }
        let received = CookieJar()
        received.receive([line], from: try #require(CookieURL(from)))
        #expect(received.cookieHeader(for: try #require(CookieURL(victim))) == nil)
        #expect(received.allCookies().isEmpty)
    }
}
