/// An instant on the cookie clock: microseconds since 1970-01-01T00:00:00Z (UTC).
///
/// Microseconds keep creation times strictly increasing without drifting (rfc6265bis-22 §5.8.3 orders
/// cookies by creation time), and `Int64` spans every date the cookie-date algorithm accepts
/// (years 1601 through 9999, §5.1.1).
public struct CookieTime: Sendable, Hashable, Comparable, CustomStringConvertible, BitwiseCopyable {
    /// Microseconds since the Unix epoch.
    public var microsecondsSinceEpoch: Int64

    /// The instant `microsecondsSinceEpoch` microseconds after 1970-01-01T00:00:00Z (before it when negative).
    public init(microsecondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
    }

    /// The instant `seconds` after the Unix epoch (fractions below a microsecond are dropped); NaN, which
    /// names no instant, is the earliest one.
    public init(secondsSinceEpoch seconds: Double) {
        self.init(saturatingMicroseconds: (seconds * 1_000_000).rounded(.towardZero))
    }

    /// The instant `micros` (whole) microseconds after the Unix epoch, saturating at the representable
    /// range; NaN is the earliest instant.
    package init(saturatingMicroseconds micros: Double) {
        if micros.isNaN || micros <= Double(Int64.min) {
            self.microsecondsSinceEpoch = .min
        } else if micros >= Double(Int64.max) {
            self.microsecondsSinceEpoch = .max
        } else {
            self.microsecondsSinceEpoch = Int64(micros)
        }
    }

    /// The instant `seconds` whole seconds after the Unix epoch, saturating at the representable range.
    public init(secondsSinceEpoch seconds: Int64) {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        self.microsecondsSinceEpoch = overflow ? (seconds < 0 ? .min : .max) : product
    }

    /// Whole seconds since the Unix epoch (rounded toward negative infinity).
    public var secondsSinceEpoch: Int64 {
        let (quotient, remainder) = microsecondsSinceEpoch.quotientAndRemainder(dividingBy: 1_000_000)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// The earliest representable instant: what a Max-Age of zero or less sets (§5.6.2).
    public static let distantPast = CookieTime(microsecondsSinceEpoch: .min)

    /// This instant moved by `seconds`, saturating instead of overflowing.
    public func adding(seconds: Int64) -> CookieTime {
        let (delta, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return CookieTime(microsecondsSinceEpoch: seconds < 0 ? .min : .max) }
        let (sum, overflow2) = microsecondsSinceEpoch.addingReportingOverflow(delta)
        if overflow2 { return CookieTime(microsecondsSinceEpoch: delta < 0 ? .min : .max) }
        return CookieTime(microsecondsSinceEpoch: sum)
    }

    /// The UTC calendar date and time of this instant (proleptic Gregorian), clamped to the years
    /// 1601 through 9999 that cookie-dates can name (§5.1.1).
    public var utc: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let (date, second, _) = CookieDate.breakdown(secondsSinceEpoch)
        return (date.year, date.month, date.day, second / 3600, second / 60 % 60, second % 60)
    }

    public static func < (lhs: CookieTime, rhs: CookieTime) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    public var description: String {
        CookieDate.format(secondsSinceEpoch)
    }
}
