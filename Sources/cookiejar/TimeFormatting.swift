import Cookies

/// Dates and durations for people: `2026-11-24 10:00:00 UTC`, `in 3 days`, `2 hours ago`.
enum TimeFormatting {
    /// `YYYY-MM-DD HH:MM:SS UTC`.
    static func date(_ time: CookieTime) -> String {
        let utc = time.utc
        return String(unsafeUninitializedCapacity: 23) { buffer in
            var offset = 0
            func put(_ value: Int, digits: Int, then separator: UInt8?) {
                var divisor = 1
                for _ in 1..<digits { divisor *= 10 }
                while divisor > 0 {
                    buffer[offset] = UInt8(ascii: "0") + UInt8(value / divisor % 10)
                    offset += 1
                    divisor /= 10
                }
                if let separator {
                    buffer[offset] = separator
                    offset += 1
                }
            }
            put(utc.year, digits: 4, then: UInt8(ascii: "-"))
            put(utc.month, digits: 2, then: UInt8(ascii: "-"))
            put(utc.day, digits: 2, then: UInt8(ascii: " "))
            put(utc.hour, digits: 2, then: UInt8(ascii: ":"))
            put(utc.minute, digits: 2, then: UInt8(ascii: ":"))
            put(utc.second, digits: 2, then: UInt8(ascii: " "))
            for byte in "UTC".utf8 {
                buffer[offset] = byte
                offset += 1
            }
            return offset
        }
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
