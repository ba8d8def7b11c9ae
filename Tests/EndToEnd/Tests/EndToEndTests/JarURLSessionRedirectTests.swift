import Cookies
import CookiesFoundation
import Foundation
import TestBackend
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `JarURLSession` follows redirects by the same `RedirectChain` as `JarHTTPClient`: the same chains over
/// real HTTP, on URLSession.
@Suite("JarURLSession: redirects with the jar over real HTTP")
struct JarURLSessionRedirectTests {
    /// The JSON object of a response body.
    static func json(_ data: Data) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: data)
    }

    /// A hop to another site carries the jar's cookies for that site and none of the first site's (its
    /// session), nor Authorization or Origin (`RedirectStep.crossOriginFieldNames`).
    @Test("a sign-in redirect chain arrives signed in; a hop to another site carries none of its cookies, nor credentials or Origin")
    func chains() async throws {
        try await Backend.withRunningServer { baseURL in
            let jar = CookieJar()
            let session = JarURLSession(jar: jar)
            var signIn = URLRequest(url: URL(string: baseURL + "/sign-in")!)
            signIn.httpMethod = "POST"
            signIn.setValue("application/json", forHTTPHeaderField: "Content-Type")
            signIn.httpBody = try JSONEncoder().encode(["email": Backend.email, "password": Backend.password])
            let (home, homeResponse) = try await session.data(for: signIn)
            #expect(homeResponse.url?.path == "/home")
            #expect(try Self.json(home)["cookies"] == "session,remember_me")

            let port = try #require(URL(string: baseURL)?.port)
            jar.receive("there=1; Max-Age=3600", from: try #require(CookieURL("http://localhost:\(port)/")))
            let target = "http://localhost:\(port)/echo".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            var away = URLRequest(url: URL(string: baseURL + "/bounce?to=" + target)!)
            away.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            away.setValue(baseURL, forHTTPHeaderField: "Origin")
            let (echo, _) = try await session.data(for: away)
            let echoed = try Self.json(echo)
            #expect(echoed["cookies"] == "there" && echoed["authorization"] == "" && echoed["origin"] == "")

            let error = await #expect(throws: RedirectError.self) {
                try await session.data(for: URLRequest(url: URL(string: baseURL + "/loop/a")!))
            }
            #expect(error?.hops.map(\.description) == [
                "GET \(baseURL)/loop/a → 302", "GET \(baseURL)/loop/b → 302", "GET \(baseURL)/loop/a",
            ])
        }
    }

    struct OwnCookiesCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// The request's path; `{other}` stands for `http://localhost:PORT`, another origin.
        var path: String
        /// The request's own `Cookie` field.
        var cookie: String
        /// The `Cookie` field `/echo` received ("" for none).
        var received: String
    }

    /// The request's own `Cookie` field goes with the jar's cookies (here `sid=1`) in one field, its own
    /// first and winning for a name both have ("the user agent MUST NOT attach more than one Cookie header
    /// field", rfc6265bis-22 §5.8.1), as `JarHTTPClient` and `CookieJarMiddleware` send it
    /// (`RedirectChain.ownCookies`): on every hop to the request's origin, but for a cookie a response on
    /// the way deleted (Go's net/http drops it from the Cookie field it forwards), and on no hop to another
    /// origin (Go's net/http and curl drop the Cookie field there, CVE-2022-27776).
    static let ownCookiesCases = [
        OwnCookiesCase(testDescription: "the caller's and the jar's", path: "/echo", cookie: "csrf=abc", received: "csrf=abc; sid=1"),
        OwnCookiesCase(
            testDescription: "a name both have: the caller's value", path: "/echo", cookie: "sid=mine; csrf=abc",
            received: "sid=mine; csrf=abc"),
        OwnCookiesCase(
            testDescription: "a redirect to the same origin keeps them", path: "/bounce?to=/echo", cookie: "csrf=abc",
            received: "csrf=abc; sid=1"),
        OwnCookiesCase(
            testDescription: "a redirect deleting csrf: not sent on the next hop",
            path: "/set-and-bounce?set=csrf%3D%3B%20Max-Age%3D0&to=/echo", cookie: "csrf=abc; keep=1", received: "keep=1; sid=1"),
        OwnCookiesCase(
            testDescription: "a redirect to another origin: none of them", path: "/bounce?to={other}/echo", cookie: "csrf=abc",
            received: ""),
    ]

    @Test(arguments: ownCookiesCases)
    func ownCookies(_ testCase: OwnCookiesCase) async throws {
        try await Backend.withRunningServer { baseURL in
            let jar = CookieJar()
            jar.receive("sid=1", from: try #require(CookieURL(baseURL + "/")))
            let port = try #require(URL(string: baseURL)?.port)
            let other = "http://localhost:\(port)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            var request = URLRequest(url: try #require(URL(string: baseURL + testCase.path.replacingOccurrences(of: "{other}", with: other))))
            request.setValue(testCase.cookie, forHTTPHeaderField: "Cookie")
            let (echo, response) = try await JarURLSession(jar: jar).data(for: request)
            #expect(response.url?.path == "/echo")
            #expect(try Self.json(echo)["cookieHeader"] == testCase.received)
        }
    }

    /// `URLRequest.httpShouldHandleCookies` false: "whether cookies will be sent with and set for this
    /// request" (Foundation), off. The jar's `sid` stays home, the request's own field goes as it is, and the
    /// cookie a redirect on the way sets is not stored.
    @Test("a request with httpShouldHandleCookies false goes without the jar's cookies, with its own, and sets none in the jar")
    func requestNotHandlingCookies() async throws {
        try await Backend.withRunningServer { baseURL in
            let jar = CookieJar()
            jar.receive("sid=1", from: try #require(CookieURL(baseURL + "/")))
            var request = URLRequest(url: try #require(URL(string: baseURL + "/set-and-bounce?set=new%3D1&to=/echo")))
            request.httpShouldHandleCookies = false
            request.setValue("csrf=abc", forHTTPHeaderField: "Cookie")
            let (echo, response) = try await JarURLSession(jar: jar).data(for: request)
            #expect(response.url?.path == "/echo")
            #expect(try Self.json(echo)["cookieHeader"] == "csrf=abc")
            #expect(jar.allCookies().map(\.name) == ["sid"])
        }
    }

    /// Several Location fields of different values (Fetch's "location URL": a network error): Foundation
    /// joins them with ", " into one value, which the session splits back, each piece an absolute URL
    /// (`CombinedLocation`), and refuses, naming them, rather than follow a made-up URL. The same value
    /// twice is one Location.
    @Test("a redirect with several different Location fields throws, naming them")
    func severalLocations() async throws {
        try await Backend.withRunningServer { baseURL in
            let session = JarURLSession(jar: CookieJar())
            let port = try #require(URL(string: baseURL)?.port)
            let (here, there) = (baseURL + "/echo", "http://localhost:\(port)/echo")
            func locations(_ targets: String...) throws -> URLRequest {
                let query = targets.map { "to=" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
                return URLRequest(url: try #require(URL(string: baseURL + "/locations?" + query.joined(separator: "&"))))
            }
            let request = try locations(here, there)
            let requested = try #require(request.url).absoluteString
            let error = await #expect(throws: RedirectError.self) { try await session.data(for: request) }
            #expect(error?.description == "redirect with several different Location fields (\"\(here)\", \"\(there)\"): "
                + "GET \(requested) → 302")
            let (_, same) = try await session.data(for: try locations(here, here))
            #expect(same.url?.absoluteString == here && same.statusCode == 200)
        }
    }

    /// One Location field holding ", " (a space unencoded, as no URI reference has it, RFC 3986 §2) is one
    /// Location, followed as browsers follow it (the WHATWG URL standard percent-encodes the spaces), not
    /// split into several at ", ": its pieces are no absolute URLs (`CombinedLocation`).
    @Test("a Location holding \", \" is followed as one")
    func locationHoldingACommaAndASpace() async throws {
        try await Backend.withRunningServer { baseURL in
            let location = "/files/Report Q1, 2024.pdf".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let request = URLRequest(url: try #require(URL(string: baseURL + "/locations?to=" + location)))
            let (data, response) = try await JarURLSession(jar: CookieJar()).data(for: request)
            #expect(response.statusCode == 200)
            #expect(try Self.json(data)["path"] == "/files/Report%20Q1,%202024.pdf")
        }
    }

    /// `followsRedirects: false` returns the sign-in's 302 as it came, its Location for the caller to read
    /// (this project's contract, as URLSession returns a redirect its delegate declines), and its cookies
    /// stored: the next request, to the Location, arrives signed in.
    @Test("a redirect not followed is returned, its cookies stored")
    func redirectNotFollowed() async throws {
        try await Backend.withRunningServer { baseURL in
            let jar = CookieJar()
            let session = JarURLSession(jar: jar, followsRedirects: false)
            var signIn = URLRequest(url: URL(string: baseURL + "/sign-in")!)
            signIn.httpMethod = "POST"
            signIn.setValue("application/json", forHTTPHeaderField: "Content-Type")
            signIn.httpBody = try JSONEncoder().encode(["email": Backend.email, "password": Backend.password])
            let (_, response) = try await session.data(for: signIn)
            #expect(response.statusCode == 302 && response.url?.path == "/sign-in")
            #expect(response.value(forHTTPHeaderField: "Location") == "/home")
            #expect(jar.cookies(forSite: "127.0.0.1").map(\.name).sorted() == ["remember_me", "session"])
            let (home, _) = try await session.data(for: URLRequest(url: URL(string: baseURL + "/home")!))
            #expect(try Self.json(home)["cookies"] == "session,remember_me")
        }
    }

    /// Credentials and `Origin` of the session's configuration (`httpAdditionalHeaders`), which URLSession
    /// adds to every request it sends, go on the hops to the first origin and not beyond, as the request's
    /// own do (Fetch's HTTP-redirect fetch drops Authorization across origins; AsyncHTTPClient's own
    /// following drops Origin there too); a configured Cookie field never goes (the jar's cookies are the
    /// request's).
    @Test("credentials and Origin of the session's configuration stay off a hop to another origin")
    func configuredCredentials() async throws {
        try await Backend.withRunningServer { baseURL in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = [
                "Authorization": "Bearer configured", "Cookie": "configured=1", "Origin": "https://app.test",
            ]
            let session = JarURLSession(jar: CookieJar(), configuration: configuration)
            let port = try #require(URL(string: baseURL)?.port)
            for (host, authorization, origin) in [("127.0.0.1", "Bearer configured", "https://app.test"), ("localhost", "", "")] {
                let target = "http://\(host):\(port)/echo".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let (echo, _) = try await session.data(for: URLRequest(url: URL(string: baseURL + "/bounce?to=" + target)!))
                let echoed = try Self.json(echo)
                #expect(echoed["authorization"] == authorization, "\(host)")
                #expect(echoed["origin"] == origin, "\(host)")
                #expect(echoed["cookies"] == "", "\(host)")
            }
        }
    }

    /// RFC 9110 §15.4.8: a 307 keeps the method and the body. A body given as data goes again; a body
    /// stream, read to its end by the first hop, cannot, and the request throws saying so rather than
    /// sending the next hop with an empty body.
    @Test("a 307 resends a data body, and refuses a body stream")
    func temporaryRedirectBodies() async throws {
        try await Backend.withRunningServer { baseURL in
            let session = JarURLSession(jar: CookieJar())
            let body = Data("a body of 24 bytes, sent".utf8)
            var request = URLRequest(url: URL(string: baseURL + "/moved-temporarily")!)
            request.httpMethod = "POST"
            request.httpBody = body
            let (echo, response) = try await session.data(for: request)
            #expect(response.url?.path == "/echo")
            #expect(try Self.json(echo)["method"] == "POST" && Self.json(echo)["bodyBytes"] == String(body.count))

            request.httpBody = nil
            request.httpBodyStream = InputStream(data: body)
            await #expect(throws: JarURLSessionError.bodyStreamCannotBeResent(status: 307, location: baseURL + "/echo")) {
                try await session.data(for: request)
            }
        }
    }
}
