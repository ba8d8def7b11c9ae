import Testing
@testable import Cookies

/// rfc6265bis-22 §5.7 steps 1–22 on their own (`CookieReceivingRules.validate`): the fields of the
/// `ValidatedCookie` each line gives, or the step that rejects it, and the questions asked of the store.
struct CookieReceivingRulesTests {
    /// What a validated cookie holds, as plain values.
    struct Fields: Equatable, CustomStringConvertible {
        var name: String
        var value: String
        var domain: String
        var isHostOnly: Bool
        var path: String
        /// nil for a session cookie.
        var expiry: CookieTime? = nil
        var isSecure = false
        var isHTTPOnly = false
        var sameSite = SameSite.default
        var partitionKey: String? = nil
        var isSourceSecure = false
        var sourcePort: Int? = nil
        var isFromNonHTTPAPI = false

        init(
            _ name: String, _ value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
            expiry: CookieTime? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite = .default,
            partitionKey: String? = nil, isSourceSecure: Bool = false, sourcePort: Int? = nil, isFromNonHTTPAPI: Bool = false
        ) {
            (self.name, self.value, self.domain, self.isHostOnly, self.path) = (name, value, domain, isHostOnly, path)
            (self.expiry, self.isSecure, self.isHTTPOnly, self.sameSite) = (expiry, isSecure, isHTTPOnly, sameSite)
            (self.partitionKey, self.isSourceSecure, self.sourcePort) = (partitionKey, isSourceSecure, sourcePort)
            self.isFromNonHTTPAPI = isFromNonHTTPAPI
        }

        init(_ cookie: borrowing ValidatedCookie) {
            func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
            self.init(
                text(cookie.name), text(cookie.value), domain: text(cookie.domain), isHostOnly: cookie.isHostOnly,
                path: text(cookie.path),
                expiry: cookie.expiry,
                isSecure: cookie.isSecure, isHTTPOnly: cookie.isHTTPOnly, sameSite: cookie.sameSite,
                partitionKey: cookie.partitionKey.map(text), isSourceSecure: cookie.isSourceSecure,
                sourcePort: cookie.sourcePort, isFromNonHTTPAPI: cookie.isFromNonHTTPAPI)
        }

        var description: String { "\(name)=\(value) \(domain)\(isHostOnly ? " host-only" : "") \(path)" }
    }

    struct Row: CustomTestStringConvertible, Sendable {
        var from: String
        var line: String
        var context = CookieRequestContext()
        /// Names of Secure cookies the store holds (step 16 finds them for any domain and path).
        var secureNames: Set<String> = []
        var expected: Result<Fields, CookieRejection>
        var source: String
        var testDescription: String { "\(source): \(line) from \(from)" }
    }

    /// The store's side of the rules: the public suffix list of a real store, and Secure cookies named in
    /// the row. It records the step 16 questions.
    struct Store: CookieStoreQueries {
        var store = CookieStore(publicSuffixList: testPublicSuffixList, limits: .default)
        var secureNames: Set<String>
        var shadowQuestions: [String] = []

        mutating func siteKey(of host: CanonicalHost) -> String { store.siteKey(of: host) }

        mutating func isPublicSuffix(domainAttribute domain: UnsafeBufferPointer<UInt8>) -> Bool {
            store.isPublicSuffix(domainAttribute: domain)
        }

        mutating func siteKeyLength(ofHost host: UnsafeBufferPointer<UInt8>) -> Int { store.siteKeyLength(ofHost: host) }

        mutating func hasSecureCookie(
            shadowedBy name: UnsafeBufferPointer<UInt8>, domain: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>,
            now: CookieTime
        ) -> Bool {
            let name = String(decoding: name, as: UTF8.self)
            shadowQuestions.append("\(name) \(String(decoding: domain, as: UTF8.self)) \(String(decoding: path, as: UTF8.self))")
            return secureNames.contains(name)
        }
    }

    static let crossSite = CookieRequestContext(siteForCookies: .origin(url("https://other.test")))
    static let underShop = CookieRequestContext(partition: url("https://shop.example.com/cart"))
    static let day: Int64 = 24 * 60 * 60

