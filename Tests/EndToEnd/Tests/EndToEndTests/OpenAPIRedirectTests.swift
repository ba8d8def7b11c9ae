import Cookies
import CookiesAsyncHTTPClient
import CookiesOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import TestBackend
import Testing

/// `CookieJarMiddleware` follows redirects itself (RFC 9110 §15.4, through `RedirectChain`): each hop's
/// cookies stored under its own URL before the next hop, each hop's `Cookie` field the jar's for that hop,
/// the credentials and the operation's own cookies dropped on a hop to another origin. First over a
/// scripted transport (the requests each hop sends, checked field by field), then over real HTTP on both
/// transports, each made to follow no redirect itself.
@Suite("CookieJarMiddleware follows redirects")
struct OpenAPIRedirectTests {
    /// A request as the transport received it.
    struct Sent: Sendable {
        let method: HTTPRequest.Method
        let url: String
        let cookie: String?
        let authorization: String?
        let origin: String?
        let hasBody: Bool
    }

    /// A transport answering each request with the next of `responses`, recording what it was sent and
    /// where: the URL that the OpenAPI client transports make of the server URL and the request's path
    /// (swift-openapi-urlsession 1.4 `URLRequest.init(_:baseURL:)`, swift-openapi-async-http-client 1.5
    /// `AsyncHTTPClientTransport.convertRequest`: `URLComponents` of the server URL, the path's
    /// `percentEncodedPath` appended to its own, its `percentEncodedQuery` the path's).
    final class ScriptedTransport: Sendable {
        private let responses: Mutex<[HTTPResponse]>
        let sent = Mutex<[Sent]>([])

        init(_ responses: [HTTPResponse]) { self.responses = Mutex(responses) }

        @Sendable func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> (HTTPResponse, HTTPBody?) {
            if let body { for try await _ in body {} }
            var url = try #require(URLComponents(string: baseURL.absoluteString))
            let path = try #require(URLComponents(string: request.path ?? ""))
            url.percentEncodedPath += path.percentEncodedPath
            url.percentEncodedQuery = path.percentEncodedQuery
            let sentURL = try #require(url.url).absoluteString
            sent.withLock {
                $0.append(Sent(
                    method: request.method, url: sentURL, cookie: request.headerFields[.cookie],
                    authorization: request.headerFields[.authorization], origin: request.headerFields[.origin],
                    hasBody: body != nil))
            }
            return (responses.withLock { $0.removeFirst() }, HTTPBody("response body"))
        }
    }

    static func response(_ status: HTTPResponse.Status, location: String? = nil, setCookies: [String] = []) -> HTTPResponse {
        var fields = HTTPFields()
        if let location { fields[.location] = location }
        for line in setCookies { fields.append(HTTPField(name: .setCookie, value: line)) }
        return HTTPResponse(status: status, headerFields: fields)
    }

    /// Runs `request` (with `body`) to `baseURL` through `middleware` over `transport`.
    static func run(
        _ middleware: CookieJarMiddleware, _ request: HTTPRequest, body: HTTPBody? = nil,
        baseURL: String = "https://a.example", over transport: ScriptedTransport
    ) async throws -> HTTPResponse {
        try await middleware.intercept(
            request, body: body, baseURL: URL(string: baseURL)!, operationID: "op", next: transport.send
        ).0
    }

