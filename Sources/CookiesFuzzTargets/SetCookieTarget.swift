import Cookies

extension FuzzTarget {
    /// The `Set-Cookie` parser (rfc6265bis-22 §5.6): any bytes parse or are rejected for a §5.6 reason; a
    /// parsed line keeps the §5.6 bounds and survives `setCookieString` unchanged.
    static let setCookie = FuzzTarget(name: "set-cookie") { input throws(InvariantViolation) in
        let target = "set-cookie"
        let hasControl = input.contains(where: CookieTextBounds.isForbiddenControl)
        let parsed: ParsedSetCookie
        do throws(CookieRejection) {
            parsed = try ParsedSetCookie(bytes: input)
        } catch {
            switch error {
            case .controlCharacter:
                try require(hasControl, target, "rejected for a control character it does not hold")
            case .emptyNameAndValue, .nameAndValueTooLong:
                try require(!hasControl, target, "a line with a control character rejected for another reason")
            default:
                try require(false, target, "rejected for \(error.rawValue), which is not a §5.6 reason")
            }
            return
        }
        try require(!hasControl, target, "a line with a control character parses")
        try require(!parsed.name.isEmpty || !parsed.value.isEmpty, target, "name and value both empty")
        try CookieTextBounds.check(
            name: parsed.name, value: parsed.value, domain: parsed.domain, path: parsed.path, in: target)
        let again = try? ParsedSetCookie(parsing: parsed.setCookieString)
        try require(again != nil, target, "setCookieString does not parse")
        try require(again == parsed, target, "parse → setCookieString → parse changes the cookie")
    }
}
