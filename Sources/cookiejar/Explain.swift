import ArgumentParser
import Cookies
import CookiesFoundation
import Foundation

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain how Set-Cookie values parse and whether a jar would store them, and why not.",
        discussion: """
            Each value is parsed (RFC 6265bis §5.6) and offered to a fresh jar as the response to --url \
            (§5.7), in order, so later lines see earlier ones. Prints what was parsed, the outcome with \
            its reason, and warnings a server author needs. Values come from the arguments, or from \
            standard input: one value per line, or responses' header blocks (their Set-Cookie and \
            Location lines are read). A block ends at its empty line, and only a status line starts \
            another (each response's, in the output of curl -i -L); the lines ignored, a body or lines \
            that are no field, are counted on stderr. Of curl -v output, the '< ' lines are read, the \
            response headers.

            Several responses are the hops of a redirect chain from --url: each one's values are \
            offered as the response to its own URL, the Location of the redirect before it resolved as \
            a browser does, with that hop's method (a 303 makes it a GET) and site for cookies \
            (cross-site once the chain left the site it started from). A response that is no redirect \
            (100 Continue, a proxy's 200 Connection established) leaves the URL as it is. A redirect \
            refused (a Location that does not resolve to a URL or is no http(s) URL, more than 20 \
            redirects, several different Locations) is said on stderr, and the responses after it are not explained, their URL \
            unknown. Without --site-for-cookies the request is the client's own, as curl's: a \
            top-level navigation.

            Examples:
              cookiejar explain --url https://api.example.com/login \\
                  'sid=abc; Secure; HttpOnly'
              curl -sD - -o /dev/null https://example.com/ \\
                  | cookiejar explain --url https://example.com/
              curl -svL -o /dev/null https://example.com/ 2>&1 \\
                  | cookiejar explain --url https://example.com/
              cookiejar explain --url https://embed.test/ \\
                  --site-for-cookies https://top.example 'a=b; SameSite=Lax'

            Exit status: 0 when no value is rejected, 1 when one is or a redirect is refused, 2 usage, \
            3 unreadable input, 4 unwritable output.
            """
    )

    @Option(help: "The URL whose response carries the Set-Cookie values (the first response's, of several).")
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
        let responses: [StandardInputResponses.Response]
        if values.isEmpty {
            let input: String
            do {
                input = try readStandardInput()
            } catch {
                printError(error.description)
                throw ToolExit.unreadableInput
            }
            let read = StandardInputResponses(reading: input)
            if let warning = read.warning { printError(warning) }
            guard read.responses.contains(where: { !$0.setCookies.isEmpty }) else {
                printError(read.hasStatusLines ? "the response headers on standard input have no Set-Cookie field" : "no Set-Cookie values given (arguments or standard input)")
                throw ToolExit.unreadableInput
            }
            responses = read.responses
        } else {
            let lines = values.enumerated().map { index, value in
                guard let bare = Explain.valueWithoutFieldName(value) else { return value }
                printError("argument \(index + 1) starts with the field name 'Set-Cookie:': explained without it")
                return bare
            }
            responses = [StandardInputResponses.Response(setCookies: lines)]
        }
        let jar = CookieJar(clock: clock(at: at))
        // Without --site-for-cookies, the request is the client's own, as curl's is: a top-level navigation
        // (`CookieRequestContext.firstParty`), whose redirects to another site are cross-site navigations.
        var context = request.context
        if request.siteForCookies == nil { context.isTopLevelNavigation = true }
        var chain = RedirectChain(url: url, method: request.method, context: context, jar: jar)
        let terminal = Terminal.standardOutput
        var anyRejected = false
        for (index, response) in responses.enumerated() {
            if index > 0, let status = responses[index - 1].status {
                let left = responses.count - index
                let unexplained = "; the \(left) " + (left == 1 ? "response after it is not explained: its" : "responses after it are not explained: their") + " URL is unknown"
                let locations = responses[index - 1].locations
                do {
                    if try chain.follow(status: status, locations: locations) == nil,
                        RedirectStep.redirectStatuses.contains(status), let location = locations.first
                    {
                        // A redirect whose Location does not resolve to a URL: Fetch's "If locationURL is
                        // failure, then return a network error", not a final response.
                        let path = chain.hops.map(\.description).joined(separator: ", ")
                        printError("redirect to \"\(location)\", which does not resolve to a URL: \(path)" + unexplained)
                        throw ToolExit.checksFailed
                    }
                } catch let error as RedirectError {
                    printError(error.description + unexplained)
                    throw ToolExit.checksFailed
                }
            }
            // The URL the response answers: the chain's current hop (a URL `follow` checked), `--url` first.
            let hopURL = CookieURL(chain.current.url) ?? requestURL
            if index > 0 { StandardOutput.print() }
            if responses.count > 1 {
                StandardOutput.print(terminal.bold(Self.heading(of: response, number: index + 1, hop: chain.current).showingControls))
            }
            for (line, value) in response.setCookies.enumerated() {
                if line > 0 { StandardOutput.print() }
                let report = SetCookieExplanation(line: value, url: hopURL, context: chain.context, jar: jar)
                StandardOutput.print(report.render(terminal))
                if report.outcome.rejection != nil { anyRejected = true }
            }
        }
        if anyRejected { throw ToolExit.checksFailed }
    }

    /// The line before the explanations of one of several responses: its number, status, and the request
    /// it answers (its method when not GET), as `Response 2 (200) from https://a.test/login`; a response
    /// without Set-Cookie fields says so.
    static func heading(of response: StandardInputResponses.Response, number: Int, hop: RedirectHop) -> String {
        "Response \(number)" + (response.status.map { " (\($0))" } ?? "") + " from " + hop.url
            + (hop.method == "GET" ? "" : " (\(hop.method))") + (response.setCookies.isEmpty ? ", no Set-Cookie field" : "")
    }

    /// The value of a `Set-Cookie:` field line (the name in any case, the value trimmed), nil for a line
    /// that is not one.
    static func valueWithoutFieldName(_ line: String) -> String? {
        value(ofField: "set-cookie", in: line)
    }

    /// The value of a field line named `name` (lower-case; the line's in any case), trimmed; nil for a line
    /// that is no such field.
    static func value(ofField name: String, in line: String) -> String? {
        guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name else { return nil }
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
