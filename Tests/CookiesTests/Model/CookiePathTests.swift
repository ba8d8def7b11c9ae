import Testing
@testable import Cookies

/// rfc6265bis-22 §5.1.4 path-match and §5.1.3 domain-match, rule by rule.
struct CookiePathTests {
    @Test(arguments: [
        ("/", "/", true), ("/a", "/a", true), ("/a/b", "/a", true), ("/a/", "/a/", true), ("/a/b", "/a/", true),
        ("/ab", "/a", false), ("/", "/a", false), ("/A", "/a", false), ("/a", "/a/", false),
    ])
    func pathMatch(request: String, cookie: String, matches: Bool) {
        #expect(CookiePath.matches(requestPath: request, cookiePath: cookie) == matches)
    }

    @Test(arguments: [
        ("example.com", false, "example.com", true), ("www.example.com", false, "example.com", true),
        ("wwwexample.com", false, "example.com", false), ("example.com", false, "www.example.com", false),
        ("1.2.3.4", true, "2.3.4", false), ("1.2.3.4", true, "1.2.3.4", true), ("a.b", false, "", false),
    ])
    func domainMatch(host: String, isIP: Bool, domain: String, matches: Bool) {
        #expect(DomainMatch.matches(host: host, hostIsIPAddress: isIP, domain: domain) == matches)
    }
}
