@testable import Cookies

/// A small public suffix list written for these tests, in the format of publicsuffix.org's file: an
/// ICANN part (com, org, test, co.uk, the "*.ck" wildcard with its "!www.ck" exception) and a private part
/// (github.io). The "*" default rule makes every other single label a suffix too.
let testPublicSuffixList = PublicSuffixRules(
    parsing: """
        // ===BEGIN ICANN DOMAINS===
        com
        org
        net
        test
        example
        uk
        co.uk
        *.ck
        !www.ck
        // ===END ICANN DOMAINS===
        // ===BEGIN PRIVATE DOMAINS===
        github.io
        // ===END PRIVATE DOMAINS===
        """)

/// 2025-01-01T00:00:00Z, the fixed start of every test clock.
let testEpoch = CookieTime(secondsSinceEpoch: Int64(1_735_689_600))

/// A jar on the test list with a manual clock at `testEpoch`.
func makeTestJar(limits: CookieLimits = .default) -> (CookieJar, ManualCookieClock) {
    let clock = ManualCookieClock(testEpoch)
    return (CookieJar(publicSuffixList: testPublicSuffixList, limits: limits, clock: clock), clock)
}

/// Parses a URL known to be valid.
func url(_ text: String) -> CookieURL {
    guard let url = CookieURL(text) else { fatalError("test URL does not parse: \(text)") }
    return url
}
