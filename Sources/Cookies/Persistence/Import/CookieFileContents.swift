/// What reading a cookie file gave: its format, the cookies in file order, in lenient mode the entries
/// that were skipped, each with its position and reason, and the cookies left out as another jar's or of
/// partitions a jar has none of.
public struct CookieFileContents: Sendable, Hashable {
    /// Cookies left out, in either mode: how many, and why. Of a file read, cookies well formed but not the
    /// jar's the file is read as (`leftOut`); of a file written, cookies the format cannot hold
    /// (`CookiesTxt.serialize`: partitioned cookies).
    public struct LeftOut: Sendable, Hashable, CustomStringConvertible {
        /// How many cookies were left out for `reason`.
        public var count: Int
        /// Why, in a phrase ("of a Firefox container (originAttributes userContextId)").
        public var reason: String

        public init(count: Int, reason: String) {
            self.count = count
            self.reason = reason
        }

        public var description: String { "\(count) cookie\(count == 1 ? "" : "s") left out, \(reason)" }
    }

    /// The format the file was read as (sniffed from its content).
    public var format: CookieFileFormat
    /// The cookies, in file order; expired ones included (the jar drops them on `insert`).
    public var cookies: [Cookie]
    /// The entries left out in lenient mode; always empty in strict mode, which throws at the first one.
    public var skipped: [CookieFileError]
    /// The cookies left out, by reason: another jar's (Firefox's containers and private windows), or of
    /// partitions a jar has none of (Firefox's Total Cookie Protection, partitions under a site with a port
    /// or a cross-site ancestor: `FirefoxCookies`); empty for the formats that hold one jar and CHIPS
    /// partitions alone.
    public var leftOut: [LeftOut]

    /// The contents of a file of `format`: its `cookies`, the entries `skipped` in lenient mode, and the
    /// cookies `leftOut`, by reason.
    public init(format: CookieFileFormat, cookies: [Cookie], skipped: [CookieFileError] = [], leftOut: [LeftOut] = []) {
        self.format = format
        self.cookies = cookies
        self.skipped = skipped
        self.leftOut = leftOut
    }
}
