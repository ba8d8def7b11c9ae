import Cookies

/// Dates and durations for people: `2026-11-24 10:00:00 UTC`, `in 3 days`, `2 hours ago`.
enum TimeFormatting {
    /// `YYYY-MM-DD HH:MM:SS UTC`.
    static func date(_ time: CookieTime) -> String {
        let utc = time.utc
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(utc.year)-\(two(utc.month))-\(two(utc.day)) \(two(utc.hour)):\(two(utc.minute)):\(two(utc.second)) UTC"
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
        case 86_400..<(86_400 * 60): text = plural(magnitude / 86_400, "day")
        case (86_400 * 60)..<(86_400 * 730): text = plural(magnitude / (86_400 * 30), "month")
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
