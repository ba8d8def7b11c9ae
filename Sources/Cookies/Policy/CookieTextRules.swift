/// The rules of rfc6265bis-22 §5.6 on a cookie's texts, for texts given as they are instead of read out
/// of a `Set-Cookie` line: a cookie built from its parts (`ParsedSetCookie(name:value:…)`), one handed to
/// a jar (`CookieJar.insert(_:)`) and one read from a file (`ImportChecks`). Parsing meets them on the
/// way (`CookieParts.parse`): a text that breaks one is one no line could give, and one that a `Cookie`
/// header would carry as something else (a ";" in a value as a pair of its own, a CR LF as a header
/// field).
enum CookieTextRules {
    /// Why no `Set-Cookie` line could give a cookie the name `name` and the value `value` (UTF-8), or nil
    /// when one could: a CTL other than HTAB in either (§5.6 step 1), a ";" in either, where the
    /// name-value-pair ends (step 2), an "=" in the name, where it ends (step 3), neither a name nor a
    /// value (§5.7 step 2), WSP at the ends of either, which step 4 removes (a caller taking texts as a
    /// line gives them trims them first), or more than 4096 octets together (§5.6 step 5).
    static func pairRejection(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> CookieRejection? {
        pairCheck(name: name, value: value).rejection
    }

    /// `pairRejection`, and whether the name and value are ASCII: one pass over each for every byte that
    /// may break a rule (HTAB too, which breaks none) and for their ASCII-ness; which rule is broken is
    /// worked out only for a text that has such a byte.
    @inline(__always)
    static func pairCheck(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> (rejection: CookieRejection?, isASCII: Bool) {
        let nameScan = name.isUnmarked(by: \.setCookieStops)
        let valueScan = value.isUnmarked(by: \.setCookieValueStops)
        var isASCII = nameScan.isASCII && valueScan.isASCII
        if !(nameScan.isUnmarked && valueScan.isUnmarked) {
            if name.containsForbiddenControl || value.containsForbiddenControl { return (.controlCharacter, false) }
            if name.containsByte(UInt8(ascii: ";")) || name.containsByte(UInt8(ascii: "=")) || value.containsByte(UInt8(ascii: ";")) {
                return (.separatorCharacter, false)
            }
            isASCII = name.isASCII && value.isASCII
        }
        if name.isEmpty && value.isEmpty { return (.emptyNameAndValue, isASCII) }
        if hasWhitespaceAtEnds(name) || hasWhitespaceAtEnds(value) { return (.whitespaceAtEnds, isASCII) }
        if !ParsedSetCookie.Limits.nameAndValueFit(nameBytes: name.count, valueBytes: value.count) { return (.nameAndValueTooLong, isASCII) }
        return (nil, isASCII)
    }

    /// True when `text` starts or ends with WSP (SP or HTAB, §5.6 step 4).
    @inline(__always)
    private static func hasWhitespaceAtEnds(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = text.first, let last = text.last else { return false }
        return first == UInt8(ascii: " ") || first == 0x09 || last == UInt8(ascii: " ") || last == 0x09
    }

    /// `pairRejection` of two strings' UTF-8.
    static func pairRejection(name: String, value: String) -> CookieRejection? {
        name.withUTF8Bytes { name in value.withUTF8Bytes { value in pairRejection(name: name, value: value) } }
    }

    /// Why no cookie-av could give the attribute value `text` (UTF-8, a Domain or a Path), or nil when one
    /// could as far as its bytes go: a CTL other than HTAB (§5.6 step 1), or a ";", where the cookie-av
    /// ends (§5.6 cookie-av step 1).
    static func attributeRejection(_ text: UnsafeBufferPointer<UInt8>) -> CookieRejection? {
        guard text.firstIndex(markedBy: \.setCookieValueStops) != nil else { return nil }
        if text.containsForbiddenControl { return .controlCharacter }
        return text.containsByte(UInt8(ascii: ";")) ? .separatorCharacter : nil
    }

    /// Why no `Set-Cookie` line could give a cookie the cookie-path `path`, or nil when one could: §5.7
    /// step 11 takes a Path attribute that starts with "/" (§5.6.4) or the default-path (§5.1.4), which
    /// does too, so a path that does not is refused, and one with a CTL other than HTAB (§5.6 step 1; a
    /// request path has none either). A ";" is let through, and any length: a default-path is the request
    /// path's, which may hold them ("/a;b" from `https://h.example/a;b/c`).
    static func pathRejection(_ path: String) -> CookieRejection? {
        path.withUTF8Bytes(pathRejection)
    }

    /// `pathRejection` of a path's UTF-8.
    static func pathRejection(_ path: UnsafeBufferPointer<UInt8>) -> CookieRejection? {
        path.containsForbiddenControl ? .controlCharacter : storedPathRejection(path)
    }

    /// Why no cookie a jar holds could have the path `path` (UTF-8): one that does not start with "/"
    /// (§5.7 step 11's cookie-path always does). Unlike `pathRejection`, a control character is let
    /// through: a jar file may hold a default-path (§5.1.4) taken from a request path as written.
    static func storedPathRejection(_ path: UnsafeBufferPointer<UInt8>) -> CookieRejection? {
        path.first == UInt8(ascii: "/") ? nil : .relativePath
    }

    /// Why no cookie could have the domain `domain` (UTF-8) as far as its bytes go: a control character
    /// other than HTAB, which no host holds (`CanonicalHost` refuses them, as the WHATWG URL host parser
    /// does).
    static func hostRejection(_ domain: UnsafeBufferPointer<UInt8>) -> CookieRejection? {
        domain.containsForbiddenControl ? .controlCharacter : nil
    }

    /// Why no cookie could have the partition key `key` (UTF-8), or nil when one could as far as its
    /// bytes go: an empty key (an unpartitioned cookie has none), or one with a CTL other than HTAB, which
    /// §5.6 step 1 never lets through (a partition key is a site: a scheme and a host).
    static func partitionKeyRejection(_ key: UnsafeBufferPointer<UInt8>) -> CookieRejection? {
        if key.isEmpty { return .emptyPartitionKey }
        return key.containsForbiddenControl ? .controlCharacter : nil
    }
}
