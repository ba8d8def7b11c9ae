/// swift-cookiejar's own JSON format: every field the jar keeps, lossless, versioned.
///
/// ```json
/// {
///   "format": "swift-cookiejar",
///   "version": 1,
///   "cookies": [
///     {"name": "sid", "value": "7f3c9a", "domain": "example.com", "hostOnly": true, "path": "/",
///      "expires": "2026-01-01T00:00:00.000000Z", "creation": "2025-01-01T00:00:00.000000Z",
///      "lastAccess": "2025-01-01T00:00:00.000000Z", "secure": true, "httpOnly": true, "sameSite": "Lax",
///      "partitionKey": null, "sourceSecure": true, "sourcePort": 443}
///   ]
/// }
/// ```
///
/// - `format` (required): the string "swift-cookiejar". `version` (required): the integer 1; a reader
///   refuses any other version (`unsupportedVersion`). `cookies` (required): an array of objects.
/// - Cookie members, required: `name`, `value`, `domain` (strings; the domain canonical: lower case,
///   IDNA A-labels, no leading "."), `hostOnly` (boolean), `path` (string starting with "/"),
///   `creation` (time).
/// - Optional, with their default when absent: `expires` (time; absent or null: a session cookie),
///   `lastAccess` (time; `creation`), `secure`, `httpOnly`, `sourceSecure` (booleans; false),
///   `sameSite` ("Strict", "Lax", "None" or "Default"; "Default", what a missing SameSite attribute
///   gives), `partitionKey` (string, the CHIPS top-level site `https://site.example`, or null:
///   unpartitioned; a jar stores it as it computes a request's, `https://TOP.example` or
///   `https://www.site.example` as `https://site.example`, and refuses one that names no site, as
///   `CookieJar.insert(_:)` says), `sourcePort` (integer 0–65535 or null: none).
/// - Times are RFC 3339 UTC strings with six fraction digits (`2025-01-01T00:00:00.000000Z`): microsecond
///   precise like `CookieTime`. Readers also take 0–5 fraction digits. Years 0001–9999.
/// - Members a reader does not know, at any level, are ignored: a later minor addition stays readable by
///   this version. A change that older readers must not misread gets a new `version`.
/// - Writers put one cookie per line, oldest creation first; the text is UTF-8. Strings escape the
///   controls (C0, DEL, C1) and the bidirectional formatting characters as `\uXXXX`, so that the document
///   can be printed to a terminal as it is; readers take any escape RFC 8259 allows.
public enum CookieJSON {
    /// The value of the "format" member.
    public static let formatName = "swift-cookiejar"
    /// The version this library writes, and the only one it reads.
    public static let version = 1

    /// The cookies of a swift-cookiejar JSON document.
    ///
    /// - Parameters:
    ///   - bytes: the whole document (UTF-8).
    ///   - lenient: when true, a cookie object with a missing or invalid member is skipped and
    ///     reported in `skipped`; when false (the default), the first one throws. Malformed JSON, another
    ///     format or version always throw.
    public static func parse(_ bytes: some Collection<UInt8>, lenient: Bool = false) throws(CookieFileError) -> CookieFileContents {
        try bytes.withContiguousBytes { buffer throws(CookieFileError) in try parse(buffer, lenient: lenient) }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, lenient: Bool) throws(CookieFileError) -> CookieFileContents {
        var scanner = JSONScanner(bytes)
        guard scanner.peek() == UInt8(ascii: "{") else {
            throw scanner.error(.notCookieJSON, "the document is not a JSON object with \"format\": \"\(formatName)\"")
        }
        // The top-level members. "cookies" is read at once when "format" and "version" came before it
        // (as writers put them); otherwise it is skipped and read after the version is known.
        var format: String?
        var version: Int64?
        var cookiesPosition: Int?
        var problems = ImportProblems(lenient: lenient)
        var cookies: [Cookie]?
        var first = true
        while let member = try scanner.nextMember(&first) {
            switch member {
            case "format":
                guard scanner.atString() else { throw scanner.error(.notCookieJSON, "\"format\" must be a string") }
                format = try scanner.readString()
            case "version":
                _ = scanner.peek()
                let position = scanner.index
                guard let number = try scanner.readInteger() else {
                    throw scanner.error(.unsupportedVersion, "\"version\" must be an integer", at: position)
                }
                version = number
            case "cookies":
                _ = scanner.peek()
                cookiesPosition = scanner.index
                if format == formatName, version == Int64(self.version) {
                    cookies = try readCookies(&scanner, problems: &problems)
                } else {
                    try scanner.skipValue()
                }
            default:
                try scanner.skipValue()
            }
        }
        try scanner.expectEnd()
        guard format == formatName else {
            throw CookieFileError(.notCookieJSON, line: 1, offset: 0, detail: "no \"format\": \"\(formatName)\" member")
        }
        guard let version else {
            throw CookieFileError(.missingMember, line: 1, offset: 0, detail: "no \"version\" member")
        }
        guard version == Int64(self.version) else {
            throw CookieFileError(
                .unsupportedVersion, line: 1, offset: 0,
                detail: "version \(version) is not supported; this library reads version \(self.version)")
        }
        guard let cookiesPosition else {
            throw CookieFileError(.missingMember, line: 1, offset: 0, detail: "no \"cookies\" member")
        }

        if cookies == nil {
            scanner.seek(to: cookiesPosition)
            cookies = try readCookies(&scanner, problems: &problems)
        }
        return CookieFileContents(format: .json, cookies: cookies ?? [], skipped: problems.skipped)
    }

