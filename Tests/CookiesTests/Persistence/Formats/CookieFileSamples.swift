@testable import Cookies
import Testing

/// Cookies covering every field the jar keeps, for the round-trip tests of each format: host-only and
/// domain cookies, session and persistent ones, every SameSite value, a partition key, an IPv6 host, a
/// nameless cookie, UTF-8 in a value, and times with microseconds.
enum CookieFileSamples {
    static let creation = testEpoch.adding(seconds: -86_400)

    static func time(_ seconds: Int64, micros: Int64 = 0) -> CookieTime {
        CookieTime(microsecondsSinceEpoch: testEpoch.adding(seconds: seconds).microsecondsSinceEpoch + micros)
    }

    static let cookies: [Cookie] = [
        Cookie(
            name: "sid", value: "7f3c9a", domain: "www.example.com", isHostOnly: true, path: "/",
            expiry: time(3_600), creation: time(-100, micros: 123_456), lastAccess: time(-50, micros: 7),
            isSecure: true, isHTTPOnly: true, sameSite: .lax, isSourceSecure: true, sourcePort: 8443),
        Cookie(
            name: "pref", value: "dark mode", domain: "example.com", isHostOnly: false, path: "/app",
            expiry: nil, creation: time(-90), sameSite: .strict),
        Cookie(
            name: "", value: "nameless", domain: "example.org", path: "/", expiry: time(86_400 * 30),
            creation: time(-80), sameSite: .none, isSourceSecure: false),
        Cookie(
            name: "__Host-chips", value: "p=1", domain: "widget.example.net", path: "/", expiry: time(600),
            creation: time(-70, micros: 1), isSecure: true, sameSite: .none,
            partitionKey: "https://news.example", isSourceSecure: true, sourcePort: 443),
        Cookie(name: "v6", value: "ok", domain: "[::1]", path: "/api/v1", creation: time(-60), sameSite: .default),
        Cookie(
            name: "greeting", value: "h\u{e9}llo \"w\\orld\"", domain: "xn--bcher-kva.example", isHostOnly: false,
            path: "/", expiry: time(7_200, micros: 999_999), creation: time(-50), isHTTPOnly: true),
    ]

    /// Checks the fields every format holds: name, value, domain, host-only, path, Secure, HttpOnly.
    static func expectSameCoreFields(_ copy: Cookie, _ original: Cookie, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(copy.name == original.name, sourceLocation: sourceLocation)
        #expect(copy.value == original.value, sourceLocation: sourceLocation)
        #expect(copy.domain == original.domain, sourceLocation: sourceLocation)
        #expect(copy.isHostOnly == original.isHostOnly, sourceLocation: sourceLocation)
        #expect(copy.path == original.path, sourceLocation: sourceLocation)
        #expect(copy.isSecure == original.isSecure, sourceLocation: sourceLocation)
        #expect(copy.isHTTPOnly == original.isHTTPOnly, sourceLocation: sourceLocation)
    }
}
