import Cookies

/// Dates and durations for people: `2026-11-24 10:00:00 UTC`, `in 3 days`, `2 hours ago`.
enum TimeFormatting {
    /// `YYYY-MM-DD HH:MM:SS UTC` (proleptic Gregorian, any year).
    static func date(_ time: CookieTime) -> String {
        let seconds = time.secondsSinceEpoch
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (H. Hinnant's days_from_civil inverse).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) UTC"
    }

    /// How far `time` is from `now`: "in 3 days", "5 minutes ago", "now".
    static func relative(_ time: CookieTime, now: CookieTime) -> String {
        let delta = time.secondsSinceEpoch - now.secondsSinceEpoch
        let magnitude = delta.magnitude
        let text: String
        switch magnitude {
        case 0..<1: return "now"
        case 1..<60: text = plural(magnitude, "second")
        case 60..<3600: text = plural(magnitude / 60, "minute")
        case 3600..<86_400: text = plural(magnitude / 3600, "hour")
        case 86_400..<(86_400 * 365): text = plural(magnitude / 86_400, "day")
        default: text = plural(magnitude / (86_400 * 365), "year")
        }
        return delta > 0 ? "in " + text : text + " ago"
    }

    private static func plural(_ count: UInt64, _ unit: String) -> String {
        count == 1 ? "1 \(unit)" : "\(count) \(unit)s"
    }
}

/// The clock a command runs on: the wall clock, or a fixed instant given with `--at`.
func clock(at seconds: Double?) -> any CookieClock {
    guard let seconds else { return SystemCookieClock() }
    return ManualCookieClock(CookieTime(secondsSinceEpoch: seconds))
}
