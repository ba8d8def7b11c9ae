import Cookies
import Foundation
import Testing

@testable import CookiesFoundation

@Suite("CookieTime ⇄ Date")
struct CookieTimeDateTests {
    /// `Date` is a Double of seconds since 2001: within about 70 years of 2001 it keeps every
    /// microsecond (1970, 2025 and 2060 here).
    @Test(arguments: [Int64(0), -1, 1_735_689_600_123_457, 2_840_140_800_999_999])
    func roundTrip(_ micros: Int64) {
        let time = CookieTime(microsecondsSinceEpoch: micros)
        #expect(CookieTime(Date(time)) == time)
    }

    /// At the ends of the cookie-date range (rfc6265bis-22 §5.1.1: years 1601 and 9999) a Double step is
    /// a few dozen microseconds: the round trip stays within 64.
    @Test(arguments: [Int64(-11_644_473_600_000_001), 253_402_300_799_999_999])
    func farRoundTrip(_ micros: Int64) {
        let back = CookieTime(Date(CookieTime(microsecondsSinceEpoch: micros))).microsecondsSinceEpoch
        #expect(abs(back - micros) <= 64)
    }

    /// Out of range, infinite or NaN (no instant at all: the earliest), never a trap; the same for a
    /// Double of seconds.
    @Test("dates beyond CookieTime saturate")
    func saturates() {
        #expect(CookieTime(Date(timeIntervalSince1970: 1e300)) == CookieTime(microsecondsSinceEpoch: .max))
        #expect(CookieTime(Date(timeIntervalSince1970: -1e300)) == CookieTime(microsecondsSinceEpoch: .min))
        #expect(CookieTime(Date(timeIntervalSince1970: .infinity)) == CookieTime(microsecondsSinceEpoch: .max))
        #expect(CookieTime(Date(timeIntervalSince1970: .nan)) == CookieTime(microsecondsSinceEpoch: .min))
        #expect(CookieTime(Date(CookieTime.distantPast)) == CookieTime.distantPast)
        #expect(CookieTime(secondsSinceEpoch: Double.nan) == CookieTime(microsecondsSinceEpoch: .min))
        #expect(CookieTime(secondsSinceEpoch: -Double.infinity) == CookieTime(microsecondsSinceEpoch: .min))
        #expect(CookieTime(secondsSinceEpoch: 1.5) == CookieTime(microsecondsSinceEpoch: 1_500_000))
    }
}
