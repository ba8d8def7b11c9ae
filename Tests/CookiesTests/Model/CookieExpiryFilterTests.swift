import Testing

@testable import Cookies

/// `unexpired(at:)` and `expired(at:)` (Sequence+CookieExpiry.swift): a cookie whose expiry-time is in the
/// past is evicted (§5.7, "expired cookies"), one whose expiry equals now included (`Cookie.isExpired`);
/// a session cookie never expires by time (§5.7 step 6, no expiry-time).
struct CookieExpiryFilterTests {
    static let now = testEpoch

    static let cookies: [Cookie] = [
        Cookie(name: "past", value: "1", domain: "example.com", expiry: now.adding(seconds: -1), creation: testEpoch),
        Cookie(name: "session", value: "1", domain: "example.com", creation: testEpoch),
        Cookie(name: "now", value: "1", domain: "example.com", expiry: now, creation: testEpoch),
        Cookie(name: "future", value: "1", domain: "example.com", expiry: now.adding(seconds: 1), creation: testEpoch),
        Cookie(name: "past2", value: "1", domain: "example.org", expiry: now.adding(seconds: -86_400), creation: testEpoch),
    ]

    @Test func unexpiredKeepsSessionAndFutureCookiesInOrder() {
        #expect(Self.cookies.unexpired(at: Self.now).map(\.name) == ["session", "future"])
    }

    @Test func expiredKeepsPastCookiesAndThoseExpiringNowInOrder() {
        #expect(Self.cookies.expired(at: Self.now).map(\.name) == ["past", "now", "past2"])
    }

    /// The two filters split any sequence: each cookie is in exactly one of them, at every instant.
    @Test(arguments: [-86_401, -86_400, -1, 0, 1, 86_400] as [Int64])
    func theTwoFiltersPartition(_ offset: Int64) {
        let now = Self.now.adding(seconds: offset)
        let unexpired = Self.cookies.unexpired(at: now)
        let expired = Self.cookies.expired(at: now)
        #expect(unexpired.count + expired.count == Self.cookies.count)
        #expect(Set(unexpired).isDisjoint(with: expired))
        #expect(unexpired.allSatisfy { !$0.isExpired(at: now) } && expired.allSatisfy { $0.isExpired(at: now) })
    }

    /// What a jar keeps of them: exactly `unexpired(at:)`.
    @Test func aJarKeepsTheUnexpiredOnes() {
        let (jar, _) = makeTestJar()
        jar.insert(contentsOf: Self.cookies)
        #expect(Set(jar.allCookies()) == Set(Self.cookies.unexpired(at: Self.now)))
    }
}