    static let rows: [Row] = [
        Row(from: "https://www.example.com/a/b", line: "sid=1", expected: .success(Fields("sid", "1", domain: "www.example.com", path: "/a", isSourceSecure: true)),
            source: "§5.7 steps 5, 10, 11: host-only, default-path of the request-uri"),
        Row(from: "ftp://www.example.com/", line: "a=b", expected: .failure(.unsupportedScheme), source: "§5.7 step 1: only HTTP-family responses"),
        Row(from: "http://www.example.com:8080/", line: "a=b; Max-Age=60", expected: .success(Fields("a", "b", domain: "www.example.com", expiry: testEpoch.adding(seconds: 60), sourcePort: 8080)),
            source: "§5.7 step 6: Max-Age; the explicit port is the source port"),
        Row(from: "http://www.example.com/", line: "a=b; Max-Age=0", expected: .success(Fields("a", "b", domain: "www.example.com", expiry: .distantPast)),
            source: "§5.7 step 6, §5.6.2: Max-Age 0 is the earliest time"),
        Row(from: "http://www.example.com/", line: "a=b; Max-Age=999999999", expected: .success(Fields("a", "b", domain: "www.example.com", expiry: testEpoch.adding(seconds: 400 * day))),
            source: "§5.7 step 6, §5.5: capped at the 400-day cookie-age-limit"),
        Row(from: "http://www.example.com/", line: "a=b; Expires=Thu, 02 Jan 2025 00:00:00 GMT; Max-Age=10", expected: .success(Fields("a", "b", domain: "www.example.com", expiry: testEpoch.adding(seconds: 10))),
            source: "§5.7 step 6: Max-Age wins over Expires"),
        Row(from: "http://www.example.com/", line: "a=b; Expires=Thu, 02 Jan 2025 00:00:00 GMT", expected: .success(Fields("a", "b", domain: "www.example.com", expiry: testEpoch.adding(seconds: day))),
            source: "§5.7 step 6: Expires"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=EXAMPLE.com", expected: .success(Fields("a", "b", domain: "example.com", isHostOnly: false)),
            source: "§5.7 step 7, §5.6.3: the Domain attribute, lower-cased"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=ex\u{E4}mple.com", expected: .failure(.domainNotASCII), source: "§5.7 step 8: a Domain outside CHAR"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=com", expected: .failure(.domainIsPublicSuffix), source: "§5.7 step 9: a public suffix as Domain"),
        Row(from: "http://co.uk/", line: "a=b; Domain=co.uk", expected: .success(Fields("a", "b", domain: "co.uk")),
            source: "§5.7 step 9: a public suffix equal to the request-host makes a host-only cookie"),
        Row(from: "http://www.example.com/", line: "a=b; Domain=other.com", expected: .failure(.domainMismatch), source: "§5.7 step 10: the host must domain-match"),
        Row(from: "http://192.168.0.1/", line: "a=b; Domain=168.0.1", expected: .failure(.domainMismatch), source: "§5.7 step 10, §5.1.3: no suffix match for IP addresses"),
        Row(from: "http://www.example.com/a/b", line: "a=b; Path=/x/y", expected: .success(Fields("a", "b", domain: "www.example.com", path: "/x/y")),
            source: "§5.7 step 11: the Path attribute"),
        Row(from: "http://www.example.com/", line: "a=b; Secure", expected: .failure(.secureFromInsecureOrigin), source: "§5.7 step 13: Secure from an insecure origin"),
        Row(from: "https://www.example.com/", line: "a=b; Secure; HttpOnly", expected: .success(Fields("a", "b", domain: "www.example.com", isSecure: true, isHTTPOnly: true, isSourceSecure: true)),
            source: "§5.7 steps 12, 14: the secure-only and http-only flags"),
        Row(from: "https://www.example.com/", line: "a=b; HttpOnly", context: .init(api: .nonHTTP), expected: .failure(.httpOnlyFromNonHTTPAPI), source: "§5.7 step 15: HttpOnly from a non-HTTP API"),
        Row(from: "http://www.example.com/", line: "sid=1", secureNames: ["sid"], expected: .failure(.wouldShadowSecureCookie), source: "§5.7 step 16: an insecure origin would shadow a Secure cookie"),
        Row(from: "https://www.example.com/", line: "sid=1", secureNames: ["sid"], expected: .success(Fields("sid", "1", domain: "www.example.com", isSourceSecure: true)),
            source: "§5.7 step 16: only for insecure origins"),
        Row(from: "https://www.example.com/", line: "a=b; SameSite=Lax", context: crossSite, expected: .failure(.sameSiteFromCrossSite), source: "§5.7 step 18: Lax from a cross-site subresource"),
        Row(from: "https://www.example.com/", line: "a=b; SameSite=None; Secure", context: crossSite, expected: .success(Fields("a", "b", domain: "www.example.com", isSecure: true, sameSite: .none, isSourceSecure: true)),
            source: "§5.7 step 17: SameSite=None may be set cross-site"),
        Row(from: "https://www.example.com/", line: "a=b; SameSite=Strict", expected: .success(Fields("a", "b", domain: "www.example.com", sameSite: .strict, isSourceSecure: true)),
            source: "§5.7 step 17: the same-site-flag"),
        Row(from: "https://www.example.com/", line: "a=b; SameSite=None", expected: .failure(.sameSiteNoneWithoutSecure), source: "§5.7 step 19: SameSite=None needs Secure"),
        Row(from: "https://www.example.com/", line: "__Secure-a=b", expected: .failure(.securePrefixViolation), source: "§5.7 step 20: __Secure- needs Secure"),
        Row(from: "https://www.example.com/", line: "__Host-a=b; Secure; Path=/; Domain=www.example.com", expected: .failure(.hostPrefixViolation), source: "§5.7 step 21: __Host- must be host-only"),
        Row(from: "https://www.example.com/", line: "__Host-a=b; Secure; Path=/", expected: .success(Fields("__Host-a", "b", domain: "www.example.com", isSecure: true, isSourceSecure: true)),
            source: "§5.7 step 21: a valid __Host- cookie"),
        Row(from: "https://www.example.com/", line: "=__Host-a", expected: .failure(.namelessWithPrefix), source: "§5.7 step 22: a nameless cookie posing as __Host-"),
        Row(from: "https://www.example.com/", line: "a=b; Partitioned", expected: .failure(.partitionedWithoutSecure), source: "CHIPS §2.1: Partitioned needs Secure"),
        Row(from: "https://widgets.test/", line: "a=b; Secure; Partitioned; SameSite=None", context: underShop,
            expected: .success(Fields("a", "b", domain: "widgets.test", isSecure: true, sameSite: .none, partitionKey: "https://example.com", isSourceSecure: true)),
            source: "CHIPS §2.1: the partition key is the top-level site"),
        Row(from: "https://www.example.com/", line: "a=b", context: .init(api: .nonHTTP), expected: .success(Fields("a", "b", domain: "www.example.com", isSourceSecure: true, isFromNonHTTPAPI: true)),
            source: "§5.7 step 23.2 reads which API set the cookie"),
    ]

