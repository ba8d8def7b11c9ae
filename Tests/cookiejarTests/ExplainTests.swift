import Foundation
import Testing

/// `cookiejar explain`, run as a sub-process, against golden output.
struct ExplainTests {
    /// 2026-01-01T00:00:00Z: the instant every run is evaluated at.
    static let at = "1767225600"

    struct Row: Sendable, CustomTestStringConvertible {
        var golden: String
        var arguments: [String]
        var stdin: String? = nil
        var testDescription: String { golden }
    }

    static let rows: [Row] = [
        Row(golden: "explain-stored", arguments: ["--url", "https://api.example.com/login", "sid=abc; Path=/; Max-Age=3600; Secure; HttpOnly; SameSite=Lax"]),
        Row(golden: "explain-rejections", arguments: ["--url", "http://www.example.com/", "a=b; Domain=com", "c=d; Secure", "__Host-e=f; Secure; Path=/", "g=h; SameSite=None", "i=j\u{7F}"]),
        Row(golden: "explain-warnings", arguments: ["--url", "https://example.com/", "token=a b; Max-Age=999999999", "legacy=1; Expires=Thu, 31 Feb 2030 10:00:00 GMT", "gone=1; Max-Age=0", "note=expires-soon; Max-Age=60"]),
        // §5.6: attributes ignored (unknown name, 1025-octet value, no cookie-date, no integer) or taken for
        // their default (empty Domain, Path without "/", unknown SameSite); an Expires beyond 400 days (§5.5).
        Row(golden: "explain-ignored-attributes", arguments: ["--url", "https://example.com/docs/page", "a=1; Foo=bar; Path=docs; Domain=; SameSite=Weird; Max-Age=1x; Max-Age=60", "b=2; Expires=never; Comment=" + String(repeating: "c", count: 1025), "c=\"d,e\"; Expires=Thu, 01 Jan 2099 00:00:00 GMT"]),
        Row(golden: "explain-cross-site", arguments: ["--url", "https://embed.test/", "--site-for-cookies", "https://top.example", "lax=1; SameSite=Lax", "none=1; SameSite=None; Secure; Partitioned"]),
        Row(golden: "explain-stdin-headers", arguments: ["--url", "https://example.com/"], stdin: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nSet-Cookie: a=1; Max-Age=60\r\nset-cookie: b=2; Path=/docs; Max-Age=60\r\n\r\n"),
        Row(golden: "explain-stdin-lines", arguments: ["--url", "https://example.com/"], stdin: "a=1; Max-Age=60\n\nb=2; Max-Age=60\n"),
        // A value pasted with its field name (from a browser's developer tools): explained without it, so
        // that the __Host- prefix is checked on the real name (§4.1.3.2: the Path must be "/"), and said on
        // stderr.
        Row(golden: "explain-argument-with-field-name", arguments: ["--url", "https://a.test/app", "Set-Cookie: __Host-sid=1; Secure; Path=/app"]),
        // `curl -i -L`: the second response is the redirect's, from the Location's URL (§5.7 step 10: the
        // Domain must domain-match the host of the request that got the response).
        Row(golden: "explain-redirects", arguments: ["--url", "https://www.example.com/"], stdin: """
            HTTP/1.1 302 Found\r
            Location: https://auth.example.net/login\r
            \r
            HTTP/1.1 200 OK\r
            Set-Cookie: sso=1; Domain=auth.example.net; Secure\r
            Set-Cookie: h=2; Secure\r
            \r

            """),
        // `curl -svL https://www.example.com/ 2>&1`: the response headers are its "< " lines; the request's
        // ("> "), the information ("* ") and the data ("{ ", "} ") are curl's own, the rest is the body.
        Row(golden: "explain-curl-verbose", arguments: ["--url", "https://www.example.com/"], stdin: curlVerbose),
    ]

    /// `curl -svL https://www.example.com/ 2>&1` (curl 7.88.1) of a redirect to /login with a
    /// cookie on each response, the body of the last one following its header lines on the same stream.
    static let curlVerbose = """
        *   Trying 192.0.2.10:443...
        * Connected to www.example.com (192.0.2.10) port 443 (#0)
        * ALPN: offers h2,http/1.1
        } [5 bytes data]
        * TLSv1.3 (OUT), TLS handshake, Client hello (1):
        } [512 bytes data]
        * TLSv1.3 (IN), TLS handshake, Server hello (2):
        { [122 bytes data]
        * SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384
        * ALPN: server accepted http/1.1
        * Server certificate:
        *  subject: CN=www.example.com
        *  issuer: C=US; O=Let's Encrypt; CN=R3
        *  SSL certificate verify ok.
        } [5 bytes data]
        > GET / HTTP/1.1\r
        > Host: www.example.com\r
        > User-Agent: curl/7.88.1\r
        > Accept: */*\r
        > \r
        { [5 bytes data]
        < HTTP/1.1 302 Found\r
        < Server: nginx\r
        < Set-Cookie: visit=1; Max-Age=600; Secure\r
        < Location: /login\r
        < Content-Length: 0\r
        < \r
        * Connection #0 to host www.example.com left intact
        * Issue another request to this URL: 'https://www.example.com/login'
        * Found bundle for host: 0x55d1c8a3e2b0 [serially]
        * Re-using existing connection #0 with host www.example.com
        > GET /login HTTP/1.1\r
        > Host: www.example.com\r
        > User-Agent: curl/7.88.1\r
        > Accept: */*\r
        > \r
        { [5 bytes data]
        < HTTP/1.1 200 OK\r
        < Content-Type: text/html\r
        < Set-Cookie: sid=abc; Path=/; Max-Age=3600; Secure; HttpOnly; SameSite=Lax\r
        < Content-Length: 40\r
        < \r
        { [40 bytes data]
        <!doctype html>
        <p>Sign in</p>
        * Connection #0 to host www.example.com left intact

        """

    @Test(arguments: rows)
    func golden(_ row: Row) throws {
        let run = try Tool.run(["explain", "--at", Self.at] + row.arguments, stdin: row.stdin)
        try Tool.expectGolden(run, row.golden)
    }

    /// A header block's folded line (obs-fold, RFC 9112 §5.2: replaced with a space) continues its field,
    /// and a byte-order mark before the input (an editor's) is no part of the first name.
    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nSet-Cookie: a=1;\r\n Path=/docs\r\nSet-Cookie: b=2\r\n\r\n", "cookie of a.test, path /docs"),
        ("\u{FEFF}a=1; Max-Age=60\n", "parsed    name \"a\""),
    ])
    func foldedLinesAndAByteOrderMark(_ input: String, _ expected: String) throws {
        let run = try Tool.run(["explain", "--url", "https://a.test/", "--at", Self.at], stdin: input)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(expected), "\(run.stdout)")
    }

    /// §5.1.3 domain-match: a host matches a domain that is a suffix of it after a "." only when "the
    /// string is a host name (i.e., not an IP address)": a domain cookie of an IP address goes to that
    /// address alone, no subdomains, and one of a host name to its subdomains too.
    @Test(arguments: [
        ("http://127.0.0.1/", "a=1; Domain=127.0.0.1", "domain cookie of 127.0.0.1, an IPv4 address: sent to that address alone (an IP address has no subdomains, §5.1.3), path /"),
        ("http://[::1]/", "a=1; Domain=[::1]", "domain cookie of [::1], an IPv6 address: sent to that address alone (an IP address has no subdomains, §5.1.3), path /"),
        ("http://www.a.test/", "a=1; Domain=a.test", "domain cookie of a.test and its subdomains, path /"),
    ])
    func aDomainCookieOfAnIPAddressHasNoSubdomains(_ url: String, _ line: String, _ expected: String) throws {
        let run = try Tool.run(["explain", "--url", url, "--at", Self.at, line])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("stored    " + expected), "\(run.stdout)")
    }

    /// §5.6.1, §5.6.2: an Expires that is no cookie-date, a Max-Age that is no integer, is ignored, and the
    /// last of its kind that parses applies (§5.7 step 6: Max-Age before Expires). One after the one that
    /// applies is named, its value escaped as the line is (a C1 control, U+009B, is a CSI to a terminal),
    /// with the value that applies; one that a later value replaces would not apply either: no word.
    @Test(arguments: [
        ("g=1; Max-Age=1; Max-Age=abc", "the attribute \"Max-Age=abc\": it is not an integer (§5.6.2), so it was ignored; the earlier Max-Age=1 applies"),
        ("g=1; Max-Age=1; Max-Age=\u{9B}2", "the attribute \"Max-Age=\\u{9B}2\": it is not an integer (§5.6.2), so it was ignored; the earlier Max-Age=1 applies"),
        ("g=1; Expires=Thu, 01 Oct 2026 00:00:00 GMT; Expires=never", "the attribute \"Expires=never\": it did not parse as a cookie-date (§5.1.1), so it was ignored; the earlier Expires=2026-10-01 00:00:00 UTC applies"),
        ("g=1; Expires=Thu, 01 Oct 2026 00:00:00 GMT; Expires=never; Max-Age=60", "the attribute \"Expires=never\": it did not parse as a cookie-date (§5.1.1), so it was ignored; the earlier Expires=2026-10-01 00:00:00 UTC stands, and Max-Age takes precedence over it (§5.7 step 6)"),
        ("g=1; Max-Age=abc; Max-Age=60", nil),
        ("g=1; Max-Age=1; Max-Age=abc; Max-Age=60", nil),
    ])
    func anIgnoredExpiryAfterTheOneThatAppliesIsWarnedOf(_ line: String, _ expected: String?) throws {
        let run = try Tool.run(["explain", "--url", "https://a.test/", "--at", Self.at, line])
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  warning") }.map { String($0.dropFirst(12)) }
        #expect(warnings == (expected.map { [$0] } ?? []), "\(run.stdout)")
    }

    /// A header block on standard input ends at its empty line (RFC 9112 §2.1: the body follows it); after
    /// it only a status line starts another block (`curl -i -L`: one block a response). The body's lines
    /// are no fields, and lines of a block that are no field are not values: both are counted in a warning.
    /// The reader took an indented body line for a folded continuation of the last Set-Cookie (its path
    /// became "/ <html>"), explained a body line starting with "Set-Cookie:", and dropped other lines
    /// without a word.
    static let headerBlocks: [(input: String, values: [String], warning: String?, source: String)] = [
        ("HTTP/1.1 200 OK\r\nSet-Cookie: a=1; Path=/\r\n\r\n <html>\r\n", ["Set-Cookie: a=1; Path=/"],
         "1 line after the end of a header block (its body)", "an indented body line is no continuation"),
        ("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\n\r\nSet-Cookie: b=2\r\n", ["Set-Cookie: a=1"],
         "1 line after the end of a header block (its body)", "a body line named Set-Cookie is no field"),
        ("HTTP/1.1 302 Found\r\nSet-Cookie: a=1\r\nLocation: /x\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: b=2\r\n\r\n<html>\r\n</html>\r\n",
         ["Set-Cookie: a=1", "Set-Cookie: b=2"], "2 lines after the end of a header block (its body)",
         "curl -i -L: a status line starts the next response's block"),
        ("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nno field here\r\n\r\n", ["Set-Cookie: a=1"],
         "1 line that is no header field", "a line of a block that is no field"),
        ("\nSet-Cookie: a=1\nServer: x\n", ["Set-Cookie: a=1"], nil, "fields without a status line, after an empty line"),
        ("Set-Cookie: a=1\n\nSet-Cookie: b=2\n", ["Set-Cookie: a=1", "Set-Cookie: b=2"], nil,
         "fields without a status line: an empty line separates them, and nothing is a body"),
        ("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\n\r\nHTTP/1.1 302 Found\r\n folded\r\n", ["Set-Cookie: a=1"],
         "1 line that is no header field", "a continuation right after a status line folds into no field of the block before"),
        ("* Connected to a.test\n> GET / HTTP/2\r\n> \r\n< HTTP/2 200 \r\n< set-cookie: a=1\r\n<\n{ [5 bytes data]\nok\n* Connection #0 left intact\n",
         ["Set-Cookie: a=1"], "1 line after the end of a header block (its body)",
         "curl -v output: the \"< \" lines are the block (a \"<\" alone its end), the body's lines are counted, curl's own are not"),
    ]

    /// The values a run explained: the lines of its output that quote one.
    static func explainedValues(_ run: ToolRun) -> [String] {
        run.stdout.split(separator: "\n").filter { $0.hasPrefix("Set-Cookie: ") }.map(String.init)
    }

    @Test(arguments: headerBlocks.indices)
    func aHeaderBlockEndsAtItsEmptyLine(_ index: Int) throws {
        let row = Self.headerBlocks[index]
        let run = try Tool.run(["explain", "--url", "https://a.test/", "--at", Self.at], stdin: row.input)
        #expect(run.status == 0, "\(row.source): \(run.stderr)")
        #expect(Self.explainedValues(run) == row.values, "\(row.source)")
        #expect(!run.stdout.contains("<html>"), "\(row.source)")
        let warning = row.warning.map { "cookiejar: warning: standard input: \($0) ignored\n" } ?? ""
        #expect(run.stderr == warning, "\(row.source)")
    }

    /// Several responses on standard input (`curl -i -L`) are the hops of a redirect chain from --url
    /// (`RedirectChain`): each one's Set-Cookie values are the response to its own URL, the Location
    /// resolved as a browser resolves it (RFC 9110 §10.2.2 and the WHATWG URL standard: relative
    /// references, dot segments); the method changes as RFC 9110 §15.4 says (a 303 makes a POST a GET, a
    /// 307 keeps it); once the chain left the site it started from, the hops are cross-site (§5.2, Fetch),
    /// so that a document's request (--site-for-cookies) stores only SameSite=None cookies there (§5.7
    /// step 18), where the client's own request, a top-level navigation, stores them all. A response that
    /// is no redirect (RFC 9110 §15.2: a 1xx is interim; a proxy's answer to CONNECT, §9.3.6) leaves the
    /// URL as it is. Every block's values were explained as the response to --url.
    static let redirectChains: [(arguments: [String], input: String, expected: [String], source: String)] = [
        (["--method", "POST"], "HTTP/1.1 303 See Other\r\nLocation: ./a/../b/./c?q=1\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: x=1; Path=/\r\n\r\n",
         ["Response 2 (200) from https://a.test/dir/b/c?q=1", "stored    host-only cookie of a.test, path /,"],
         "a relative Location with dot segments, after a 303 that makes the POST a GET"),
        (["--method", "POST"], "HTTP/1.1 307 Temporary Redirect\r\nLocation: /next\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: x=1\r\n\r\n",
         ["Response 2 (200) from https://a.test/next (POST)", "stored    host-only cookie of a.test, path /,"],
         "a 307 keeps the method"),
        (["--site-for-cookies", "https://a.test"], "HTTP/1.1 302 Found\r\nLocation: https://b.test/\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: lax=1\r\nSet-Cookie: none=1; SameSite=None; Secure\r\n\r\n",
         ["Response 2 (200) from https://b.test/", "rejected  a cross-site response that is not a top-level navigation cannot set a SameSite Strict, Lax or Default cookie [samesite-from-cross-site]",
          "stored    host-only cookie of b.test, path /, session cookie, Secure, SameSite=None"],
         "a document's request whose redirect left its site is cross-site"),
        ([], "HTTP/1.1 302 Found\r\nLocation: https://b.test/\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: lax=1; SameSite=Lax\r\n\r\n",
         ["Response 2 (200) from https://b.test/", "stored    host-only cookie of b.test, path /, session cookie, SameSite=Lax"],
         "the client's own request is a navigation, whose cross-site hops store SameSite cookies"),
        ([], "HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 302 Found\r\nLocation: /x\r\nLocation: /x\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: x=1\r\n\r\n",
         ["Response 1 (200) from https://a.test/dir/page, no Set-Cookie field", "Response 2 (100) from https://a.test/dir/page, no Set-Cookie field",
          "Response 3 (302) from https://a.test/dir/page, no Set-Cookie field", "Response 4 (200) from https://a.test/x",
          "stored    host-only cookie of a.test, path /,"],
         "a proxy's 200 and a 100 leave the URL as it is; a Location field repeated with the same value is one"),
    ]

    @Test(arguments: redirectChains.indices)
    func severalResponsesAreTheHopsOfARedirectChain(_ index: Int) throws {
        let row = Self.redirectChains[index]
        let run = try Tool.run(["explain", "--url", "https://a.test/dir/page", "--at", Self.at] + row.arguments, stdin: row.input)
        let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for expected in row.expected {
            #expect(lines.contains { $0.hasPrefix(expected) }, "\(row.source): \(expected)\n\(run.stdout)")
        }
        #expect(run.stderr.isEmpty, "\(row.source)")
    }

    /// A redirect that `RedirectChain` refuses (Fetch: a Location that is no HTTP(S) URL, more than 20
    /// redirects, several different Location values, each a network error) is said on stderr, exit 1, and
    /// the responses after it are not explained: where they came from is unknown.
    static let refusedRedirects: [(input: String, stderr: String, source: String)] = [
        // Fetch's HTTP-redirect fetch: "If locationURL is failure, then return a network error".
        ("HTTP/1.1 302 Found\r\nSet-Cookie: a=1\r\nLocation: http://[zz/\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: b=1\r\n\r\n",
         "redirect to \"http://[zz/\", which does not resolve to a URL: GET https://a.test/ → 302; the 1 response after it is not explained: its URL is unknown",
         "a Location that does not resolve"),
        ("HTTP/1.1 302 Found\r\nSet-Cookie: a=1\r\nLocation: ftp://a.test/x\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: b=1\r\n\r\n",
         "redirect to ftp://a.test/x, which is no http or https URL: GET https://a.test/ → 302; the 1 response after it is not explained: its URL is unknown",
         "a Location that is no http(s) URL"),
        ("HTTP/1.1 302 Found\r\nSet-Cookie: a=1\r\nLocation: /x\r\nLocation: /y\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: b=1\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
         "redirect with several different Location fields (\"/x\", \"/y\"): GET https://a.test/ → 302; the 2 responses after it are not explained: their URL is unknown",
         "several different Location fields"),
        ("HTTP/1.1 302 Found\r\nSet-Cookie: a=1\r\nLocation: /x\r\n\r\n" + String(repeating: "HTTP/1.1 302 Found\r\nLocation: /x\r\n\r\n", count: 20) + "HTTP/1.1 200 OK\r\nSet-Cookie: b=1\r\n\r\n",
         "more than 20 redirects: GET https://a.test/ → 302, " + Array(repeating: "GET https://a.test/x → 302", count: 20).joined(separator: ", ")
            + "; the 1 response after it is not explained: its URL is unknown",
         "more than 20 redirects"),
    ]

    @Test(arguments: refusedRedirects.indices)
    func aRefusedRedirectEndsTheExplanations(_ index: Int) throws {
        let row = Self.refusedRedirects[index]
        let run = try Tool.run(["explain", "--url", "https://a.test/", "--at", Self.at], stdin: row.input)
        #expect(run.status == 1, "\(row.source)")
        #expect(run.stderr == "cookiejar: " + row.stderr + "\n", "\(row.source)")
        #expect(Self.explainedValues(run) == ["Set-Cookie: a=1"], "\(row.source)")
    }

    /// Bytes on standard input that are not UTF-8 are read as U+FFFD, as a jar reads the line, and a
    /// warning says so and where: the explanation's length is that of the line with U+FFFD.
    @Test func standardInputThatIsNotUTF8IsSaidSo() throws {
        let run = try Tool.run(["explain", "--url", "https://a.test/"], stdinBytes: Data("a=caf".utf8) + [0xE9])
        #expect(run.status == 0)
        #expect(run.stderr.contains("cookiejar: warning: standard input is not UTF-8 (byte 5 on): each ill-formed sequence is read as U+FFFD"))
        #expect(run.stdout.contains("value \"caf\u{FFFD}\" (7 bytes)"))
        let valid = try Tool.run(["explain", "--url", "https://a.test/"], stdin: "a=café")
        #expect(!valid.stderr.contains("not UTF-8"))
    }

    /// Standard input that cannot be read (a directory given with `<`, a descriptor the shell closed with
    /// `<&-`) is unreadable input: one line naming it and why, exit 3, where Foundation's
    /// `readDataToEndOfFile()` crashed the tool (its `try!`, exit 132). This project's contract: bad
    /// input never crashes.
    @Test(arguments: [("< /tmp", "Is a directory"), ("<&-", "Bad file descriptor")])
    func standardInputThatCannotBeReadIsUnreadableInput(_ redirection: String, _ reason: String) throws {
        let run = try Tool.run(["explain", "--url", "https://a.test/"], stdinBytes: nil, shellWords: redirection)
        #expect(run.status == 3, "\(redirection)")
        #expect(run.stderr == "cookiejar: standard input: cannot read it: \(reason)\n", "\(redirection)")
        #expect(run.stdout.isEmpty)
    }

    @Test func exitCodes() throws {
        #expect(try Tool.run(["explain", "--at", Self.at, "--url", "https://a.test/", "a=1; Max-Age=9"]).status == 0)
        #expect(try Tool.run(["explain", "--at", Self.at, "--url", "https://a.test/", "a=1; Domain=test"]).status == 1)
        let usage = try Tool.run(["explain", "--url", "not a url", "a=1"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--url"))
        let empty = try Tool.run(["explain", "--url", "https://a.test/"], stdin: "")
        #expect(empty.status == 3)
        #expect(empty.stderr == "cookiejar: no Set-Cookie values given (arguments or standard input)\n")
        let noCookies = try Tool.run(["explain", "--url", "https://a.test/"], stdin: "HTTP/1.1 204 No Content\r\nServer: x\r\n\r\n")
        #expect(noCookies.status == 3)
        #expect(noCookies.stderr == "cookiejar: the response headers on standard input have no Set-Cookie field\n")
    }

    /// A --url that is no URL is a usage error of the subcommand given: its own usage follows the error
    /// (both validate the URL before they run), not the root command's, which names no option of it.
    @Test(arguments: [["explain", "--url", "nope", "a=b"], ["inspect", "Tests/Samples/app-jar.json", "--url", "nope"]])
    func aURLThatIsNoneIsAUsageErrorOfTheSubcommand(_ arguments: [String]) throws {
        let run = try Tool.run(arguments)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: --url: not an absolute http(s) URL: nope\nUsage: cookiejar \(arguments[0]) "), "\(run.stderr)")
    }

    /// A --url whose host is no host name (§5.1.2: IDNA, as a browser's URL parser, refuses it) says which
    /// host, the user information and port left out; a text that is no URL at all says so.
    @Test(arguments: [
        ("https://\u{FF45}xample.com/", "its host \"\u{FF45}xample.com\" is no host name (§5.1.2)"),  // fullwidth "ｅ": UTS #46 maps it
        // RFC 5892 A.2: U+200D after no virama; shown as an escape, which a terminal would not show.
        ("https://user:pw@a\u{200D}b.example:8443/x?q", "its host \"a\\u{200D}b.example\" is no host name (§5.1.2)"),
        ("http://[::1/", "its host \"[::1\" is no host name (§5.1.2)"),
        // Read by code points: a joiner or a mark after "@" or "/" is no part of the user information or path.
        ("https://user@\u{200D}x.example/", "its host \"\\u{200D}x.example\" is no host name (§5.1.2)"),
        ("https://a\u{200D}b.example/\u{301}x", "its host \"a\\u{200D}b.example\" is no host name (§5.1.2)"),
        ("https://example.com:80a/", "not an absolute http(s) URL"),  // the port, not the host
        ("https://[::1]x/", "not an absolute http(s) URL"),
        ("https://b%C3%BCcher.exa%00mple/", "not an absolute http(s) URL"),  // escapes: the host is not quoted
        ("example.com", "not an absolute http(s) URL"),
    ])
    func aURLWhoseHostIsNoHostNameSaysWhichHost(url: String, error: String) throws {
        let run = try Tool.run(["explain", "--url", url, "a=b"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: --url: \(error): "), "\(run.stderr)")
    }

    /// `--at` takes Unix seconds whose date, and that of an expiry up to 400 days later (the
    /// cookie-age-limit, §5.5), the tool writes as it is: `CookieTime.utc` holds dates to the years 1601
    /// through 9999 (§5.1.1's cookie-dates), so an instant in the year 1 was written as 1601-01-01 and an
    /// expiry beyond 9999-12-31 as that day. Anything else is a usage error (exit 2) whose help says the
    /// range and how a negative instant is written (ArgumentParser reads "-1" as an option), never a crash
    /// (a NaN made an Int64 conversion trap).
    @Test(arguments: ["nan", "inf", "-inf", "1e20", "-1e15", "tomorrow", "-62135596800", "-11644473601", "253367740800", "253402300799"])
    func atOutsideTheRangeIsAUsageError(_ at: String) throws {
        for command in [["explain", "--url", "https://a.test/", "a=1"], ["inspect", "Tests/Samples/app-jar.json"]] {
            let run = try Tool.run(command + ["--at=" + at])
            #expect(run.status == 2, "\(command[0]) --at \(at)")
            #expect(run.stderr.contains("--at <at>  "), "\(run.stderr)")
            #expect(run.stderr.contains("Unix seconds from -11644473600 (1601-01-01) to 253367740799 (9998-11-26); a negative one is written --at=-1."), "\(run.stderr)")
        }
    }

    /// The first and last instants `--at` takes, and the dates of a cookie's expiry from them, written as
    /// they are: the last with an expiry capped at 400 days (§5.5) on 9999-12-31, the last second a
    /// cookie-date can name (§5.1.1).
    @Test(arguments: [
        ("-11644473600", "a=1; Max-Age=10", "expires 1601-01-01 00:00:10 UTC (in 10 seconds)"),
        ("253367740799", "a=1; Max-Age=100000000", "expires 9999-12-31 23:59:59 UTC (in 13 months)"),
    ])
    func theEdgesOfAtWriteTheirDates(_ at: String, _ line: String, _ expected: String) throws {
        let run = try Tool.run(["explain", "--url", "https://a.test/", "--at=" + at, line])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(expected), "\(run.stdout)")
    }
}
