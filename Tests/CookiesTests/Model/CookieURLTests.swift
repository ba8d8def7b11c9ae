import Testing
@testable import Cookies

/// Request URLs and hosts as a browser's URL parser gives them (WHATWG URL Standard host parsing,
/// rfc6265bis-22 §5.1.2 canonical hosts).
struct CookieURLTests {
    @Test(arguments: [
        ("http://Example.COM/a/b?q#f", "http", "example.com", nil, "/a/b"),
        ("https://user:pw@h.test:8443", "https", "h.test", 8443, "/"),
        ("HTTP://h.test:80/x", "http", "h.test", 80, "/x"),
        ("http://[::1]:8080/", "http", "[::1]", 8080, "/"),
        ("http://[2001:DB8:0:0:0:0:0:1]/", "http", "[2001:db8::1]", nil, "/"),
        ("http://[::ffff:192.168.0.1]/", "http", "[::ffff:c0a8:1]", nil, "/"),
        ("http://[::ffff:0.0.0.0]/", "http", "[::ffff:0:0]", nil, "/"),
        ("http://[1:2:3:4:5:6:255.255.255.255]/", "http", "[1:2:3:4:5:6:ffff:ffff]", nil, "/"),
        ("http://127.1/", "http", "127.0.0.1", nil, "/"),
        ("http://0x7f.0.0.1/", "http", "127.0.0.1", nil, "/"),
        ("http://2130706433/", "http", "127.0.0.1", nil, "/"),
        ("http://example.com./", "http", "example.com.", nil, "/"),
        ("http://bücher.example/", "http", "xn--bcher-kva.example", nil, "/"),
        // UTS #46 nontransitional processing keeps U+200C where RFC 5892 Appendix A.1 allows it (IDNATests).
        ("https://\u{0646}\u{06CC}\u{0645}\u{200C}\u{0641}\u{0627}\u{0635}\u{0644}\u{0647}.ir/", "https", "xn--mgb2a8aobfm27hh82m.ir", nil, "/"),
        ("http://h.test/a%2Fb", "http", "h.test", nil, "/a%2Fb"),
        ("http://h.test?x", "http", "h.test", nil, "/"),
        ("hTTpS://h.test/", "https", "h.test", nil, "/"),
        ("WSS://h.test/", "wss", "h.test", nil, "/"),
        ("httpx://h.test/", "httpx", "h.test", nil, "/"),
        ("http+unix://h.test/", "http+unix", "h.test", nil, "/"),
        // Canonical as written, read in place: the path starts after the port's colon and digits, or at the
        // authority's end when there is none (an empty port is none, WHATWG URL port state).
        ("http://h.test:/a", "http", "h.test", nil, "/a"),
        ("http://h.test:8080", "http", "h.test", 8080, "/"),
        ("http://h.test:65535?q", "http", "h.test", 65535, "/"),
        ("http://h.test:0/x", "http", "h.test", 0, "/x"),
        ("http://h.test:00080/x", "http", "h.test", 80, "/x"),
        // RFC 3986 §3.2.3 `port = *DIGIT`, WHATWG URL port state: any number of leading zeros; more digits
        // than five take the rebuilt text.
        ("http://b.test:000080/x", "http", "b.test", 80, "/x"),
        ("http://B.test:000000000000000000000443?q", "http", "b.test", 443, "/"),
        ("http://b.test:00000000000000000000065535/", "http", "b.test", 65535, "/"),
        // WHATWG URL (path state, special schemes): a backslash is a "/", also where it ends the host.
        ("http://h.test\\foo\\bar?q\\x", "http", "h.test", nil, "/foo/bar"),
        ("wss://h.test/a\\b", "wss", "h.test", nil, "/a/b"),
        ("httpx://h.test/a\\b", "httpx", "h.test", nil, "/a\\b"),
        // WHATWG URL: TAB, LF and CR are removed; the rest of the path percent-encode set is percent-encoded
        // in a path of any scheme (the C0 controls, every code point above U+007E as its UTF-8 bytes, SP,
        // U+0022, "<", ">", "^", "`", "{", "}"), as a request line carries them; "%" and the other ASCII
        // bytes ("|", "'", "[", "]", …) stay as written.
        ("http://h.test/a\u{01}b/c\u{1F}", "http", "h.test", nil, "/a%01b/c%1F"),
        ("http://h.test/a\tb\nc\rd?q", "http", "h.test", nil, "/abcd"),
        ("http://h.test/\u{7F}x\u{00}", "http", "h.test", nil, "/%7Fx%00"),
        ("httpx://h.test/a\u{1B}\\b", "httpx", "h.test", nil, "/a%1B\\b"),
        ("https://h.test/caf\u{E9}\u{7F}", "https", "h.test", nil, "/caf%C3%A9%7F"),
        ("http://h.test/a b/\"q\"/<t>", "http", "h.test", nil, "/a%20b/%22q%22/%3Ct%3E"),
        ("http://h.test/^`{}/x", "http", "h.test", nil, "/%5E%60%7B%7D/x"),
        ("http://h.test/%20|'[]!$&()*+,;=:@~", "http", "h.test", nil, "/%20|'[]!$&()*+,;=:@~"),
        ("http://h.test/\u{1F36A}?\u{E9}", "http", "h.test", nil, "/%F0%9F%8D%AA"),
        ("foo://h.test/a b", "foo", "h.test", nil, "/a%20b"),
        // WHATWG URL host parser: the host is percent-decoded (as UTF-8) before IDNA, as Foundation's URL.host
        // reads it too.
        ("https://b%C3%BCcher.example/", "https", "xn--bcher-kva.example", nil, "/"),
        ("http://%65xample.COM/a", "http", "example.com", nil, "/a"),
        ("http://127.0.0.%31/", "http", "127.0.0.1", nil, "/"),
    ] as [(String, String, String, Int?, String)])
    func parses(text: String, scheme: String, host: String, port: Int?, path: String) throws {
        let parsed = try #require(CookieURL(text))
        #expect(parsed.scheme == scheme)
        #expect(parsed.host.name == host)
        #expect(parsed.port == port)
        #expect(parsed.path == path)
    }