    /// A Domain attribute from an IP address host. §5.7 step 10 needs the request-host to domain-match
    /// it, and for an IP address §5.1.3 leaves one way: "The domain string and the string are
    /// identical"; §5.6.3 only removes a leading "." and lower-cases the attribute, so another spelling
    /// of the address (IPv6 compressed otherwise, without its brackets, IPv4 in a short or hexadecimal
    /// form) is no match. Chromium (`cookie_util::GetCookieDomainWithString`) compares an IP host,
    /// `GURL::host()`, brackets included, with the attribute as written, case-insensitively, with or
    /// without a leading "."; the attribute canonicalised as a host serves only its registrable-domain
    /// check, which an IP address fails (the attribute as written is compared again there). Firefox
    /// (`CookieValidation::CheckDomain`) requires an exact match with the host
    /// (`GetHostOrIPv6WithBrackets`), the attribute lower-cased and its leading "." removed. Both then store
    /// the cookie host-only; the draft's step 10 sets the host-only-flag to false, as the rows expect (the
    /// Conformance article). (Loopback addresses are secure origins here.)
    static let ipAddressDomainRows: [Row] = [
        Row(from: "http://[::1]/", line: "a=b; Domain=[::1]", expected: .success(Fields("a", "b", domain: "[::1]", isHostOnly: false, isSourceSecure: true)),
            source: "§5.1.3: identical; Chromium and Firefox: the host, brackets included"),
        Row(from: "http://[::1]/", line: "a=b; Domain=.[::1]", expected: .success(Fields("a", "b", domain: "[::1]", isHostOnly: false, isSourceSecure: true)),
            source: "§5.6.3: the leading dot is removed; Chromium and Firefox ignore it"),
        Row(from: "http://[::1]/", line: "a=b; Domain=[0:0::1]", expected: .failure(.domainMismatch),
            source: "§5.1.3: the same address, not the identical string; Chromium and Firefox compare it as written"),
        Row(from: "http://[::1]/", line: "a=b; Domain=::1", expected: .failure(.domainMismatch),
            source: "§5.1.3: without brackets, not identical; Chromium's and Firefox's host keep them"),
        Row(from: "http://[2001:db8::1]/", line: "a=b; Domain=[2001:DB8::1]", expected: .success(Fields("a", "b", domain: "[2001:db8::1]", isHostOnly: false)),
            source: "§5.6.3: lower-cased, then identical; Chromium compares case-insensitively, Firefox lower-cases"),
        Row(from: "http://[2001:db8::1]/", line: "a=b; Domain=[2001:DB8:0::1]", expected: .failure(.domainMismatch),
            source: "§5.1.3, §5.6.3: lower-casing only, no compression; Chromium and Firefox compare it as written"),
        Row(from: "http://[2001:db8::1]/", line: "a=b; Domain=[2001:0db8::1]", expected: .failure(.domainMismatch),
            source: "§5.1.3: a leading zero kept, not identical; Chromium and Firefox compare it as written"),
        Row(from: "http://[2001:db8::1]/", line: "a=b; Domain=2001:db8::1", expected: .failure(.domainMismatch),
            source: "§5.1.3: without brackets, not identical; Chromium's and Firefox's host keep them"),
        Row(from: "http://127.0.0.1/", line: "a=b; Domain=127.0.0.1", expected: .success(Fields("a", "b", domain: "127.0.0.1", isHostOnly: false, isSourceSecure: true)),
            source: "§5.1.3: identical; Chromium and Firefox: the host"),
        Row(from: "http://127.0.0.1/", line: "a=b; Domain=127.1", expected: .failure(.domainMismatch),
            source: "§5.1.3: a short form of the address, not identical; Chromium and Firefox compare it as written"),
        Row(from: "http://127.0.0.1/", line: "a=b; Domain=0x7f.0.0.1", expected: .failure(.domainMismatch),
            source: "§5.1.3: a hexadecimal part, not identical; Chromium and Firefox compare it as written"),
        Row(from: "http://127.0.0.1/", line: "a=b; Domain=127.000.000.001", expected: .failure(.domainMismatch),
            source: "§5.1.3: leading zeros, not identical; Chromium and Firefox compare it as written"),
    ]

