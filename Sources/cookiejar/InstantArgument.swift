import ArgumentParser
import Cookies

/// The value of `--at`: an instant in Unix seconds (fractions allowed) whose date, and that of a cookie
/// expiring up to 400 days later (the cookie-age-limit of rfc6265bis-22 §5.5), the tool writes as it is:
/// `CookieTime.utc` holds dates to the years 1601 through 9999, the years of a cookie-date (§5.1.1).
/// Anything else ("nan", "inf", 1e20, a year before 1601) is a usage error, not an instant.
struct InstantArgument: ExpressibleByArgument {
    let time: CookieTime

    /// 1601-01-01T00:00:00Z, in Unix seconds.
    static let earliest: Int64 = -11_644_473_600
    /// 9999-12-31T23:59:59Z less the cookie-age-limit (400 days): 9998-11-26T23:59:59Z, in Unix seconds.
    static let latest: Int64 = 253_402_300_799 - CookieLimits.default.maxAgeSeconds

    init?(argument: String) {
        guard let seconds = Double(argument), let time = Self.time(seconds) else { return nil }
        self.time = time
    }

    /// The instant `seconds` Unix seconds, when it is one the tool takes (from `earliest` to `latest`).
    static func time(_ seconds: Double) -> CookieTime? {
        guard seconds.isFinite, (Double(earliest)...Double(latest)).contains(seconds) else { return nil }
        return CookieTime(secondsSinceEpoch: seconds)
    }

    /// The help of an `--at` option: `use` (what the instant is for), then the instants taken, which a
    /// usage error repeats. ArgumentParser reads "-1" after `--at` as an option, not its value.
    static func help(_ use: String) -> ArgumentHelp {
        func day(_ seconds: Int64) -> String {
            String(TimeFormatting.date(CookieTime(secondsSinceEpoch: seconds)).prefix(10))
        }
        return ArgumentHelp(
            "\(use) Unix seconds from \(earliest) (\(day(earliest))) to \(latest) (\(day(latest))); a negative one is written --at=-1.")
    }
}
