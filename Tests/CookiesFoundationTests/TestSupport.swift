import Cookies
import Foundation

/// The public suffix rules these tests need (publicsuffix.org format): "com" and "test" are suffixes.
let testPublicSuffixList = PublicSuffixRules(
    parsing: """
        // ===BEGIN ICANN DOMAINS===
        com
        test
        // ===END ICANN DOMAINS===
        """)

/// 2025-01-01T00:00:00Z, the fixed start of every test clock.
let testEpoch = CookieTime(secondsSinceEpoch: Int64(1_735_689_600))

/// A jar on the test list with a manual clock at `testEpoch`.
func makeTestJar() -> CookieJar {
    CookieJar(publicSuffixList: testPublicSuffixList, clock: ManualCookieClock(testEpoch))
}

/// Parses a URL known to be valid.
func url(_ text: String) -> CookieURL {
    guard let url = CookieURL(text) else { fatalError("test URL does not parse: \(text)") }
    return url
}

/// Parses a Foundation URL known to be valid.
func foundationURL(_ text: String) -> URL {
    guard let url = URL(string: text) else { fatalError("test URL does not parse: \(text)") }
    return url
}
