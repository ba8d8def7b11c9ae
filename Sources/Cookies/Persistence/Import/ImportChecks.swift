/// The checks every reader applies to a cookie taken from a file.
///
/// A file is outside input: its cookies go into the jar through `CookieJar.insert(_:)`, without the
/// storage model's checks (§5.7), so each reader makes sure they are cookies §5.6 and §5.7 could have
/// produced (`CookieTextRules`): a canonical domain, a path starting with "/", and a name and value that
/// would have survived §5.6 (no control characters but HTAB, no ";", no "=" in the name, not both
/// empty, at most 4,096 bytes together).
enum ImportChecks {
    /// A time read from a file, clamped to the years 0001–9999 that every format can write back (a
    /// cookie from a server never lies outside them: the 400-day cap, §5.5).
    static func time(_ time: CookieTime) -> CookieTime {
        min(max(time, .earliestISO8601), .latestISO8601)
    }

    /// The canonical form of a file's domain (leading "." already removed): lower case, IDNA A-labels,
    /// canonical IP literals (§5.1.2), as the jar keeps it.
    static func canonicalDomain(_ text: String) throws(CookieFileError) -> String {
        guard !text.withUTF8Bytes(CanonicalHost.hasEmptyLabel), let host = CanonicalHost(text) else {
            throw CookieFileError(.invalidDomain, detail: "the domain is not a valid host name or address")
        }
        return host.name
    }

    /// A cookie-path §5.7 step 11 could give (`CookieTextRules.pathRejection`): "/" then no control
    /// character.
    static func checkPath(_ path: String) throws(CookieFileError) {
        guard CookieTextRules.pathRejection(path) == nil else {
            throw CookieFileError(.invalidPath, detail: "the path must start with \"/\" and hold no control character")
        }
    }

    /// A name and value that §5.6 steps 1–5 could have given (`CookieTextRules.pairRejection`).
    static func checkPair(name: String, value: String) throws(CookieFileError) {
        if let rejection = CookieTextRules.pairRejection(name: name, value: value) {
            throw CookieFileError(.invalidCookie, detail: rejection.explanation)
        }
    }

    /// `bytes` as a String, or an `invalidUTF8` error naming `field`.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, field: StaticString) throws(CookieFileError) -> String {
        guard let string = String(validatingUTF8Bytes: bytes) else {
            throw CookieFileError(.invalidUTF8, detail: "the \(field) is not valid UTF-8")
        }
        return string
    }
}
