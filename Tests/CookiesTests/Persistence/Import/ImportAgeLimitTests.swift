import Testing

@testable import Cookies

/// Cookies imported from a file are held to the cookie-age-limit as received ones are. rfc6265bis-22
/// §5.5: "When processing cookies with a specified lifetime, either with the Expires or with the Max-Age
/// attribute, the user agent MUST limit the maximum age of the cookie. The limit SHOULD NOT be greater
/// than 400 days (34560000 seconds) in the future. [...] Expires or Max-Age attributes that specify a
/// lifetime longer than the limit MUST be reduced to the limit." A cookies.txt line expiring at
/// 99999999999 was kept as expiring in 5138.
struct ImportAgeLimitTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var limits: CookieLimits = .default
        var cookie: Cookie
        /// The expiry the jar holds after the import; nil for a session cookie.
        var expiry: CookieTime?
        var capped: Bool
    }

    /// The default limit: 400 days after the jar's clock (`testEpoch`).
    static let limit = testEpoch.adding(seconds: 400 * 24 * 60 * 60)

    static func cookie(expiry: CookieTime?, isSecure: Bool = false, sameSite: SameSite = .default) -> Cookie {
        Cookie(name: "a", value: "1", domain: "a.com", expiry: expiry, creation: testEpoch, isSecure: isSecure, sameSite: sameSite)
    }

    static let cases: [Case] = [
        Case(
            testDescription: "expiring in 5138 (a cookies.txt expiry of 99999999999): at the limit",
            cookie: cookie(expiry: CookieTime(secondsSinceEpoch: Int64(99_999_999_999))), expiry: limit, capped: true),
        Case(
            testDescription: "a second beyond the limit: at the limit",
            cookie: cookie(expiry: limit.adding(seconds: 1)), expiry: limit, capped: true),
        Case(
            testDescription: "at the limit itself: kept", cookie: cookie(expiry: limit), expiry: limit, capped: false),
        Case(
            testDescription: "a second within the limit: kept",
            cookie: cookie(expiry: limit.adding(seconds: -1)), expiry: limit.adding(seconds: -1), capped: false),
        Case(testDescription: "a session cookie: stays one", cookie: cookie(expiry: nil), expiry: nil, capped: false),
        Case(
            testDescription: "the jar's own limit (CookieLimits.maxAgeSeconds, a day): two days are cut to one",
            limits: CookieLimits(maxAgeSeconds: 86_400), cookie: cookie(expiry: testEpoch.adding(seconds: 2 * 86_400)),
            expiry: testEpoch.adding(seconds: 86_400), capped: true),
    ]

    @Test(arguments: cases)
    func anExpiryBeyondTheAgeLimitIsBroughtToIt(_ row: Case) {
        let (jar, _) = makeTestJar(limits: row.limits)
        let report = jar.insert(contentsOf: [row.cookie])
        #expect(report.stored == 1)
        #expect(report.capped == (row.capped ? 1 : 0))
        #expect(jar.allCookies().map(\.expiry) == [row.expiry])
    }

    /// The count covers the cookies stored: a refused one (SameSite=None without Secure, §5.7 step 19) is
    /// counted as refused only, whatever its expiry.
    @Test func capsAreCountedForStoredCookiesOnly() {
        let (jar, _) = makeTestJar()
        let far = CookieTime(secondsSinceEpoch: Int64(99_999_999_999))
        let cookies = [
            Cookie(name: "a", value: "1", domain: "a.com", expiry: far, creation: testEpoch),
            Cookie(name: "b", value: "1", domain: "a.com", expiry: far, creation: testEpoch),
            Cookie(name: "c", value: "1", domain: "a.com", expiry: Self.limit, creation: testEpoch),
            Cookie(name: "d", value: "1", domain: "a.com", expiry: far, creation: testEpoch, sameSite: .none),
        ]
        let report = jar.insert(contentsOf: cookies)
        #expect(report == CookieInsertionReport(stored: 3, capped: 2, expired: 0, rejections: [.sameSiteNoneWithoutSecure: 1], evictions: []))
    }

    /// `insert(_:)` of one cookie, the app's own (the web view sync hands a jar the cookies a web view
    /// holds), stores its expiry as it is: the cap is the file import's.
    @Test func insertingOneCookieKeepsItsExpiry() {
        let (jar, _) = makeTestJar()
        let far = CookieTime(secondsSinceEpoch: Int64(99_999_999_999))
        jar.insert(Self.cookie(expiry: far))
        #expect(jar.allCookies().map(\.expiry) == [far])
    }
}
