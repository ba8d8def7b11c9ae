import ArgumentParser
import Cookies
import Foundation

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain how Set-Cookie values parse and whether a jar would store them, and why not.",
        discussion: """
            Each value is parsed (RFC 6265bis §5.6) and offered to a fresh jar as the response to --url \
            (§5.7), in order, so later lines see earlier ones. Prints what was parsed, the outcome with \
            its reason, and warnings a server author needs. Values come from the arguments, or from \
            standard input: one value per line, or responses' header blocks (only their Set-Cookie \
            lines are read). A block ends at its empty line, and only a status line starts another \
            (each response's, in the output of curl -i -L); the lines ignored, a body or lines that \
            are no field, are counted on stderr.

            Examples:
              cookiejar explain --url https://api.example.com/login \\
                  'sid=abc; Secure; HttpOnly'
              curl -sD - -o /dev/null https://example.com/ \\
                  | cookiejar explain --url https://example.com/
              cookiejar explain --url https://embed.test/ \\
                  --site-for-cookies https://top.example 'a=b; SameSite=Lax'

            Exit status: 0 when no value is rejected, 1 when one is, 2 usage, 3 unreadable input, \
            4 unwritable output.
            """
    )

    @Option(help: "The URL whose response carries the Set-Cookie values.")
    var url: String

    @OptionGroup var request: RequestContextOptions

    @Option(help: InstantArgument.help("Evaluate at this instant instead of now:"))
    var at: InstantArgument?

    @Argument(help: "Set-Cookie values (a leading 'Set-Cookie:' is taken off). Read from standard input when none.")
    var values: [String] = []

    func validate() throws {
        _ = try parseRequestURL(url)
    }

    func run() throws {
        let requestURL = try parseRequestURL(url)
        let lines: [String]
        if values.isEmpty {
            let input: String
            do {
                input = try readStandardInput()
            } catch {
                printError(error.description)
                throw ToolExit.unreadableInput
            }
            let read = Explain.setCookieValues(fromInput: input)
            if let warning = read.warning { printError(warning) }
            lines = read.values
            guard !lines.isEmpty else {
                let isResponse = input.hasPrefix("HTTP/")
                printError(isResponse ? "the response headers on standard input have no Set-Cookie field" : "no Set-Cookie values given (arguments or standard input)")
                throw ToolExit.unreadableInput
            }
        } else {
            lines = values.enumerated().map { index, value in
                guard let bare = Explain.valueWithoutFieldName(value) else { return value }
                printError("argument \(index + 1) starts with the field name 'Set-Cookie:': explained without it")
                return bare
            }
        }
        let jar = CookieJar(clock: clock(at: at))
        let terminal = Terminal.standardOutput
        var anyRejected = false
        for (index, line) in lines.enumerated() {
            if index > 0 { StandardOutput.print() }
            let report = SetCookieExplanation(line: line, url: requestURL, context: request.context, jar: jar)
            StandardOutput.print(report.render(terminal))
            if report.outcome.rejection != nil { anyRejected = true }
        }
        if anyRejected { throw ToolExit.checksFailed }
    }

    /// What standard input gives: its Set-Cookie values, and the lines of header blocks read as no
    /// field, which a warning counts.
    struct StandardInputValues {
        var values: [String] = []
        /// Lines after the empty line that ends a header block, before any status line: a body.
        var bodyLines = 0
        /// Lines of a header block that are no field (nor a status line, nor a folded continuation).
        var linesNotFields = 0

        /// The warning about the lines ignored, nil when none was.
        var warning: String? {
            func lines(_ count: Int) -> String { "\(count) line\(count == 1 ? "" : "s")" }
            var parts: [String] = []
            if bodyLines > 0 { parts.append(lines(bodyLines) + " after the end of a header block (its body)") }
            if linesNotFields > 0 { parts.append(lines(linesNotFields) + " that \(linesNotFields == 1 ? "is" : "are") no header field") }
            return parts.isEmpty ? nil : "warning: standard input: " + parts.joined(separator: " and ") + " ignored"
        }
    }

    /// Set-Cookie values from standard input: header blocks (lines named `Set-Cookie:`, any case; status
    /// lines and other fields are skipped; a line starting with whitespace continues the field before it,
    /// obs-fold, which RFC 9112 §5.2 replaces with a space) or else one value per non-empty line. An empty
    /// line ends a header block (RFC 9112 §2.1: the body follows); after it, only a status line
    /// (`HTTP/`) starts another, as `curl -i -L` writes one for each response. A byte-order mark at the
    /// start (an editor's) is no part of the first value.
    static func setCookieValues(fromInput text: String) -> StandardInputValues {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        let looksLikeHeaders = lines.first { !$0.isEmpty }.map { $0.hasPrefix("HTTP/") } ?? false
        guard looksLikeHeaders || lines.contains(where: { valueWithoutFieldName($0) != nil }) else {
            return StandardInputValues(values: lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        }
        var result = StandardInputValues()
        var fields: [String] = []
        // Empty lines before the first block are skipped; after a block's end, lines up to the next status
        // line are its body.
        enum Place { case beforeBlocks, inBlock, afterBlock }
        var place = Place.beforeBlocks
        // The first field of the current block, in `fields`.
        var blockStart = 0
        // Without any status line, the input is fields alone (a `Set-Cookie:` line or a few, pasted): an
        // empty line between them separates them, and nothing is a body.
        let hasStatusLines = lines.contains { $0.hasPrefix("HTTP/") }
        for line in lines {
            if line.hasPrefix("HTTP/") {
                place = .inBlock
                // A continuation line right after a status line folds into no field of the previous block.
                blockStart = fields.count
                continue
            }
            switch place {
            case .beforeBlocks where line.isEmpty: continue
            case .inBlock where line.isEmpty:
                place = hasStatusLines ? .afterBlock : .beforeBlocks
                blockStart = fields.count
            case .afterBlock where !line.isEmpty: result.bodyLines += 1
            case .afterBlock: continue
            case .beforeBlocks, .inBlock:
                place = .inBlock
                if line.first == " " || line.first == "\t" {
                    guard fields.count > blockStart, let last = fields.last else {
                        result.linesNotFields += 1
                        continue
                    }
                    fields[fields.count - 1] = last + " " + line.trimmingCharacters(in: .whitespaces)
                } else if isFieldLine(line) {
                    fields.append(line)
                } else {
                    result.linesNotFields += 1
                }
            }
        }
        result.values = fields.compactMap(valueWithoutFieldName)
        return result
    }

    /// Whether `line` is a header field line: a field name, a token (RFC 9110 §5.1) as a method is, and a
    /// colon.
    private static func isFieldLine(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        return HTTPMethod.isValid(String(line[..<colon]))
    }

    /// The value of a `Set-Cookie:` field line (the name in any case, the value trimmed), nil for a line
    /// that is not one.
    static func valueWithoutFieldName(_ line: String) -> String? {
        guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "set-cookie" else { return nil }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
}

/// Everything `explain` says about one Set-Cookie value.
struct SetCookieExplanation {
    let line: String
    let parsed: Result<ParsedSetCookie, CookieRejection>
    let outcome: SetCookieOutcome
    let url: CookieURL
    let now: CookieTime

    init(line: String, url: CookieURL, context: CookieRequestContext, jar: CookieJar) {
        self.line = line
        self.url = url
        self.now = jar.clock.now()
        parsed = Result { () throws(CookieRejection) in try ParsedSetCookie(parsing: line) }
        switch parsed {
        case .success(let cookie): outcome = jar.setCookie(cookie, from: url, context: context)
        case .failure(let reason): outcome = .rejected(reason)
        }
    }

    /// The explanation, the texts of the line (its name, value, attributes) and of the cookie with their
    /// control characters shown as escapes (`String.showingControls`): a line is a server's, and a
    /// terminal would act on an ESC or a CSI (U+009B) in it; the colours are the terminal's own.
    func render(_ terminal: Terminal) -> String {
        var out = terminal.bold("Set-Cookie: ") + line.showingControls
        switch parsed {
        case .failure(let reason):
            out += "\n  " + terminal.red("ignored") + "   \(reason.explanation) [\(reason.rawValue)]"
            return out
        case .success(let cookie):
            let bytes = cookie.name.utf8.count + cookie.value.utf8.count
            out += "\n  parsed    name " + quoted(cookie.name.showingControls) + ", value " + quoted(cookie.value.showingControls)
                + " (\(bytes) byte\(bytes == 1 ? "" : "s"))"
            let attributes = describeAttributes(cookie)
            if !attributes.isEmpty { out += "\n            " + attributes.joined(separator: "  ").showingControls }
        }
        switch outcome {
        case .stored(let cookie):
            out += "\n  " + terminal.green("stored") + "    " + describe(cookie).showingControls
        case .replaced(let cookie, _):
            out += "\n  " + terminal.green("replaced") + "  an earlier line's cookie: " + describe(cookie).showingControls
        case .deleted:
            out += "\n  " + terminal.yellow("deleted") + "   already expired: it deletes the earlier cookie of that name, domain and path"
        case .expired:
            out += "\n  " + terminal.yellow("expired") + "   already expired: nothing stored (a deletion of a cookie this jar does not hold)"
        case .rejected(let reason):
            out += "\n  " + terminal.red("rejected") + "  \(reason.explanation) [\(reason.rawValue)]"
        }
        for warning in warnings() {
            out += "\n  " + terminal.yellow("warning") + "   " + warning.showingControls
        }
        return out
    }

    private func quoted(_ text: String) -> String { "\"" + text + "\"" }

    private func describeAttributes(_ cookie: ParsedSetCookie) -> [String] {
        var parts: [String] = []
        if let maxAge = cookie.maxAge { parts.append("Max-Age=\(maxAge)") }
        if let expires = cookie.expires { parts.append("Expires=\(TimeFormatting.date(CookieTime(secondsSinceEpoch: expires)))") }
        if let domain = cookie.domain { parts.append(domain.isEmpty ? "Domain=(empty: host-only)" : "Domain=\(domain)") }
        if let path = cookie.path { parts.append(path.isEmpty ? "Path=(default-path)" : "Path=\(path)") }
        if cookie.secure { parts.append("Secure") }
        if cookie.httpOnly { parts.append("HttpOnly") }
        if let sameSite = cookie.sameSite { parts.append("SameSite=\(sameSite.rawValue)") }
        if cookie.partitioned { parts.append("Partitioned") }
        return parts
    }

    private func describe(_ cookie: Cookie) -> String {
        var text = cookie.isHostOnly ? "host-only cookie of \(cookie.domain)" : "domain cookie of \(cookie.domain)" + domainScope(cookie.domain)
        text += ", path \(cookie.path)"
        if let expiry = cookie.expiry {
            text += ", expires \(TimeFormatting.date(expiry)) (\(TimeFormatting.relative(expiry, now: now)))"
        } else {
            text += ", session cookie"
        }
        var flags: [String] = []
        if cookie.isSecure { flags.append("Secure") }
        if cookie.isHTTPOnly { flags.append("HttpOnly") }
        flags.append("SameSite=\(cookie.sameSite.rawValue)")
        if let partition = cookie.partitionKey { flags.append("partitioned under \(partition)") }
        return text + ", " + flags.joined(separator: ", ")
    }

    /// Which hosts a domain cookie of `domain` goes to, after its name. §5.1.3 domain-match: a host
    /// matches the domain when the two are identical, or when the domain is a suffix after a "." and "the
    /// string is a host name (i.e., not an IP address)": a cookie whose domain is an IP address goes to
    /// that address alone.
    private func domainScope(_ domain: String) -> String {
        switch CanonicalHost(domain)?.kind {
        case .ipv4?: ", an IPv4 address: sent to that address alone (an IP address has no subdomains, §5.1.3)"
        case .ipv6?: ", an IPv6 address: sent to that address alone (an IP address has no subdomains, §5.1.3)"
        case .domain?, nil: " and its subdomains"
        }
    }

    /// What a server author should know even when the cookie is stored.
    func warnings() -> [String] {
        guard case .success(let cookie) = parsed else { return [] }
        var warnings: [String] = []
        if cookie.expires == nil, cookie.maxAge == nil, outcome.cookie != nil {
            warnings.append("session cookie: no Max-Age or Expires, so it ends with the session and an app relaunch loses it; give it Max-Age if it should persist")
        }
        // What §5.6 ignored or took for its default. An Expires or Max-Age that a later one of its kind
        // replaced is not worth a word (it would not apply either); with none of its kind applied, either
        // one's warning is said once; one after the one that applies is named, with the value that does.
        let ignored = ParsedSetCookie.ignoredAttributes(of: line)
        if cookie.expires == nil, ignored.contains(where: { $0.reason == .expiresNotACookieDate }) {
            warnings.append("an Expires attribute did not parse as a cookie-date (§5.1.1) and was ignored")
        }
        if cookie.maxAge == nil, ignored.contains(where: { $0.reason == .maxAgeNotAnInteger }) {
            warnings.append("a Max-Age attribute is not an integer (§5.6.2) and was ignored")
        }
        for attribute in ignored where !attribute.isReplacedByLaterValue {
            let ignoredAfter = "the attribute " + quoted(attribute.name + "=" + attribute.value) + ": " + attribute.reason.explanation
            switch attribute.reason {
            case .expiresNotACookieDate:
                // §5.7 step 6: the expiry-time comes from the last Max-Age, when there is one, else from the
                // last Expires.
                if let expires = cookie.expires {
                    let earlier = "; the earlier Expires=\(TimeFormatting.date(CookieTime(secondsSinceEpoch: expires)))"
                    warnings.append(ignoredAfter + earlier + (cookie.maxAge == nil ? " applies" : " stands, and Max-Age takes precedence over it (§5.7 step 6)"))
                }
            case .maxAgeNotAnInteger:
                if let maxAge = cookie.maxAge { warnings.append(ignoredAfter + "; the earlier Max-Age=\(maxAge) applies") }
            default:
                warnings.append("the attribute " + quoted(attribute.name) + ": " + attribute.reason.explanation)
            }
        }
        switch CookieLimits.default.cappedLifetime(of: cookie, receivedAt: now) {
        case .maxAge(let maxAge): warnings.append("Max-Age=\(maxAge) is capped at 400 days (34,560,000 s, §5.5)")
        case .expires: warnings.append("Expires is more than 400 days ahead: capped at 400 days (§5.5)")
        case nil: break
        }
        if let bad = cookie.firstNonCookieOctet {
            warnings.append("the value contains \(bad.debugName), not a cookie-octet (§4.1.1): encode it (e.g. base64url) so that every server and client keeps it intact")
        }
        if cookie.domain != nil, outcome.rejection == .domainIsPublicSuffix {
            warnings.append("Domain names a public suffix: use the registrable domain (e.g. example.com), or omit Domain for a host-only cookie")
        }
        return warnings
    }
}

extension Unicode.Scalar {
    /// `"," (U+002C)`-style name for messages; whitespace and a control character (C0, DEL, C1) by its
    /// code alone.
    var debugName: String {
        let hex = String(value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return properties.isWhitespace || value < 0x20 || (0x7F...0x9F).contains(value) ? code : "\"\(self)\" (\(code))"
    }
}

/// All of standard input as text. Bytes that are not UTF-8 are read as U+FFFD, as a jar reads a line
/// (`ParsedSetCookie(bytes:)`), and a warning on standard error says where the first one was: the
/// explanation is of the line with U+FFFD, not of the bytes as sent. Throws when it cannot be read (a
/// directory, a closed descriptor).
func readStandardInput() throws(InputError) -> String {
    let data = try InputBytes.standardInput()
    if let offset = IllFormedUTF8.firstOffset(in: data) {
        printError("warning: standard input is not UTF-8 (byte \(offset) on): each ill-formed sequence is read as U+FFFD, as a jar reads the line")
    }
    return String(decoding: data, as: UTF8.self)
}