    /// A cookie received from a URL whose path holds a byte of the path percent-encode set (a control
    /// character, SP, a non-ASCII letter) takes the percent-encoded path for its default-path
    /// (rfc6265bis-22 §5.1.4 works on the path the request carries, which holds them encoded, as a
    /// browser's URL parser writes them), goes back to that URL written either way, and is a cookie
    /// `insert` takes (an export imported again), as every cookie a jar receives must be.
    @Test(arguments: [
        ("https://example.com/a\u{01}b/c", "/a%01b", "https://example.com/a%01b/d"),
        ("https://example.com/my docs/page", "/my%20docs", "https://example.com/my%20docs/other"),
        ("https://example.com/caf\u{E9}/menu", "/caf%C3%A9", "https://example.com/caf%C3%A9/"),
    ])
    func aCookieFromAnEncodedPathIsOneInsertTakes(received: String, defaultPath: String, encoded: String) throws {
        let jar = CookieJar(publicSuffixList: PublicSuffixRules(parsing: "com"))
        let url = try #require(CookieURL(received))
        #expect(jar.setCookie("a=1", from: url).rejection == nil)
        let cookie = try #require(jar.allCookies().first)
        #expect(cookie.path == defaultPath)
        #expect(jar.cookieHeader(for: url) == "a=1")
        #expect(jar.cookieHeader(for: try #require(CookieURL(encoded))) == "a=1")
        let other = CookieJar(publicSuffixList: PublicSuffixRules(parsing: "com"))
        #expect(other.insert(cookie).rejection == nil)
    }

    /// A URL is four words (its text and `Layout`): the most Swift returns in registers, so that dropping
    /// an optional one (`CookieURL(_:)`'s result) costs a release, not a call through value witnesses.
    @Test func urlIsFourWords() {
        #expect(MemoryLayout<CookieURL>.size == 32)
        #expect(MemoryLayout<CookieURL?>.size == 32)
    }

