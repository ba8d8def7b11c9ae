import Cookies
import Foundation
import Testing

@testable import CookiesFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Whether this platform's `HTTPCookie` holds SameSite: Apple's Foundation has `sameSitePolicy`
/// (Strict and Lax), swift-corelibs-foundation (Linux, Swift 6.3.1) has none.
#if canImport(Darwin)
let httpCookieHoldsSameSite = true
#else
let httpCookieHoldsSameSite = false
#endif

@Suite("Cookie ⇄ HTTPCookie")
struct CookieHTTPCookieTests {
    static let expiry = testEpoch.adding(seconds: 86_400)

    /// Cookies as the jar stores them (rfc6265bis-22 §5.7), one per property `HTTPCookie` holds.
    static let expressible: [Cookie] = [
        Cookie(name: "host", value: "1", domain: "www.example.com", creation: testEpoch),
        Cookie(name: "domain", value: "2", domain: "example.com", isHostOnly: false, path: "/api", creation: testEpoch),
        Cookie(name: "persistent", value: "3", domain: "example.com", expiry: expiry, creation: testEpoch),
        Cookie(name: "micro", value: "4", domain: "example.com",
            expiry: CookieTime(microsecondsSinceEpoch: expiry.microsecondsSinceEpoch + 123_457), creation: testEpoch),
        Cookie(name: "secure", value: "5", domain: "example.com", creation: testEpoch, isSecure: true, isSourceSecure: true),
        Cookie(name: "httponly", value: "6", domain: "example.com", creation: testEpoch, isHTTPOnly: true),
        Cookie(name: "ip", value: "7", domain: "127.0.0.1", creation: testEpoch),
    ]

    @Test("Cookie → HTTPCookie → Cookie keeps what both hold", arguments: expressible)
    func roundTrip(_ cookie: Cookie) throws {
        let httpCookie = try #require(HTTPCookie(cookie))
        #expect(Cookie(httpCookie, creation: cookie.creation) == cookie)
    }

    @Test("HTTPCookie gets Foundation's domain convention and flags", arguments: expressible)
    func foundationView(_ cookie: Cookie) throws {
        let httpCookie = try #require(HTTPCookie(cookie))
        #expect(httpCookie.name == cookie.name)
        #expect(httpCookie.value == cookie.value)
        #expect(httpCookie.domain == (cookie.isHostOnly ? cookie.domain : "." + cookie.domain))
        #expect(httpCookie.path == cookie.path)
        #expect(httpCookie.isSessionOnly == (cookie.expiry == nil))
        #expect(httpCookie.expiresDate.map(CookieTime.init) == cookie.expiry)
        #expect(httpCookie.isSecure == cookie.isSecure)
        #expect(httpCookie.isHTTPOnly == cookie.isHTTPOnly)
        #expect(httpCookie.version == 0)
        #expect(httpCookie.portList == nil)
    }

