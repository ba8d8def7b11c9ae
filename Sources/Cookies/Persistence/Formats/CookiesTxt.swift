/// The Netscape `cookies.txt` format, as curl, wget, yt-dlp and Python's `http.cookiejar.MozillaCookieJar`
/// read and write it (https://curl.se/docs/http-cookies.html).
///
/// One cookie per line, 7 fields separated by TAB:
///
///     domain  include-subdomains  path  secure  expiry  name  value
///     .example.com  TRUE  /  TRUE  1767225600  sid  7f3c9a
///
/// - domain: a leading "." is dropped; a `#HttpOnly_` prefix (curl's extension) marks an HttpOnly cookie.
///   An IPv6 address is written without brackets, as curl writes it; read with or without them.
/// - include-subdomains: `TRUE` for a domain cookie, `FALSE` for a host-only one. This field decides, as in
///   curl: `example.com TRUE` (yt-dlp) is a domain cookie, `.example.com FALSE` a host-only cookie for
///   `example.com`, the narrower reading. On export the two always agree (`.example.com TRUE`,
///   `www.example.com FALSE`), which Python's reader requires.
/// - secure: `TRUE` or `FALSE` (case-insensitive on import).
/// - expiry: Unix seconds; `0` or empty (Python writes empty) is a session cookie.
/// - A line with 6 fields has an empty value (curl). A third field of exactly `TRUE` or `FALSE` is the
///   secure flag of a line without a path field, whose path is "/" (curl's `parse_netscape`): 6 fields,
///   or 5 with an empty value. Lines starting with `#` (other than `#HttpOnly_`) and blank lines are
///   skipped; LF, CRLF and CR alone end a line, and a UTF-8 byte order mark is accepted.
///
/// What the format cannot hold, and what import gives instead: SameSite (`.default`), partition key
/// (none; export leaves partitioned cookies out, and says how many), source scheme (secure when the
/// cookie is Secure) and port (none), creation and last-access times (the import time plus one
/// microsecond per cookie in file order, so that the send order of §5.8.3 is the file's order),
/// sub-second expiry (truncated to whole seconds on export).
public enum CookiesTxt {
    /// The first line curl, wget and Python write, and Python requires.
    public static let header = "# Netscape HTTP Cookie File"

