import ArgumentParser
import Cookies

/// The value of `--at`: an instant in Unix seconds (fractions allowed) within the years 1 to 9999, the
/// years the tool writes dates in. Anything else ("nan", "inf", 1e20) is a usage error, not an instant.
struct InstantArgument: ExpressibleByArgument {
    let time: CookieTime

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in Unix seconds.
    static let earliest = -62_135_596_800.0
    static let latest = 253_402_300_799.0

    init?(argument: String) {
        guard let seconds = Double(argument), seconds.isFinite, (Self.earliest...Self.latest).contains(seconds) else {
            return nil
        }
        time = CookieTime(secondsSinceEpoch: seconds)
    }
}