    /// A URL made from parts holds a port of 0-65535, as a parsed one does (RFC 3986 §3.2.3, WHATWG URL
    /// port state); another traps.
    @Test func builtURLsTakePortsOfSixteenBits() async {
        #expect(CookieURL(scheme: "http", host: CanonicalHost("h.test")!, port: 65535).port == 65535)
        #expect(CookieURL(scheme: "http", host: CanonicalHost("h.test")!, port: 0).origin == "http://h.test:0")
        #expect(CookieURL("http://h.test:65536/") == nil)
        await #expect(processExitsWith: .failure) {
            _ = CookieURL(scheme: "http", host: CanonicalHost("h.test")!, port: 65536)
        }
    }

    /// A URL made from parts with a path that does not start with "/" gets one: the path never runs on
    /// from the host ("https://example.comfoo", which reads back as another host).
    @Test(arguments: [("foo", "/foo"), ("", "/"), ("/a", "/a")])
    func builtURLsPathsStartWithASlash(_ path: String, _ expected: String) {
        let built = CookieURL(scheme: "https", host: CanonicalHost("example.com")!, path: path)
        #expect(built.path == expected)
        #expect(CookieURL(built.description)?.host.name == "example.com")
        #expect(built.description == "https://example.com" + expected)
    }

    /// Every ASCII byte inside, before and after a label of a URL's host, and at each position of a
    /// 17-byte host (read as two words and an overlapping third): the host recognised on the URL's bytes
    /// as canonical is exactly the full canonicalisation's result (WHATWG URL host parsing; bytes that end
    /// the authority or start a port are left out).
    @Test func everyASCIIByteInAHostGivesTheFullCanonicalisation() {
        let long = Array("abcdefgh.ijklmnop".utf8)
        for byte in UInt8(0)...UInt8(127) where !"/?#\\@:[]".utf8.contains(byte) {
            let character = String(decoding: [byte], as: UTF8.self)
            var hosts = ["a\(character)b.test", "\(character)x.example", "h.test\(character)", "1.2.3\(character)", "\(character)"]
            for position in long.indices {
                var host = long
                host[position] = byte
                hosts.append(String(decoding: host, as: UTF8.self))
            }
            for host in hosts {
                #expect(
                    CookieURL("http://" + host + "/")?.host == CanonicalHost(canonicalising: host),
                    "byte \(byte) in \(host.debugDescription)")
            }
        }
    }

    /// The path ends at the first "?" or "#" wherever it stands (read eight bytes at a time, then one by
    /// one): each at every position of a path of 21 bytes, after ASCII and after non-ASCII bytes (WHATWG
    /// URL: the query starts at "?", the fragment at "#"; "\u{E9}" is percent-encoded in the path).
    @Test(arguments: ["?", "#"])
    func pathEndsAtTheFirstQueryOrFragmentByte(stop: String) throws {
        for (filler, encoded) in [("a", "a"), ("\u{E9}", "%C3%A9")] {
            for position in 0...20 {
                let path = "/" + String(repeating: filler, count: position)
                let parsed = try #require(CookieURL("http://h.test" + path + stop + "x?y#z/"))
                #expect(parsed.path == "/" + String(repeating: encoded, count: position), "\(stop) after \(position) of \(filler)")
            }
        }
    }

    /// Hosts longer than a word, with a port, user information or upper case: the same host as the full
    /// canonicalisation gives (the authority is read eight bytes at a time while its bytes are those of a
    /// canonical name).
    @Test(arguments: [
        ("http://abcdefghijklmnop.example:8080/x", "abcdefghijklmnop.example", 8080),
        ("http://abcdefgh:8080/x", "abcdefgh", 8080), ("http://abcdefgh.ijklmnop.test/", "abcdefgh.ijklmnop.test", nil),
        ("http://user:pw@abcdefghijklmnop.test:81/", "abcdefghijklmnop.test", 81),
        ("http://u@ABCDEFGHIJKLMNOP.TEST/", "abcdefghijklmnop.test", nil),
        ("http://abcdefghijklmnop.1/", nil, nil), ("http://abcdefgh.ijklmn.1.2/", nil, nil),
        ("http://abcdefghijklmnopq.test.:443", "abcdefghijklmnopq.test.", 443),
    ] as [(String, String?, Int?)])
    func longHosts(text: String, host: String?, port: Int?) {
        let url = CookieURL(text)
        #expect(url?.host.name == host)
        if host != nil { #expect(url?.port == port) }
    }

    /// A parsed URL reads its path out of the text it was given; one made from parts holds the path
    /// itself. Either way the same scheme, host, port and path make equal URLs with equal hashes, and a
    /// path differing only in its bytes (precomposed "é" against "e" + U+0301, which String equality
    /// would call equal) makes another URL: paths are compared as sent (rfc6265bis-22 §5.1.4).
    @Test(arguments: [
        ("https://h.test:8443/a/b?q", CookieURL(scheme: "https", host: CanonicalHost("h.test")!, port: 8443, path: "/a/b"), true),
        ("http://h.test", CookieURL(scheme: "http", host: CanonicalHost("h.test")!), true),
        ("http://h.test/caf\u{E9}", CookieURL(scheme: "http", host: CanonicalHost("h.test")!, path: "/cafe\u{301}"), false),
        ("http://h.test/a", CookieURL(scheme: "http", host: CanonicalHost("h.test")!, path: "/a/"), false),
        ("http://h.test:81/a", CookieURL(scheme: "http", host: CanonicalHost("h.test")!, path: "/a"), false),
    ])
    func parsedAndBuiltURLsCompareByParts(text: String, built: CookieURL, equal: Bool) throws {
        let parsed = try #require(CookieURL(text))
        #expect((parsed == built) == equal)
        if equal { #expect(parsed.hashValue == built.hashValue) }
    }

    /// The default-path (rfc6265bis-22 §5.1.4) of the path of a parsed URL, read in place.
    @Test(arguments: [
        ("http://h.test/a/b/c?x=/y", "/a/b"), ("http://h.test/a", "/"), ("http://h.test", "/"), ("http://h.test/", "/"),
        ("http://h.test/\u{E9}t\u{E9}/x", "/%C3%A9t%C3%A9"), ("http://h.test//", "/"),
    ])
    func defaultPathOfAParsedURL(text: String, expected: String) throws {
        let url = try #require(CookieURL(text))
        #expect(url.withPathBytes { String(decoding: CookiePath.defaultPath(of: $0), as: UTF8.self) } == expected)
    }

    /// The common-case shortcut of `CanonicalHost(_:)` (plain lower-case names) gives exactly what the
    /// full canonicalisation gives: checked on every host of up to four characters over an alphabet that
    /// reaches each branch (letters of both cases, digits, separators, IPv4 and IPv6 syntax, a forbidden
    /// code point, a non-ASCII letter), plus longer names around the IPv4 rule.
    @Test func shortcutAgreesWithFullCanonicalisation() {
        let alphabet = ["a", "Z", "x", "0", "7", ".", "-", "_", ":", "[", "]", "%", "ü"]
        var hosts = [
            "example.com", "www.example.com.", "a.b.c.1", "a.b.c.1.", "a.0x1", "a..", "1a.b", "b.1a", "xn--bcher-kva.example",
            "www.example.com.1", "www.example.com.1.", "longer-label.example.\u{FC}", "longer_label.EXAMPLE.com",
        ]
        var level = [""]
        for _ in 0..<4 {
            level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
            hosts += level
        }
        for host in hosts {
            let full = CanonicalHost(canonicalising: host)
            #expect(CanonicalHost(host) == full, "\(host)")
        }
    }

    @Test(arguments: [
        "", "example.com", "http:/example.com", "http://", "http://exa mple.com/", "http://h.test:99999/",
        "http://h.test:0065536/", "http://h.test:99999999999999999999999/",
        "http://h.test:x/", "http://h.test:-1/", "http://h.test:+80/", "http://[::1/", "http://[1:2:3:4:5:6:7:8:9]/", "http://1.2.3.256/", "http://www.fancy.1.2.3.4/",
        "http://a<b/", "1http://h.test/",
        // Percent-decoded hosts (WHATWG URL host parser) are checked as decoded: a decoded "/" is a forbidden
        // host code point; a malformed escape leaves a "%", one too; octets that are no UTF-8 make no host.
        "http://ex%2Fample.com/", "http://ex%zzample.com/", "http://ex%4/", "http://%C3%28.com/",
        // WHATWG URL IPv6 parser: the IPv4 part is four decimal numbers of 0-255 without leading zeros (no
        // octal, hexadecimal or shortened forms, which a host's IPv4 address may have).
        "http://[::ffff:010.0.0.1]/", "http://[::ffff:1.0x2.3.4]/", "http://[::ffff:1.2.3]/", "http://[::ffff:1.2.3.256]/",
        "http://[::ffff:1.2.3.4.]/", "http://[::ffff:1..3.4]/",
        // RFC 3986 §3.2.2: an IPv6 address in a URL is inside brackets; without them, the port is taken from
        // after the last ":" and the rest is no host (a ":" is a forbidden host code point, WHATWG URL).
        "http://::1:80/", "http://fe80::1:8080/x", "http://2001:db8::1:443/", "http://::1%3A80/",
        // WHATWG URL host parser: the IPv6 path is taken only for a host written with "["; percent-encoded
        // brackets decode to forbidden host code points ("[::1]" would be a loopback host, which is secure).
        "http://%5B::1%5D:80/", "http://%5b::1%5d:/x", "http://%5B%3A%3A1%5D/", "http://a%5Bb/", "http://a%5Db/",
    ])
    func rejects(text: String) {
        #expect(CookieURL(text) == nil)
    }

    @Test(arguments: [
        ("https://h.test/", true), ("wss://h.test/", true), ("http://h.test/", false), ("ws://h.test/", false),
        ("http://localhost/", true), ("http://LOCALHOST./", true), ("http://a.b.localhost/", true),
        ("http://127.0.0.1/", true), ("http://127.255.0.9/", true), ("http://128.0.0.1/", false),
        ("http://[::1]/", true), ("http://[::2]/", false), ("http://localhost.evil.test/", false),
        ("http://evillocalhost/", false), ("http://a.evillocalhost./", false), ("http://localhos/", false),
        ("http://a.localhost../", false), ("http://.localhost/", true),
    ])
    func secureChannels(text: String, secure: Bool) throws {
        #expect(try #require(CookieURL(text)).isSecure == secure)
    }

    /// A parsed URL whose host is canonical as written reads the host from its own text; any other URL
    /// holds a host of its own. Either way the host's bytes are its canonical name (WHATWG URL host
    /// parsing), read alone or beside the path's, and the host equals and hashes as the same host made
    /// from its name.
    @Test(arguments: [
        ("https://www.example.com/a/b?q", "www.example.com", "/a/b"), ("http://user@h.test:81/p#f", "h.test", "/p"),
        ("http://WWW.Example.COM/x", "www.example.com", "/x"), ("http://h.test", "h.test", "/"),
        ("http://127.1/p", "127.0.0.1", "/p"), ("http://[0:0::1]/p", "[::1]", "/p"), ("http://b\u{FC}cher.test/",
        "xn--bcher-kva.test", "/"), ("http://h.test./a", "h.test.", "/a"),
    ])
    func hostAndPathBytes(text: String, host: String, path: String) throws {
        let url = try #require(CookieURL(text))
        #expect(url.host.name == host)
        #expect(url.host.withNameBytes { String(decoding: $0, as: UTF8.self) } == host)
        let both = url.withHostAndPathBytes { (String(decoding: $0, as: UTF8.self), String(decoding: $1, as: UTF8.self)) }
        #expect(both == (host, path))
        let own = try #require(CanonicalHost(host))
        #expect(url.host == own)
        #expect(url.host.hashValue == own.hashValue)
    }

    /// A URL made from parts keeps a scheme other than the four of HTTP as given, lower-cased, whatever
    /// its text (the parser admits only ASCII schemes; the parts initialiser takes any String).
    @Test(arguments: [("X-Scheme", "x-scheme"), ("caf\u{C9}", "caf\u{E9}"), ("HTTPS", "https")])
    func schemeOfAURLMadeFromParts(scheme: String, expected: String) throws {
        let url = CookieURL(scheme: scheme, host: try #require(CanonicalHost("h.test")))
        #expect(url.scheme == expected)
        #expect(url.description == expected + "://h.test/")
    }

    @Test(arguments: [("127.0.0.1", CanonicalHost.Kind.ipv4), ("[::1]", .ipv6), ("::1", .ipv6), ("h.test", .domain)])
    func hostKinds(text: String, kind: CanonicalHost.Kind) throws {
        #expect(try #require(CanonicalHost(text)).kind == kind)
    }

    /// URLs are equal when their scheme, host, port and path are (`CookieURL.==`, which compares the bytes
    /// of the text a word at a time): every pair of these, whose parts differ at the first, a middle or the
    /// last byte, in length, or only in what equality ignores (case the parser folds, a query, a fragment,
    /// user info, an empty path for "/"), compares as its parts do, and equal URLs hash alike.
    @Test func equalityIsThatOfSchemeHostPortAndPath() throws {
        let texts = [
            "http://h.test/", "http://h.test", "HTTP://H.TEST/?q#f", "http://u:p@h.test/", "https://h.test/",
            "ws://h.test/", "httpx://h.test/", "httpy://h.test/", "http://h.test:80/", "http://h.test:8080/",
            "http://g.test/", "http://h.tesu/", "http://h.test.example/", "http://[::1]/", "http://127.0.0.1/",
            "http://h.test/a", "http://h.test/b", "http://h.test/account/settings/privacy",
            "http://h.test/account/settings/privacz", "http://h.test/bccount/settings/privacy",
            "http://h.test/account/sextings/privacy", "http://h.test/account/settings/privacy/",
            "http://h.test/account/settings/privacy?tab=1", "http://h.test/%C3%A9",
        ]
        let urls = try texts.map { try #require(CookieURL($0), "\($0)") }
        func parts(_ url: CookieURL) -> [String] { [url.scheme, url.host.name, url.port.map(String.init) ?? "", url.path] }
        for (left, leftText) in zip(urls, texts) {
            for (right, rightText) in zip(urls, texts) {
                #expect((left == right) == (parts(left) == parts(right)), "\(leftText) and \(rightText)")
                if left == right { #expect(left.hashValue == right.hashValue, "\(leftText) and \(rightText)") }
            }
        }
    }
}
