import Cookies
import Foundation

/// A cookie time from a Foundation date.
extension CookieTime {
    /// The instant of `date`, to the nearest microsecond; dates beyond the range of `CookieTime` (about
    /// 292,000 years either side of 1970) saturate, and a NaN interval is the earliest instant.
    public init(_ date: Date) {
        self.init(saturatingMicroseconds: (date.timeIntervalSince1970 * 1_000_000).rounded())
    }
}

/// A Foundation date from a cookie time.
extension Date {
    /// The instant `time`. `Date` holds a Double of seconds since 2001, so the microsecond survives
    /// `CookieTime(Date(time))` within about 70 years of 2001; at the ends of the cookie-date range
    /// (years 1601 and 9999) the step is a few dozen microseconds.
    public init(_ time: CookieTime) {
        self.init(timeIntervalSince1970: Double(time.microsecondsSinceEpoch) / 1_000_000)
    }
}