    /// The "cookies" array.
    private static func readCookies(
        _ scanner: inout JSONScanner, problems: inout ImportProblems
    ) throws(CookieFileError) -> [Cookie] {
        guard scanner.peek() == UInt8(ascii: "[") else { throw scanner.error(.invalidMember, "\"cookies\" must be an array") }
        // Room for as many cookies as the rest of the document can hold, so that the array never grows
        // by copying: capacity left unused is address space whose pages are never touched, not memory.
        var cookies: [Cookie] = []
        cookies.reserveCapacity((scanner.bytes.count - scanner.index) / shortestCookieBytes)
        var firstCookie = true
        while try scanner.nextElement(&firstCookie) {
            let start = scanner.index
            do {
                cookies.append(try readCookie(&scanner))
            } catch where error.code != .jsonSyntax && error.code != .invalidUTF8 {
                // A cookie with a bad member (its error is at the object's start): skip the whole object.
                try problems.skip(error)
                scanner.seek(to: start)
                try scanner.skipValue()
            }
        }
        return cookies
    }

    /// The length of the shortest cookie object read without error (its required members, the shortest
    /// values they take, no whitespace): `{"name":"","value":"a","domain":"a","hostOnly":true,"path":"/","creation":"0001-01-01T00:00:00Z"}`.
    static let shortestCookieBytes = 97

    /// One cookie object; a bad member gives an error at the object's start.
    private static func readCookie(_ scanner: inout JSONScanner) throws(CookieFileError) -> Cookie {
        _ = scanner.peek()
        let objectStart = scanner.index
        guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.error(.invalidMember, "a cookie must be an object") }
        var name: String?
        var value: String?
        var domain: String?
        var hostOnly: Bool?
        var path: String?
        var expires: CookieTime?
        var creation: CookieTime?
        var lastAccess: CookieTime?
        var secure = false
        var httpOnly = false
        var sameSite = SameSite.default
        var partitionKey: String?
        var sourceSecure = false
        var sourcePort: Int?

        func invalid(_ member: Member, _ expected: String) -> CookieFileError {
            scanner.error(.invalidMember, "\"\(member.name)\" must be \(expected)", at: objectStart)
        }
        func string(_ member: Member) throws(CookieFileError) -> String {
            guard scanner.atString() else { throw invalid(member, "a string") }
            return try scanner.readString()
        }
        func bool(_ member: Member) throws(CookieFileError) -> Bool {
            guard let flag = try scanner.readBool() else { throw invalid(member, "true or false") }
            return flag
        }
        func time(_ member: Member) throws(CookieFileError) -> CookieTime {
            guard scanner.atString() else { throw invalid(member, "a time string") }
            guard let time = try scanner.readString(matching: { CookieTime(iso8601: $0) }) else {
                throw scanner.error(
                    .invalidTime, "\"\(member.name)\" must be a UTC time like 2025-01-01T00:00:00.000000Z", at: objectStart)
            }
            return time
        }