    /// A caller that gives up while a redirect comes back (its task cancelled) sends no further hop, and
    /// the redirect's cookie is stored.
    @Test func aCancelledRequestSendsNoFurtherHop() async throws {
        let jar = CookieJar()
        let hops = Mutex(0)
        let next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { _, _, _ in
            hops.withLock { $0 += 1 }
            withUnsafeCurrentTask { $0?.cancel() }
            return (Self.response(.found, location: "/next", setCookies: ["a=1"]), HTTPBody("redirect body"))
        }
        await #expect(throws: CancellationError.self) {
            _ = try await CookieJarMiddleware(jar: jar).intercept(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/start"), body: nil,
                baseURL: URL(string: "https://a.example")!, operationID: "op", next: next)
        }
        #expect(hops.withLock { $0 } == 1)
        #expect(jar.cookieHeader(for: CookieURL("https://a.example/")!) == "a=1")
    }

    /// A POST answered 302 to another site, then 303 back: the first hop carries the operation's own
    /// cookie and the jar's, the hop to b.example neither (a.example's host-only cookie, the operation's
    /// own cookie, Authorization and Origin stay off another origin: `RedirectStep.crossOriginFieldNames`)
    /// and goes as a GET without the body (RFC 9110 §15.4.3); each response's cookie is stored under the
    /// URL that answered it; the last hop, back on a.example, carries the cookie the first redirect set
    /// there.
    @Test func eachHopCarriesAndStoresItsOwnCookies() async throws {
        let jar = CookieJar()
        jar.receive("old=1", from: CookieURL("https://a.example/")!)
        let transport = ScriptedTransport([
            Self.response(.found, location: "https://b.example/land?x=1#top", setCookies: ["a=1"]),
            Self.response(.seeOther, location: "https://a.example/done", setCookies: ["b=2"]),
            Self.response(.ok, setCookies: ["c=3"]),
        ])
        var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/start?q=1")
        request.headerFields[.cookie] = "own=x"
        request.headerFields[.authorization] = "Bearer t"
        request.headerFields[.origin] = "https://a.example"
        let final = try await Self.run(CookieJarMiddleware(jar: jar), request, body: HTTPBody("payload"), over: transport)
        #expect(final.status == .ok)
        let sent = transport.sent.withLock { $0 }
        #expect(sent.map(\.url) == ["https://a.example/start?q=1", "https://b.example/land?x=1", "https://a.example/done"])
        #expect(sent.map(\.method) == [.post, .get, .get])
        #expect(sent.map(\.hasBody) == [true, false, false])
        #expect(sent.map(\.cookie) == ["own=x; old=1", nil, "old=1; a=1"])
        #expect(sent.map(\.authorization) == ["Bearer t", nil, nil])
        #expect(sent.map(\.origin) == ["https://a.example", nil, nil])
        #expect(jar.cookies(for: CookieURL("https://a.example/")!).map(\.name) == ["old", "a", "c"])
        #expect(jar.cookies(for: CookieURL("https://b.example/")!).map(\.name) == ["b"])
    }

    /// A cookie the operation sends itself that a redirect's response sets or deletes goes on the next
    /// hops as the jar holds it, the server's new value or none: the operation's value would otherwise win
    /// its name's clash with the jar's on every later hop (Go's net/http drops such a cookie from the
    /// `Cookie` field it forwards, `makeHeadersCopier`). Its other cookies still go.
    @Test(arguments: [("session=new; Path=/", "keep=1; session=new"), ("session=; Max-Age=0; Path=/", "keep=1")])
    func aCookieTheServerChangesOnTheWayGoesAsTheJarHoldsIt(_ setCookie: String, _ next: String) async throws {
        let transport = ScriptedTransport([Self.response(.found, location: "/home", setCookies: [setCookie]), Self.response(.ok)])
        var request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/start")
        request.headerFields[.cookie] = "session=old; keep=1"
        _ = try await Self.run(CookieJarMiddleware(jar: CookieJar()), request, over: transport)
        #expect(transport.sent.withLock { $0 }.map(\.cookie) == ["session=old; keep=1", next])
    }

    /// The method goes as the chain reads it from the first hop on (Fetch's "normalize a method": `post` is
    /// `POST`), the one the rules of SameSite and of redirects apply to; and a Location whose port the
    /// WHATWG URL standard writes otherwise (empty, leading zeros, the default) is followed, to the URL
    /// that standard makes of it.
    @Test func theMethodAndALocationsPortGoAsTheStandardWritesThem() async throws {
        let transport = ScriptedTransport([
            Self.response(.temporaryRedirect, location: "https://a.example:/x"),
            Self.response(.temporaryRedirect, location: "https://a.example:0443/y"),
            Self.response(.ok),
        ])
        let request = HTTPRequest(method: try #require(HTTPRequest.Method("post")), scheme: nil, authority: nil, path: "/start")
        let final = try await Self.run(CookieJarMiddleware(jar: CookieJar()), request, body: HTTPBody("payload"), over: transport)
        #expect(final.status == .ok)
        let sent = transport.sent.withLock { $0 }
        #expect(sent.map(\.url) == ["https://a.example/start", "https://a.example/x", "https://a.example/y"])
        #expect(sent.map(\.method.rawValue) == ["POST", "POST", "POST"])
    }

    /// The URL the jar picks a hop's cookies for and stores its response's under is the one the transport
    /// sends: a server URL's trailing "/" stays (`/start` under `https://a.example/api/` goes to
    /// `/api//start`), so that a cookie of Path=/api/start does not go (rfc6265bis-22 §5.1.4: "/api/start"
    /// path-matches no "/api//start"), the response's cookie gets the default path of `/api//start`
    /// (§5.1.4: "/api/", up to the right-most "/") and goes on the next hop, and a relative Location
    /// resolves against `/api//start` (RFC 3986 §5.2).
    @Test func aServerURLsTrailingSlashIsKept() async throws {
        let jar = CookieJar()
        jar.receive("s=1; Path=/api/start", from: CookieURL("https://a.example/api/start")!)
        let transport = ScriptedTransport([Self.response(.found, location: "next", setCookies: ["n=1"]), Self.response(.ok)])
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/start")
        _ = try await Self.run(CookieJarMiddleware(jar: jar), request, baseURL: "https://a.example/api/", over: transport)
        let sent = transport.sent.withLock { $0 }
        #expect(sent.map(\.url) == ["https://a.example/api//start", "https://a.example/api//next"])
        #expect(sent.map(\.cookie) == [nil, "n=1"])
        #expect(jar.allCookies().first { $0.name == "n" }?.path == "/api/")
    }

    /// A redirect to a path that starts with "//" goes to that path on that host, with the cookies for
    /// it: a transport reads a request path starting with "//" as an authority (`URLComponents`), so that
    /// `https://a.example` and `//login` go to `https://a.example`, and `//b.example/account?x=1` to
    /// `https://a.example/account?x=1`; all but one of those slashes stay with the server URL.
    @Test(arguments: [
        "https://a.example//login", "https://a.example//b.example/account?x=1", "https://a.example///x",
    ])
    func aPathStartingWithTwoSlashesIsNoAuthority(_ location: String) async throws {
        let transport = ScriptedTransport([Self.response(.found, location: location), Self.response(.ok)])
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/start")
        _ = try await Self.run(CookieJarMiddleware(jar: CookieJar()), request, over: transport)
        #expect(transport.sent.withLock { $0.map(\.url) } == ["https://a.example/start", location])
    }

    /// A 307 keeps the method and body (RFC 9110 §15.4.8): a body that can be iterated again is sent
    /// again; one that can be iterated only once (made from a stream) is not, and the middleware throws
    /// after the first hop, whose cookies are stored.
    @Test func aBodyIsSentAgainOnlyWhenItCanBe() async throws {
        let jar = CookieJar()
        let transport = ScriptedTransport([
            Self.response(.temporaryRedirect, location: "/again", setCookies: ["hop=1"]), Self.response(.ok),
        ])
        let request = HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/upload")
        _ = try await Self.run(CookieJarMiddleware(jar: jar), request, body: HTTPBody("bytes"), over: transport)
        #expect(transport.sent.withLock { $0.map(\.method) } == [.put, .put])
        #expect(transport.sent.withLock { $0.map(\.hasBody) } == [true, true])

        let once = ScriptedTransport([Self.response(.temporaryRedirect, location: "/again", setCookies: ["hop=2"])])
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            continuation.yield(ArraySlice("bytes".utf8))
            continuation.finish()
        }
        let body = HTTPBody(stream, length: .known(5), iterationBehavior: .single)
        await #expect(throws: CookieJarMiddlewareError.bodyCannotBeResent(status: 307, location: "https://a.example/again")) {
            _ = try await Self.run(CookieJarMiddleware(jar: jar), request, body: body, over: once)
        }
        #expect(once.sent.withLock { $0.count } == 1)
        #expect(jar.cookies(for: CookieURL("https://a.example/")!).first { $0.name == "hop" }?.value == "2")
    }

    /// `followsRedirects: false` hands the redirect to the client as it came, its cookie stored.
    @Test func aRedirectCanBeHandedOver() async throws {
        let jar = CookieJar()
        let transport = ScriptedTransport([Self.response(.found, location: "/elsewhere", setCookies: ["r=1"])])
        let middleware = CookieJarMiddleware(jar: jar, followsRedirects: false)
        let response = try await Self.run(middleware, HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), over: transport)
        #expect(response.status == .found)
        #expect(transport.sent.withLock { $0.count } == 1)
        #expect(jar.cookies(for: CookieURL("https://a.example/")!).map(\.name) == ["r"])
    }

    /// Several Location fields of different values (a transport that keeps fields apart hands them over
    /// so): Fetch's "location URL" is failure, a network error; the middleware throws naming them, rather
    /// than following them joined with ", " into one made-up URL (`HTTPFields`' getter joins them). The
    /// same value twice is one Location.
    @Test func severalLocationFields() async throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .location, value: "/one"))
        fields.append(HTTPField(name: .location, value: "https://b.example/two"))
        let transport = ScriptedTransport([HTTPResponse(status: .found, headerFields: fields), Self.response(.ok)])
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/start")
        let error = await #expect(throws: RedirectError.self) {
            _ = try await Self.run(CookieJarMiddleware(jar: CookieJar()), request, over: transport)
        }
        #expect(error?.description == "redirect with several different Location fields (\"/one\", "
            + "\"https://b.example/two\"): GET https://a.example/start → 302")
        #expect(transport.sent.withLock { $0.count } == 1)

        var same = HTTPFields()
        same.append(HTTPField(name: .location, value: "/one"))
        same.append(HTTPField(name: .location, value: "/one"))
        let repeated = ScriptedTransport([HTTPResponse(status: .found, headerFields: same), Self.response(.ok)])
        _ = try await Self.run(CookieJarMiddleware(jar: CookieJar()), request, over: repeated)
        #expect(repeated.sent.withLock { $0.map(\.url) } == ["https://a.example/start", "https://a.example/one"])
    }

    struct JoinedLocationCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// The response's one Location field.
        var location: String
        var transportJoinsSetCookieFields = true
        /// The URL of the next hop; nil when the middleware throws `RedirectError.severalLocations`.
        var next: String?
    }

    /// A transport that joins repeated fields (the URLSession transport: Foundation joins them with ", ")
    /// hands several Location fields over as one value. It is split back when each piece is an absolute
    /// URL (`CombinedLocation`), and refused as several (Fetch's "location URL" is failure); a value whose
    /// pieces are no absolute URLs is one Location holding ", " (a space unencoded, as no URI reference
    /// has it, RFC 3986 §2), followed as browsers follow it (the WHATWG URL standard percent-encodes the
    /// spaces). From a transport that joins none, one field is one Location.
    static let joinedLocationCases = [
        JoinedLocationCase(
            testDescription: "two absolute URLs: several Locations", location: "https://b.example/one, https://c.example/two"),
        JoinedLocationCase(
            testDescription: "one absolute URL twice: one Location", location: "https://b.example/one, https://b.example/one",
            next: "https://b.example/one"),
        JoinedLocationCase(
            testDescription: "a path holding \", \": one Location", location: "/files/Report Q1, 2024.pdf",
            next: "https://a.example/files/Report%20Q1,%202024.pdf"),
        JoinedLocationCase(
            testDescription: "a transport that joins no fields: one Location",
            location: "https://b.example/one, https://c.example/two", transportJoinsSetCookieFields: false,
            next: "https://b.example/one,%20https://c.example/two"),
    ]

    @Test(arguments: joinedLocationCases)
    func joinedLocationFields(_ testCase: JoinedLocationCase) async throws {
        let transport = ScriptedTransport([Self.response(.found, location: testCase.location), Self.response(.ok)])
        let middleware = CookieJarMiddleware(jar: CookieJar(), transportJoinsSetCookieFields: testCase.transportJoinsSetCookieFields)
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/start")
        if let next = testCase.next {
            _ = try await Self.run(middleware, request, over: transport)
            #expect(transport.sent.withLock { $0.map(\.url) } == ["https://a.example/start", next])
        } else {
            let error = await #expect(throws: RedirectError.self) { _ = try await Self.run(middleware, request, over: transport) }
            #expect(error?.description == "redirect with several different Location fields (\"https://b.example/one\", "
                + "\"https://c.example/two\"): GET https://a.example/start → 302")
            #expect(transport.sent.withLock { $0.count } == 1)
        }
    }

    /// Over the URLSession transport and real HTTP, which joins a response's Location fields with ", ":
    /// two of absolute URLs are refused as several, one holding ", " is followed as one
    /// (`joinedLocationFields`).
    @Test func joinedLocationFieldsOverURLSession() async throws {
        try await Backend.withRunningServer { baseURL in
            let (transport, close) = OpenAPIClientTests.makeTransport(.urlSession)
            let send: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
                try await transport.send($0, body: $1, baseURL: $2, operationID: "locations")
            }
            func intercept(_ targets: String...) async throws -> (HTTPResponse, HTTPBody?) {
                let query = targets.map { "to=" + $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
                return try await CookieJarMiddleware(jar: CookieJar()).intercept(
                    HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/locations?" + query.joined(separator: "&")),
                    body: nil, baseURL: URL(string: baseURL)!, operationID: "locations", next: send)
            }
            do {
                let port = try #require(URL(string: baseURL)?.port)
                await #expect(throws: RedirectError.self) {
                    _ = try await intercept(baseURL + "/echo", "http://localhost:\(port)/echo")
                }
                let (response, body) = try await intercept("/files/Report Q1, 2024.pdf")
                let echoed = try JSONDecoder().decode(
                    [String: String].self, from: try await Data(collecting: try #require(body), upTo: 1 << 20))
                #expect(response.status == .ok && echoed["path"] == "/files/Report%20Q1,%202024.pdf")
            } catch {
                try await close()
                throw error
            }
            try await close()
        }
    }

    /// A redirect's body is read only when it is short and there at once (`RedirectBody`): a 302 whose
    /// body is a terabyte, or trickles without end, is followed at once rather than read to an end that
    /// does not come (the transport's timeout covers a response until its head). Over the
    /// AsyncHTTPClient transport, which streams bodies; the URLSession transport on Linux buffers every
    /// body before any middleware sees it (swift-openapi-urlsession's `bufferedRequest`).
    @Test(.timeLimit(.minutes(1)), arguments: ["huge", "trickling"])
    func aRedirectsBodyDoesNotHoldTheChain(_ kind: String) async throws {
        try await Backend.withRunningServer { baseURL in
            let (transport, close) = OpenAPIClientTests.makeTransport(.asyncHTTPClient)
            let send: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
                try await transport.send($0, body: $1, baseURL: $2, operationID: "bounce")
            }
            do {
                let started = ContinuousClock.now
                let (response, body) = try await CookieJarMiddleware(jar: CookieJar()).intercept(
                    HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/bounce-with-body/" + kind),
                    body: nil, baseURL: URL(string: baseURL)!, operationID: "bounce", next: send)
                let echoed = try JSONDecoder().decode(
                    [String: String].self, from: try await Data(collecting: try #require(body), upTo: 1 << 20))
                #expect(response.status == .ok && echoed["method"] == "GET")
                #expect(ContinuousClock.now - started < .seconds(10))
                // Dropped, the body's connection is closed (before the transport's client is shut down).
                try await JarHTTPClientRedirectTests.expectNoBodyBeingWritten(
                    baseURL, through: JarHTTPClient(jar: CookieJar()))
            } catch {
                try await close()
                throw error
            }
            try await close()
        }
    }

    /// `POST /sign-in` answers 302 to `/home` with the session cookies (the backend's redirect routes):
    /// through the middleware the sign-in arrives at `/home` signed in, on either transport.
    @Test(arguments: OpenAPIClientTests.Transport.allCases)
    func signInThroughARedirectArrivesSignedIn(_ transport: OpenAPIClientTests.Transport) async throws {
        try await Backend.withRunningServer { baseURL in
            let jar = CookieJar()
            let middleware = CookieJarMiddleware(jar: jar)
            var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/sign-in")
            request.headerFields[.contentType] = "application/json"
            let credentials = try JSONEncoder().encode(["email": Backend.email, "password": Backend.password])
            let (clientTransport, close) = OpenAPIClientTests.makeTransport(transport)
            let send: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
                try await clientTransport.send($0, body: $1, baseURL: $2, operationID: "signIn")
            }
            let (response, body) = try await middleware.intercept(
                request, body: HTTPBody(credentials), baseURL: URL(string: baseURL)!, operationID: "signIn", next: send)
            let bytes = try await Data(collecting: try #require(body), upTo: 1 << 20)
            try await close()
            #expect(response.status == .ok)
            let me = try JSONDecoder().decode([String: String].self, from: bytes)
            #expect(me["email"] == Backend.email)
            #expect(jar.cookies(for: CookieURL(baseURL + "/home")!).contains { $0.name == "remember_me" })
        }
    }
}