    @Test(arguments: rows + ipAddressDomainRows)
    func validates(_ row: Row) throws {
        var line = row.line
        var parts = CookieParts()
        try line.withUTF8 { try parts.parse($0) }
        var store = Store(secureNames: row.secureNames)
        let result = line.withUTF8 { bytes in
            CookieReceivingRules.validate(
                parts, line: bytes, from: url(row.from), context: row.context, now: testEpoch,
                limits: .default, store: &store
            ) { _, cookie in Fields(cookie) }
        }
        #expect(result == row.expected)
    }

    /// §5.7 step 16 asks the store about the new cookie's name, domain and path, and only for a cookie
    /// without Secure from an insecure origin.
    @Test func step16AsksAboutTheNewCookie() throws {
        for (from, line, questions) in [
            ("http://www.example.com/d/p", "sid=1; Domain=example.com", ["sid example.com /d"]),
            ("https://www.example.com/d/p", "sid=1; Domain=example.com", []),
            ("http://localhost/", "sid=1; Secure", []),
        ] {
            var text = line
            var parts = CookieParts()
            try text.withUTF8 { try parts.parse($0) }
            var store = Store(secureNames: [])
            _ = text.withUTF8 { bytes in
                CookieReceivingRules.validate(
                    parts, line: bytes, from: url(from), context: .firstParty, now: testEpoch, limits: CookieLimits(maxAgeSeconds: 1), store: &store
                ) { _, _ in () }
            }
            #expect(store.shadowQuestions == questions, "\(line) from \(from)")
        }
    }
}