        var first = true
        while let known = try scanner.nextMember(&first, matching: Member.init(bytes:)) {
            guard let member = known else {
                try scanner.skipValue()
                continue
            }
            switch member {
            case .name: name = try string(member)
            case .value: value = try string(member)
            case .domain: domain = try string(member)
            case .hostOnly: hostOnly = try bool(member)
            case .path: path = try string(member)
            case .expires: expires = try scanner.readNull() ? nil : try time(member)
            case .creation: creation = try time(member)
            case .lastAccess: lastAccess = try scanner.readNull() ? nil : try time(member)
            case .secure: secure = try bool(member)
            case .httpOnly: httpOnly = try bool(member)
            case .sameSite:
                guard scanner.atString() else { throw invalid(member, "a string") }
                guard let parsed = try scanner.readString(matching: sameSite(named:)) else {
                    throw invalid(member, "\"Strict\", \"Lax\", \"None\" or \"Default\"")
                }
                sameSite = parsed
            case .partitionKey: partitionKey = try scanner.readNull() ? nil : try string(member)
            case .sourceSecure: sourceSecure = try bool(member)
            case .sourcePort:
                if try scanner.readNull() {
                    sourcePort = nil
                } else {
                    guard let port = try scanner.readInteger(), (0...65535).contains(port) else {
                        throw invalid(member, "an integer from 0 to 65535 or null")
                    }
                    sourcePort = Int(port)
                }
            }
        }
        func missing(_ member: String) -> CookieFileError {
            scanner.error(.missingMember, "a cookie has no \"\(member)\" member", at: objectStart)
        }
        guard let name else { throw missing("name") }
        guard let value else { throw missing("value") }
        guard let domain else { throw missing("domain") }
        guard let hostOnly else { throw missing("hostOnly") }
        guard let path else { throw missing("path") }
        guard let creation else { throw missing("creation") }
        do {
            let canonicalDomain = try ImportChecks.canonicalDomain(domain)
            try ImportChecks.checkPath(path)
            try ImportChecks.checkPair(name: name, value: value)
            return Cookie(
                name: name, value: value, domain: canonicalDomain, isHostOnly: hostOnly, path: path, expiry: expires,
                creation: creation, lastAccess: lastAccess, isSecure: secure, isHTTPOnly: httpOnly, sameSite: sameSite,
                partitionKey: partitionKey, isSourceSecure: sourceSecure, sourcePort: sourcePort)
        } catch {
            throw scanner.error(error.code, error.detail, at: objectStart)
        }
    }

    /// The same-site flag whose raw value is `bytes`, or nil: the length tells the one candidate.
    private static func sameSite(named bytes: UnsafeBufferPointer<UInt8>) -> SameSite? {
        let candidate: SameSite
        switch bytes.count {
        case 3: candidate = .lax
        case 4: candidate = .none
        case 6: candidate = .strict
        case 7: candidate = .default
        default: return nil
        }
        var rawValue = candidate.rawValue
        return rawValue.withUTF8 { $0.elementsEqual(bytes) } ? candidate : nil
    }

    /// The members of a cookie object this version reads.
    private enum Member {
        case name, value, domain, hostOnly, path, expires, creation, lastAccess, secure, httpOnly, sameSite
        case partitionKey, sourceSecure, sourcePort

        var name: StaticString {
            switch self {
            case .name: "name"
            case .value: "value"
            case .domain: "domain"
            case .hostOnly: "hostOnly"
            case .path: "path"
            case .expires: "expires"
            case .creation: "creation"
            case .lastAccess: "lastAccess"
            case .secure: "secure"
            case .httpOnly: "httpOnly"
            case .sameSite: "sameSite"
            case .partitionKey: "partitionKey"
            case .sourceSecure: "sourceSecure"
            case .sourcePort: "sourcePort"
            }
        }

        /// The member named by `bytes`, or nil for a member this version does not know. The length and
        /// first byte (and the second for "hostOnly" and "httpOnly") tell the one candidate, whose name is
        /// then compared in full, as two words: the first and the last four or eight bytes (overlapping
        /// when the name is shorter than two words; every name is at least four bytes long).
        init?(bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count >= 4, let base = bytes.baseAddress else { return nil }
            let candidate: Member
            switch (bytes.count, bytes[0]) {
            case (4, UInt8(ascii: "n")): candidate = .name
            case (4, UInt8(ascii: "p")): candidate = .path
            case (5, UInt8(ascii: "v")): candidate = .value
            case (6, UInt8(ascii: "d")): candidate = .domain
            case (6, UInt8(ascii: "s")): candidate = .secure
            case (7, UInt8(ascii: "e")): candidate = .expires
            case (8, UInt8(ascii: "h")): candidate = bytes[1] == UInt8(ascii: "o") ? .hostOnly : .httpOnly
            case (8, UInt8(ascii: "c")): candidate = .creation
            case (8, UInt8(ascii: "s")): candidate = .sameSite
            case (10, UInt8(ascii: "l")): candidate = .lastAccess
            case (10, UInt8(ascii: "s")): candidate = .sourcePort
            case (12, UInt8(ascii: "p")): candidate = .partitionKey
            case (12, UInt8(ascii: "s")): candidate = .sourceSecure
            default: return nil
            }
            let name = UnsafeRawPointer(candidate.name.utf8Start)
            let text = UnsafeRawPointer(base)
            let last = bytes.count >= 8 ? bytes.count - 8 : bytes.count - 4
            let same = bytes.count >= 8
                ? name.loadUnaligned(as: UInt64.self) == text.loadUnaligned(as: UInt64.self)
                    && name.loadUnaligned(fromByteOffset: last, as: UInt64.self) == text.loadUnaligned(fromByteOffset: last, as: UInt64.self)
                : name.loadUnaligned(as: UInt32.self) == text.loadUnaligned(as: UInt32.self)
                    && name.loadUnaligned(fromByteOffset: last, as: UInt32.self) == text.loadUnaligned(fromByteOffset: last, as: UInt32.self)
            guard same else { return nil }
            self = candidate
        }
    }

    /// A swift-cookiejar JSON document holding `cookies` (session cookies included, with no "expires"),
    /// oldest first (see `Cookie.inExportOrder`), one cookie per line.
    public static func serialize(_ cookies: some Sequence<Cookie>) -> String {
        String(decoding: serializedBytes(Array(cookies)), as: UTF8.self)
    }

    /// The document `serialize(_:)` gives, as its UTF-8 bytes: for writing to a file or a pipe without
    /// building (and checking) a String of the whole document.
    public static func serializedBytes(_ cookies: [Cookie]) -> [UInt8] {
        let order = Cookie.exportOrder(of: cookies)
        return cookies.withUnsafeBufferPointer { cookies in
            let capacity = cookies.indices.reduce(documentBytes) { $0 + maximumBytes(of: cookies.baseAddress! + $1) }
            return CookieFileWriter.bytes(capacity: capacity) { writeDocument(cookies, in: order, to: &$0) }
        }
    }

    /// The document `serializedBytes(_:)` gives, handed to `write` in chunks of about `chunkSize` bytes
    /// as it is written: a document of any size through one buffer of that size.
    public static func serialize(
        _ cookies: [Cookie], chunkSize: Int = 1 << 20, to write: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let order = Cookie.exportOrder(of: cookies)
        cookies.withUnsafeBufferPointer { cookies in
            CookieFileWriter.chunks(of: chunkSize, to: write) { writeDocument(cookies, in: order, to: &$0) }
        }
    }

    /// The document: `cookies` in `order` (export order), each after room for its most bytes is made.
    private static func writeDocument(_ cookies: UnsafeBufferPointer<Cookie>, in order: [Int], to out: inout CookieFileWriter) {
        out.reserve(documentBytes)
        out.append("{\n  \"format\": \"")
        out.append(contentsOf: formatName)
        out.append("\",\n  \"version\": ")
        out.appendDecimal(Int64(version))
        out.append(",\n  \"cookies\": [")
        for (position, index) in order.enumerated() {
            let cookie = cookies.baseAddress! + index
            out.reserve(maximumBytes(of: cookie))
            out.append(position == 0 ? "\n" : ",\n")
            append(cookie, to: &out)
        }
        out.reserve(documentBytes)
        out.append(order.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
    }

    /// The most bytes of the document besides its cookies: its first lines and its end.
    private static let documentBytes = 128

    /// A cookie's most bytes: its member names, times and flags, and its strings with every byte escaped
    /// (`\u00XX`, six bytes) and quoted.
    private static func maximumBytes(of cookie: UnsafePointer<Cookie>) -> Int {
        let strings = cookie.pointee.name.utf8.count + cookie.pointee.value.utf8.count
            + cookie.pointee.domain.utf8.count + cookie.pointee.path.utf8.count
            + (cookie.pointee.partitionKey?.utf8.count ?? 0)
        return maximumMemberBytes + 6 * strings
    }

    /// The most bytes of a cookie's line besides its strings' characters: member names, punctuation,
    /// flags, a port and the quotes around five strings (some 250 bytes), and three times.
    private static let maximumMemberBytes = 300 + 3 * CookieTime.iso8601Length

    /// One cookie object, read in place (a copy of a Cookie retains each of its strings).
    private static func append(_ cookie: UnsafePointer<Cookie>, to out: inout CookieFileWriter) {
        out.append("    {\"name\": ")
        appendString(cookie.pointee.name, to: &out)
        out.append(", \"value\": ")
        appendString(cookie.pointee.value, to: &out)
        out.append(", \"domain\": ")
        appendString(cookie.pointee.domain, to: &out)
        out.append(cookie.pointee.isHostOnly ? ", \"hostOnly\": true, \"path\": " : ", \"hostOnly\": false, \"path\": ")
        appendString(cookie.pointee.path, to: &out)
        if let expiry = cookie.pointee.expiry {
            out.append(", \"expires\": \"")
            expiry.appendISO8601(to: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(", \"creation\": \"")
        cookie.pointee.creation.appendISO8601(to: &out)
        out.append("\", \"lastAccess\": \"")
        cookie.pointee.lastAccess.appendISO8601(to: &out)
        out.append(cookie.pointee.isSecure ? "\", \"secure\": true" : "\", \"secure\": false")
        out.append(cookie.pointee.isHTTPOnly ? ", \"httpOnly\": true, \"sameSite\": \"" : ", \"httpOnly\": false, \"sameSite\": \"")
        out.append(contentsOf: cookie.pointee.sameSite.rawValue)
        out.append("\", \"partitionKey\": ")
        if let partitionKey = cookie.pointee.partitionKey { appendString(partitionKey, to: &out) } else { out.append("null") }
        out.append(cookie.pointee.isSourceSecure ? ", \"sourceSecure\": true, \"sourcePort\": " : ", \"sourceSecure\": false, \"sourcePort\": ")
        if let port = cookie.pointee.sourcePort { out.appendDecimal(Int64(port)) } else { out.append("null") }
        out.append(UInt8(ascii: "}"))
    }

    /// RFC 8259 §7: `"`, `\` and the control characters escaped, everything else as UTF-8 but for the
    /// characters a terminal would obey (`TerminalControlCharacter`: DEL, the C1 controls such as the CSI
    /// U+009B, and the bidirectional formatting characters such as U+202E), which are written `\u009b`,
    /// `\u202e` too. A server can plant them in a cookie (§5.6 step 1 refuses only the C0 controls and
    /// DEL), and a JSON document is text a person reads: printed (`cookiejar inspect --json`, `cat` of a
    /// file), it would have a terminal act on them. The escape is the writer's, whatever the document's
    /// destination, so that a file and its printout are the same bytes: RFC 8259 §7 lets any character be
    /// escaped, and a reader (this one, `JSONScanner`) reads the same strings back.
    private static func appendString(_ string: String, to out: inout CookieFileWriter) {
        out.append(UInt8(ascii: "\""))
        // A native string's bytes are read in place; another's through a native copy.
        if string.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &out) }) == nil {
            var native = string
            native.withUTF8 { appendEscaped($0, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The UTF-8 `bytes` of a string's content, escaped as `appendString(_:to:)` says.
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout CookieFileWriter) {
        // The usual string needs no escape: checked and copied in place.
        guard bytes.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || TerminalControlCharacter.mayStart($0) }) else {
            out.append(bytes)
            return
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""): out.append("\\\"")
            case UInt8(ascii: "\\"): out.append("\\\\")
            case 0x09: out.append("\\t")
            case 0x0A: out.append("\\n")
            case 0x0D: out.append("\\r")
            default:
                if let control = TerminalControlCharacter.at(index, in: bytes) {
                    let hex: StaticString = "0123456789abcdef"
                    out.append("\\u")
                    for shift in stride(from: 12, through: 0, by: -4) {
                        out.append(hex.utf8Start[Int(control.scalar >> UInt32(shift) & 0x0F)])
                    }
                    index += control.length
                    continue
                }
                out.append(byte)
            }
            index += 1
        }
    }
}
