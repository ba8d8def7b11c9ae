import Cookies

/// Dates and durations for people: `2026-11-24 10:00:00 UTC`, `in 3 days`, `2 hours ago`.
enum TimeFormatting {
    /// `YYYY-MM-DD HH:MM:SS UTC`.
    static func date(_ time: CookieTime) -> String {
        var out = OutputText()
        appendDate(time, to: &out)
        return out.string
    }

    /// Appends `YYYY-MM-DD HH:MM:SS UTC`, or only `YYYY-MM-DD HH:MM` when not `withSeconds`.
    static func appendDate(_ time: CookieTime, withSeconds: Bool = true, to out: inout OutputText) {
        let utc = time.utc
        /// A separator, then two digits.
        func field(_ separator: UInt8, _ value: Int) {
            out.append(separator)
            out.appendTwoDigits(value)
        }
        out.appendTwoDigits(utc.year / 100)
        out.appendTwoDigits(utc.year % 100)
        field(UInt8(ascii: "-"), utc.month)
        field(UInt8(ascii: "-"), utc.day)
        field(UInt8(ascii: " "), utc.hour)
        field(UInt8(ascii: ":"), utc.minute)
        guard withSeconds else { return }
        field(UInt8(ascii: ":"), utc.second)
        out.append(" UTC")
    }

    /// How far `time` is from `now`: "in 3 days", "5 minutes ago", "now".
    static func relative(_ time: CookieTime, now: CookieTime) -> String {
        var out = OutputText()
        appendRelative(time, now: now, to: &out)
        return out.string
    }

    static func appendRelative(_ time: CookieTime, now: CookieTime, to out: inout OutputText) {
        let delta = time.secondsSinceEpoch - now.secondsSinceEpoch
        let magnitude = delta.magnitude
        let (count, unit): (UInt64, StaticString)
        switch magnitude {
        case 0..<1: return out.append("now")
        case 1..<60: (count, unit) = (magnitude, "second")
        case 60..<3600: (count, unit) = (magnitude / 60, "minute")
        case 3600..<86_400: (count, unit) = (magnitude / 3600, "hour")
        case 86_400..<(86_400 * 60): (count, unit) = (magnitude / 86_400, "day")
        case (86_400 * 60)..<(86_400 * 730): (count, unit) = (magnitude / (86_400 * 30), "month")
        default: (count, unit) = (magnitude / (86_400 * 365), "year")
        }
        if delta > 0 { out.append("in ") }
        out.appendDecimal(count)
        out.append(UInt8(ascii: " "))
        out.append(unit)
        if count != 1 { out.append(UInt8(ascii: "s")) }
        if delta < 0 { out.append(" ago") }
    }
}

/// The clock a command runs on: the wall clock, or a fixed instant given with `--at`.
func clock(at instant: InstantArgument?) -> any CookieClock {
    guard let instant else { return SystemCookieClock() }
    return ManualCookieClock(instant.time)
}
