import Cookies

/// The bounds every parsed or stored cookie keeps: no CTL other than HTAB (rfc6265bis-22 §5.6 step 1),
/// name plus value within 4096 octets (§5.6 step 5), Domain and Path values within 1024 octets (§5.6
/// cookie-av step 6).
enum CookieTextBounds {
    /// %x00-08 / %x0A-1F / %x7F (§5.6 step 1).
    static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    static func check(
        name: String, value: String, domain: String?, path: String?, in target: String
    ) throws(InvariantViolation) {
        for (field, text) in [("name", name), ("value", value), ("domain", domain ?? ""), ("path", path ?? "")] {
            try require(!text.utf8.contains(where: isForbiddenControl), target, "the \(field) holds a control character")
        }
        try require(
            name.utf8.count + value.utf8.count <= ParsedSetCookie.Limits.maxNameValueBytes, target,
            "name and value exceed 4096 octets")
        try require(
            (domain ?? "").utf8.count <= ParsedSetCookie.Limits.maxAttributeValueBytes, target,
            "the domain exceeds 1024 octets")
        try require(
            (path ?? "").utf8.count <= ParsedSetCookie.Limits.maxAttributeValueBytes, target,
            "the path exceeds 1024 octets")
    }
}
