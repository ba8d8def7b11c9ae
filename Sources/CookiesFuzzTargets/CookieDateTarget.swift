@_spi(Fuzzing) import Cookies

extension FuzzTarget {
    /// The cookie-date algorithm (rfc6265bis-22 §5.1.1): any bytes give a date or none; a date lies in
    /// years 1601–9999 and its IMF-fixdate (RFC 9110 §5.6.7) parses back to the same instant.
    static let cookieDate = FuzzTarget(name: "cookie-date") { input throws(InvariantViolation) in
        let target = "cookie-date"
        guard let seconds = CookieDate.parse(input) else { return }
        // 1601-01-01T00:00:00Z and 9999-12-31T23:59:59Z (§5.1.1 step 5 refuses years before 1601).
        try require((-11_644_473_600...253_402_300_799).contains(seconds), target, "a date outside 1601–9999")
        var text = CookieDate.format(seconds)
        try require(text.utf8.count == 29, target, "the IMF-fixdate is not 29 octets")
        let again = text.withUTF8 { CookieDate.parse($0) }
        try require(again == seconds, target, "format → parse changes the date")
    }
}
