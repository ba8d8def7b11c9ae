/// What reading a cookie file gave: its format, the cookies in file order, and in lenient mode the
/// entries that were skipped, each with its position and reason.
public struct CookieFileContents: Sendable, Hashable {
    /// The format the file was read as (sniffed from its content).
    public var format: CookieFileFormat
    /// The cookies, in file order; expired ones included (the jar drops them on `insert`).
    public var cookies: [Cookie]
    /// The entries left out in lenient mode; always empty in strict mode, which throws at the first one.
    public var skipped: [CookieFileError]

    /// The contents of a file of `format`: its `cookies`, and the entries `skipped` in lenient mode.
    public init(format: CookieFileFormat, cookies: [Cookie], skipped: [CookieFileError] = []) {
        self.format = format
        self.cookies = cookies
        self.skipped = skipped
    }
}