    /// The cookies of a cookies.txt file.
    ///
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - now: the import time, the creation time of the first cookie.
    ///   - lenient: when true, a bad line is skipped and reported in `skipped`; when false (the default),
    ///     the first bad line throws and no cookie is returned.
    public static func parse(
        _ bytes: some Collection<UInt8>, now: CookieTime, lenient: Bool = false
    ) throws(CookieFileError) -> CookieFileContents {
        try bytes.withContiguousBytes { buffer throws(CookieFileError) in
            try parse(buffer, now: now, lenient: lenient)
        }
    }

    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, now: CookieTime, lenient: Bool
    ) throws(CookieFileError) -> CookieFileContents {
        var problems = ImportProblems(lenient: lenient)
        var cookies: [Cookie] = []
        var lineNumber = 0
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count {
            lineNumber += 1
            // A line ends at LF, CRLF or a CR alone (the classic Mac OS line end, which Python's reader takes
            // as one: it reads the file as text, whose universal newlines make a lone CR a line end).
            let end = bytes.firstIndex(from: start) { $0.bytes(equalTo: 0x0A) | $0.bytes(equalTo: 0x0D) } ?? bytes.count
            let next = end + 1 < bytes.count && bytes[end] == 0x0D && bytes[end + 1] == 0x0A ? end + 2 : end + 1
            let creation = CookieTime(microsecondsSinceEpoch: now.microsecondsSinceEpoch &+ Int64(cookies.count))
            do {
                if let cookie = try parseLine(UnsafeBufferPointer(rebasing: bytes[start..<end]), creation: creation) {
                    cookies.append(cookie)
                }
            } catch {
                try problems.skip(error.at(line: lineNumber))
            }
            start = next
        }
        return CookieFileContents(format: .cookiesTxt, cookies: cookies, skipped: problems.skipped)
    }

    private static let httpOnlyPrefix = Array("#HttpOnly_".utf8)

    /// The cookie on one line, or nil for a comment or blank line.
    private static func parseLine(
        _ line: UnsafeBufferPointer<UInt8>, creation: CookieTime
    ) throws(CookieFileError) -> Cookie? {
        var line = line
        var isHTTPOnly = false
        if line.starts(with: httpOnlyPrefix) {
            isHTTPOnly = true
            line = UnsafeBufferPointer(rebasing: line[httpOnlyPrefix.count...])
        } else if line.first == UInt8(ascii: "#") || line.allSatisfy(\.isCookieWhitespace) {
            return nil
        }

        // The fields are counted first (that error comes before any field's own), then taken in turn:
        // no array of ranges per line. The third field is noted on the way.
        var tabs = 0
        var position = 0
        var third = 0..<0
        while let tab = line.firstIndex(of: 0x09, from: position) {
            tabs += 1
            if tabs == 2 { third = (tab + 1)..<line.count } else if tabs == 3 { third = third.lowerBound..<tab }
            position = tab + 1
        }
        // curl (`parse_netscape`) reads a third field of exactly TRUE or FALSE as the secure flag of a line
        // whose path field is missing, with the path "/", and the fields after it one place earlier.
        let thirdField = UnsafeBufferPointer(rebasing: line[third])
        let isPathMissing = tabs >= 2 && (thirdField.elementsEqual("TRUE".utf8) || thirdField.elementsEqual("FALSE".utf8))
        let fields = isPathMissing ? 6 : 7
        // curl reads a line whose value field is missing as a cookie with an empty value.
        guard tabs == fields - 1 || tabs == fields - 2 else {
            let expected = isPathMissing ? "6 TAB-separated fields (the path is missing)" : "7 TAB-separated fields"
            throw CookieFileError(.fieldCount, detail: "expected \(expected), found \(tabs + 1)")
        }
        var fieldStart = 0
        /// The next field; empty after the last.
        func nextField() -> UnsafeBufferPointer<UInt8> {
            let start = min(fieldStart, line.count)
            let end = line.firstIndex(of: 0x09, from: start) ?? line.count
            fieldStart = end + 1
            return UnsafeBufferPointer(rebasing: line[start..<end])
        }

        var domainBytes = nextField()
        if domainBytes.first == UInt8(ascii: ".") { domainBytes = UnsafeBufferPointer(rebasing: domainBytes.dropFirst()) }
        let domain = try ImportChecks.canonicalDomain(ImportChecks.string(domainBytes, field: "domain"))
        let includeSubdomains = try flag(nextField(), name: "include-subdomains")
        let path = isPathMissing ? "/" : try ImportChecks.string(nextField(), field: "path")
        try ImportChecks.checkPath(path)
        let isSecure = try flag(nextField(), name: "secure")
        let expiry = try self.expiry(nextField())
        let name = try ImportChecks.string(nextField(), field: "name")
        let value = try ImportChecks.string(nextField(), field: "value")
        try ImportChecks.checkPair(name: name, value: value)
        return Cookie(
            name: name, value: value, domain: domain, isHostOnly: !includeSubdomains, path: path, expiry: expiry,
            creation: creation, isSecure: isSecure, isHTTPOnly: isHTTPOnly, isSourceSecure: isSecure)
    }

    private static func flag(_ bytes: UnsafeBufferPointer<UInt8>, name: StaticString) throws(CookieFileError) -> Bool {
        if bytes.caseInsensitivelyEquals("true") { return true }
        if bytes.caseInsensitivelyEquals("false") { return false }
        throw CookieFileError(.invalidFlag, detail: "the \(name) field must be TRUE or FALSE")
    }

    /// Unix seconds; 0 or empty for a session cookie.
    private static func expiry(_ bytes: UnsafeBufferPointer<UInt8>) throws(CookieFileError) -> CookieTime? {
        var seconds: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw CookieFileError(.invalidTime, detail: "the expiry must be Unix seconds (digits only)")
            }
            let (times10, overflow1) = seconds.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else {
                throw CookieFileError(.invalidTime, detail: "the expiry is too large")
            }
            seconds = sum
        }
        return seconds == 0 ? nil : ImportChecks.time(CookieTime(secondsSinceEpoch: seconds))
    }

    /// A cookies.txt file holding `cookies`, oldest first (see `Cookie.inExportOrder`), after the Netscape
    /// header; session cookies get expiry 0. Partitioned cookies are left out, and counted in `leftOut`
    /// (`partitionedLeftOutReason`): the format holds no partition key, and read back a partitioned cookie
    /// would be an unpartitioned one, sent under every top-level site (what CHIPS partitions prevent) and
    /// replacing the unpartitioned cookie of the same name, domain and path.
    ///
    /// - Throws: `unrepresentable` for a cookie with a TAB, CR or LF in a field, which the format cannot
    ///   hold, or with no name (rfc6265bis-22 §5.6 step 3 keeps a line without "=" as a nameless cookie):
    ///   its line would have an empty name field, which readers that split a line at runs of TABs (curl's
    ///   `strtok`) read as a cookie named by the value. Export such a jar as JSON; nothing is written then.
    ///   The error names the cookie by its name, domain and path.
    public static func serialize(
        _ cookies: some Sequence<Cookie>
    ) throws(CookieFileError) -> (text: String, leftOut: [CookieFileContents.LeftOut]) {
        let all = Array(cookies)
        let partitioned = all.count { $0.partitionKey != nil }
        // An array of the cookies written is made only when some are left out: built from a filter, it grows
        // by doubling, an allocation each time (14 for 10,000 cookies).
        let ordered = Cookie.inExportOrder(partitioned == 0 ? all : all.filter { $0.partitionKey == nil })
        let leftOut = partitioned == 0 ? [] : [CookieFileContents.LeftOut(count: partitioned, reason: partitionedLeftOutReason)]
        var out: [UInt8] = []
        out.reserveCapacity(96 + ordered.count * 96)
        out.append(contentsOf: header.utf8)
        out.append(contentsOf: "\n# Written by swift-cookiejar: domain, include-subdomains, path, secure, expiry, name, value.\n\n".utf8)
        for cookie in ordered {
            func breaksLine(_ field: String) -> Bool { field.utf8.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }
            if breaksLine(cookie.domain) || breaksLine(cookie.path) || breaksLine(cookie.name) || breaksLine(cookie.value) {
                throw CookieFileError(
                    .unrepresentable,
                    detail: "\(describe(cookie)) has a TAB, CR or LF, which cookies.txt cannot hold; export as JSON")
            }
            if cookie.name.isEmpty {
                throw CookieFileError(
                    .unrepresentable,
                    detail: "\(describe(cookie)) has no name, which curl reads back from cookies.txt as a cookie named by its value; export as JSON")
            }
            if cookie.isHTTPOnly { out.append(contentsOf: httpOnlyPrefix) }
            if !cookie.isHostOnly { out.append(UInt8(ascii: ".")) }
            // An IPv6 host without its brackets, as curl writes it (and reads it: a "[::1]" line matches no
            // request of curl 7.88.1).
            let domain = cookie.domain.utf8
            if domain.first == UInt8(ascii: "["), domain.last == UInt8(ascii: "]") {
                out.append(contentsOf: domain.dropFirst().dropLast())
            } else {
                out.append(contentsOf: domain)
            }
            out.append(contentsOf: cookie.isHostOnly ? "\tFALSE\t".utf8 : "\tTRUE\t".utf8)
            out.append(contentsOf: cookie.path.utf8)
            out.append(contentsOf: cookie.isSecure ? "\tTRUE\t".utf8 : "\tFALSE\t".utf8)
            // 0 means session, so a persistent cookie that expired by 1970-01-01T00:00:01Z is written as 1.
            let seconds = cookie.expiry.map { max($0.secondsSinceEpoch, 1) } ?? 0
            out.append(contentsOf: String(seconds).utf8)
            out.append(0x09)
            out.append(contentsOf: cookie.name.utf8)
            out.append(0x09)
            out.append(contentsOf: cookie.value.utf8)
            out.append(0x0A)
        }
        return (String(decoding: out, as: UTF8.self), leftOut)
    }

    /// A cookie that `serialize` cannot write, named as its caller knows it, by its name, domain and path
    /// (quoted and escaped: they may hold the TAB, CR or LF at fault), not by a place in the export's order
    /// (oldest first), which is no place in the caller's list; never by its value, a credential.
    private static func describe(_ cookie: Cookie) -> String {
        let name = cookie.name.isEmpty ? "the cookie" : "the cookie \(cookie.name.debugDescription)"
        return name + " of domain \(cookie.domain.debugDescription), path \(cookie.path.debugDescription),"
    }

    /// Why `serialize` leaves partitioned cookies out.
    static let partitionedLeftOutReason =
        "partitioned (CHIPS): cookies.txt holds no partition, and read back each would be sent under every top-level site"
}