    /// SameSite: Strict and Lax survive where `HTTPCookie` has `sameSitePolicy`; None and Default never
    /// do (HTTPCookie has no None), documented in Cookie+HTTPCookie.swift.
    @Test("SameSite survives only where HTTPCookie holds it", arguments: SameSite.allCases)
    func sameSite(_ sameSite: SameSite) throws {
        let cookie = Cookie(name: "s", value: "1", domain: "example.com", creation: testEpoch, sameSite: sameSite)
        let back = Cookie(try #require(HTTPCookie(cookie)), creation: testEpoch)
        let kept = httpCookieHoldsSameSite && (sameSite == .strict || sameSite == .lax)
        #expect(back.sameSite == (kept ? sameSite : .default))
    }

    /// What HTTPCookie cannot hold comes back as documented: times from the caller, isSourceSecure from
    /// Secure, no source port; a partitioned cookie (CHIPS) makes none, which unpartitioned would be
    /// sent in every context and replace the host's own cookie of its name, and nor does a nameless one.
    @Test("the documented losses")
    func losses() throws {
        let cookie = Cookie(
            name: "chips", value: "1", domain: "example.com", creation: testEpoch,
            lastAccess: testEpoch.adding(seconds: 60), isSecure: true, isSourceSecure: true, sourcePort: 8443)
        let back = Cookie(try #require(HTTPCookie(cookie)), creation: testEpoch.adding(seconds: 5))
        #expect(back.creation == testEpoch.adding(seconds: 5))
        #expect(back.lastAccess == testEpoch.adding(seconds: 5))
        let partitioned = Cookie(
            name: "chips", value: "1", domain: "example.com", creation: testEpoch, isSecure: true,
            partitionKey: "https://site.test", isSourceSecure: true)
        #expect(HTTPCookie(partitioned) == nil)
        // §5.8.3 step 4.1: a nameless cookie goes as its value alone; Foundation would send "=token".
        #expect(HTTPCookie(Cookie(name: "", value: "token", domain: "example.com", creation: testEpoch)) == nil)
        #expect(back.isSourceSecure)
        #expect(back.sourcePort == nil)
        let insecure = Cookie(name: "a", value: "1", domain: "example.com", creation: testEpoch, isSourceSecure: true)
        #expect(Cookie(try #require(HTTPCookie(insecure)), creation: testEpoch).isSourceSecure == false)
    }

    /// An IPv6 host: the jar keeps `[::1]` (§5.1.2, as a URL writes it), Foundation `::1` (as `URL.host`
    /// gives it, which its cookie matching compares with); each way converts the one into the other.
    @Test("an IPv6 address's cookie, with and without brackets")
    func ipv6Host() throws {
        let cookie = Cookie(name: "v6", value: "1", domain: "[::1]", creation: testEpoch)
        let httpCookie = try #require(HTTPCookie(cookie))
        #expect(httpCookie.domain == "::1")
        #expect(Cookie(httpCookie, creation: testEpoch).domain == "[::1]")
        #expect(CookieJar().insert(Cookie(httpCookie, creation: testEpoch)).rejection == nil)
    }

    /// HTTPCookie → Cookie → HTTPCookie: a Foundation cookie of version 1 with a port list comes back
    /// as version 0 without ports (RFC 6265bis has neither); everything else stays.
    @Test("HTTPCookie → Cookie → HTTPCookie drops version and ports only")
    func reverseRoundTrip() throws {
        let expires = Date(CookieTime(secondsSinceEpoch: Int64(1_767_225_600)))
        let original = try #require(
            HTTPCookie(properties: [
                .name: "v1", .value: "x", .domain: ".example.com", .path: "/p", .version: "1", .port: "8080,8443",
                .expires: expires, .discard: "FALSE", .secure: "TRUE", HTTPCookiePropertyKey("HttpOnly"): "TRUE",
            ]))
        let back = try #require(HTTPCookie(Cookie(original, creation: testEpoch)))
        #expect(back.name == original.name)
        #expect(back.value == original.value)
        #expect(back.domain == ".example.com")
        #expect(back.path == "/p")
        #expect(back.isSecure && back.isHTTPOnly)
        #expect(back.isSessionOnly == original.isSessionOnly)
        #expect(back.expiresDate == original.expiresDate)
        #expect(back.version == 0)
        #expect(back.portList == nil)
    }

    /// Cookies Foundation parsed from a response convert with their host-only-flag: Foundation gives a
    /// Domain attribute a leading "." and a host-only cookie the bare host.
    @Test("cookies Foundation parsed keep their host-only-flag")
    func parsedByFoundation() throws {
        let cookies = HTTPCookie.cookies(
            withResponseHeaderFields: ["Set-Cookie": "a=1; Domain=example.com; Path=/; Secure, b=2; Path=/"],
            for: foundationURL("https://www.example.com/"))
        let converted = cookies.map { Cookie($0, creation: testEpoch) }
        #expect(converted.map(\.name) == ["a", "b"])
        #expect(converted.map(\.domain) == ["example.com", "www.example.com"])
        #expect(converted.map(\.isHostOnly) == [false, true])
        #expect(converted.map(\.isSecure) == [true, false])
    }

    /// The jar's contents copied into an HTTPCookieStorage (what an app does for a web view) and back.
    /// The storage purges cookies expired by the wall clock, so the jar's clock starts now.
    @Test("a jar copied into HTTPCookieStorage and back")
    func jarThroughStorage() throws {
        let now = CookieTime(Date())
        let jar = CookieJar(publicSuffixList: testPublicSuffixList, clock: ManualCookieClock(now))
        let from = url("https://www.example.com/login")
        jar.receive(["sid=1; Path=/; Secure; HttpOnly", "pref=dark; Domain=example.com; Path=/; Max-Age=3600"], from: from)
        let storage = URLSessionConfiguration.ephemeral.httpCookieStorage!
        for cookie in jar.allCookies() {
            storage.setCookie(try #require(HTTPCookie(cookie)))
        }
        let copy = CookieJar(publicSuffixList: testPublicSuffixList, clock: ManualCookieClock(now))
        for httpCookie in storage.cookies ?? [] {
            copy.insert(Cookie(httpCookie, creation: now))
        }
        let sent = url("https://www.example.com/")
        #expect(Set(copy.cookies(for: sent).map(\.pair)) == Set(jar.cookies(for: sent).map(\.pair)))
        #expect(Set(copy.allCookies().map(\.expiry)) == Set(jar.allCookies().map(\.expiry)))
        #expect(copy.count == 2)
    }

    /// What a lifetime comes to, counted from the `Created` property of the `HTTPCookie` (when Foundation
    /// parsed the line).
    enum Lifetime: Sendable {
        /// Expires this many seconds after Foundation made the cookie.
        case seconds(Int64)
        /// Expires at the instant `inAMonth` names.
        case inAMonth
        /// Already expired.
        case expired
        /// A session cookie.
        case session
    }

    struct ExpiryCase: Sendable, CustomTestStringConvertible {
        /// The line's attributes; `{2037}` and `{month}` stand for an Expires in 2037 and one about 30 days
        /// ahead (`inAMonth`), `{monthNoWeekday}` for that date without its day-name.
        let attributes: String
        let lifetime: Lifetime
        let source: String
        var testDescription: String { source }
    }

    /// The cookie-age-limit (rfc6265bis-22 §5.5: 400 days), to which §5.6.1 and §5.6.2 cap an expiry.
    static let ageLimit: Int64 = 400 * 86_400

    /// About 30 days ahead, to the second: within the cookie-age-limit.
    static let inAMonth = CookieTime(secondsSinceEpoch: CookieTime(Date()).secondsSinceEpoch + 30 * 86_400)

    static let expiryCases: [ExpiryCase] = [
        ExpiryCase(attributes: "Max-Age=3600", lifetime: .seconds(3_600), source: "§5.6.2: delta-seconds after receipt"),
        ExpiryCase(
            attributes: "Max-Age=60; Expires={2037}", lifetime: .seconds(60),
            source: "§5.6.2 and §5.7 step 6: a Max-Age wins over Expires"),
        ExpiryCase(
            attributes: "Max-Age=+60; Expires={month}", lifetime: .inAMonth,
            source: "§5.6.2: \"+60\" is no \"-\" and DIGITs, so the cookie-av is ignored and §5.6.1's Expires applies"),
        ExpiryCase(
            attributes: "Max-Age=+60; Expires={2037}", lifetime: .seconds(ageLimit),
            source: "§5.6.2 ignores \"+60\"; §5.6.1: the Expires, capped at the cookie-age-limit"),
        ExpiryCase(
            attributes: "Max-Age=99999999999999999999; Expires={month}", lifetime: .seconds(ageLimit),
            source: "§5.6.2: a valid Max-Age past Int64 saturates and wins over Expires, capped at the cookie-age-limit"),
        ExpiryCase(
            attributes: "Max-Age=99999999999999999999; Expires={2037}", lifetime: .seconds(ageLimit),
            source: "§5.6.2: a valid Max-Age wins, capped at the cookie-age-limit"),
        ExpiryCase(
            attributes: "Max-Age=-1; Expires={2037}", lifetime: .expired,
            source: "§5.6.2: delta-seconds of zero or less is the earliest representable time"),
        ExpiryCase(
            attributes: "Max-Age=60x; Expires={month}", lifetime: .inAMonth,
            source: "§5.6.2: a non-DIGIT ignores the Max-Age; §5.6.1's Expires applies"),
        ExpiryCase(attributes: "Expires={month}", lifetime: .inAMonth, source: "§5.6.1: the Expires alone"),
        ExpiryCase(
            attributes: "Expires={monthNoWeekday}", lifetime: .inAMonth,
            source: "§5.6.1: the cookie-date algorithm (§5.1.1) needs no day-name"),
        ExpiryCase(attributes: "Expires={2037}", lifetime: .seconds(ageLimit), source: "§5.6.1: capped at the cookie-age-limit"),
        ExpiryCase(
            attributes: "Expires=not a date", lifetime: .session,
            source: "§5.6.1: a value the cookie-date algorithm fails ignores the cookie-av: a session cookie"),
        ExpiryCase(
            attributes: "Max-Age=3600; Discard", lifetime: .seconds(3600),
            source: "§5.6: Discard (RFC 2965) is no attribute here, ignored; the Max-Age applies (Foundation makes it session-only)"),
        ExpiryCase(
            attributes: "Expires={month}; Version=1", lifetime: .inAMonth,
            source: "§5.6: Version (RFC 2965) is ignored; the Expires applies (Foundation makes a version-1 cookie without Max-Age session-only)"),
    ]

    /// A `Set-Cookie` line swift-corelibs-foundation parsed (which keeps the Max-Age and Expires texts,
    /// but reads them otherwise: it drops a version-0 Max-Age and the Expires with it whenever `Int` reads
    /// the Max-Age, and takes the Expires when it does not), converted: its expiry is the one the jar gives
    /// the same line (§5.6.1, §5.6.2, §5.7 step 6), counted from when Foundation made the cookie.
    @Test("Cookie(HTTPCookie) reads Max-Age and Expires as §5.6.1 and §5.6.2 do", arguments: expiryCases)
    func expiry(_ testCase: ExpiryCase) throws {
        #if canImport(FoundationNetworking)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let month = formatter.string(from: Date(Self.inAMonth))
        formatter.dateFormat = "dd MMM yyyy HH:mm:ss 'GMT'"
        let monthNoWeekday = formatter.string(from: Date(Self.inAMonth))
        let attributes = testCase.attributes.replacingOccurrences(of: "{2037}", with: "Thu, 01 Jan 2037 00:00:00 GMT")
            .replacingOccurrences(of: "{monthNoWeekday}", with: monthNoWeekday).replacingOccurrences(of: "{month}", with: month)
        let httpCookie = try #require(HTTPCookie.cookies(
            withResponseHeaderFields: ["Set-Cookie": "remember=1; Path=/; " + attributes],
            for: foundationURL("https://www.example.com/")).first)
        let created = CookieTime(Date(timeIntervalSinceReferenceDate: try #require(httpCookie.properties?[.creationTime] as? Double)))
        let expiry = Cookie(httpCookie, creation: testEpoch).expiry
        switch testCase.lifetime {
        case .seconds(let seconds): #expect(expiry == created.adding(seconds: seconds))
        case .inAMonth: #expect(expiry == Self.inAMonth)
        case .expired: #expect(try #require(expiry) <= created)
        case .session: #expect(expiry == nil)
        }
        #endif
    }

    /// An `HTTPCookie` made from properties keeps them as given: Max-Age and Expires texts are read as in a
    /// line (§5.6.1, §5.6.2), from its `Created` property; an Expires given as a date is that date, the
    /// one a Max-Age §5.6.2 ignores leaves to apply (swift-corelibs-foundation's `expiresDate` drops it
    /// when `Int` reads the Max-Age).
    @Test("Cookie(HTTPCookie) of properties: Max-Age and Expires texts, and a date")
    func expiryOfProperties() throws {
        #if canImport(FoundationNetworking)
        let expires = Date(Self.inAMonth)
        func cookie(_ lifetime: [HTTPCookiePropertyKey: Any]) throws -> (expiry: CookieTime?, created: CookieTime) {
            let properties = lifetime.merging([.name: "p", .value: "1", .domain: "example.com", .path: "/"]) { given, _ in given }
            let httpCookie = try #require(HTTPCookie(properties: properties))
            let created = try #require(httpCookie.properties?[.creationTime] as? Double)
            return (Cookie(httpCookie, creation: testEpoch).expiry, CookieTime(Date(timeIntervalSinceReferenceDate: created)))
        }
        #expect(try cookie([.maximumAge: "+60", .expires: expires]).expiry == Self.inAMonth)
        let maxAge = try cookie([.maximumAge: " 60 ", .expires: expires])
        #expect(maxAge.expiry == maxAge.created.adding(seconds: 60), "§5.6 trims WSP around an attribute-value")
        #expect(try cookie([.expires: expires]).expiry == Self.inAMonth)
        #endif
    }
}
