/// The lifetime attributes' values read alone, as §5.6 reads them in a line: for a cookie whose attributes
/// some other parser kept as texts (Foundation's `HTTPCookie` keeps its `Max-Age` and `Expires`).
extension ParsedSetCookie {
    /// §5.6.2: the seconds of the Max-Age attribute-value `value`, its leading and trailing WSP trimmed
    /// (§5.6 attribute step 5): an optional "-" followed by DIGITs, saturating beyond Int64; nil for any
    /// other value, which the algorithm ignores.
    package static func maxAge(parsing value: String) -> Int64? {
        var value = value
        return value.withUTF8 { bytes in
            let trimmed = LinePart(trimmingCookieWhitespaceFrom: 0, to: bytes.count, of: bytes)
            return CookieParts.maxAgeSeconds(UnsafeBufferPointer(rebasing: bytes[trimmed.start..<trimmed.end]))
        }
    }

    /// §5.6.1: the expiry-time of the Expires attribute-value `value` (the cookie-date of §5.1.1), in
    /// seconds since the Unix epoch; nil when that algorithm fails, which ignores the attribute.
    package static func expires(parsing value: String) -> Int64? {
        CookieDate.parse(value)
    }
}
