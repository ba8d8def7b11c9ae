import AsyncHTTPClient
import Cookies
import CookiesAsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TestBackend
import Testing

/// `JarHTTPClient` following redirects over real HTTP, against the backend's redirect routes
/// (`Backend+Redirects.swift`). Two sites on one server: `127.0.0.1` and `localhost` (a host of its own,
/// so another site, and another origin).
@Suite("JarHTTPClient: redirects with the jar over real HTTP")
struct JarHTTPClientRedirectTests {
    /// The sign-in request: `POST path` with the account's credentials as JSON.
    static func signIn(_ url: String) throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(["email": Backend.email, "password": Backend.password])))
        return request
    }

    /// `POST url` with a text body.
    static func post(_ url: String, text: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "text/plain")
        request.body = .bytes(ByteBuffer(string: text))
        return request
    }

    /// The JSON object of a response's body.
    static func json(_ response: HTTPClientResponse) async throws -> [String: String] {
        let body = try await response.body.collect(upTo: 1 << 20)
        return try JSONDecoder().decode([String: String].self, from: Data(body.readableBytesView))
    }

    /// A client that follows redirects itself, as AsyncHTTPClient's clients do by default.
    static func followingClient() -> HTTPClient {
        HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(redirectConfiguration: .follow(max: 5, allowCycles: false)))
    }

    /// Each hop of a response's history as `METHOD path status`.
    static func hops(_ response: HTTPClientResponse) -> [String] {
        response.history.map { hop in
            "\(hop.request.method.rawValue) \(URL(string: hop.request.url)?.path ?? hop.request.url) \(hop.responseHead.status.code)"
        }
    }

    /// The chain `POST /sign-in` → 302 + Set-Cookie → `GET /home`: AsyncHTTPClient's own following
    /// arrives without the session (its README: "follow-redirects (cookie headers are dropped)"); through
    /// the jar, on `JarHTTPClient.sharedClient`, it arrives signed in.
    @Test("a sign-in redirect chain arrives signed in")
    func signInChain() async throws {
        try await Backend.withRunningServer { baseURL in
            let following = Self.followingClient()
            let plain = try await following.execute(Self.signIn(baseURL + "/sign-in"), timeout: .seconds(30))
            _ = try await plain.body.collect(upTo: 1 << 20)
            try await following.shutdown()
            #expect(plain.status == .unauthorized)

            let jar = CookieJar()
            let response = try await JarHTTPClient(jar: jar).execute(Self.signIn(baseURL + "/sign-in"), timeout: .seconds(30))
            #expect(Self.hops(response) == ["POST /sign-in 302", "GET /home 200"])
            let me = try await Self.json(response)
            #expect(me["email"] == Backend.email && me["cookies"] == "session,remember_me" && me["cookieFields"] == "1")
            // The GET that the 302 made of the POST went without the body and its Content-Type.
            let home = try #require(response.history.last?.request)
            #expect(home.body == nil && home.headers["Content-Type"].isEmpty)
            #expect(jar.cookies(forSite: "127.0.0.1").map(\.name).sorted() == ["remember_me", "session"])
        }
    }

    /// `followsRedirects: false` returns the sign-in's 302 as it came, its Location for the caller to read
    /// (this project's contract, as AsyncHTTPClient's `.disallow` returns it), and its cookies stored: the
    /// next request, to the Location, arrives signed in.
    @Test("a redirect not followed is returned, its cookies stored")
    func redirectNotFollowed() async throws {
        try await Backend.withRunningServer { baseURL in
            let jar = CookieJar()
            let client = JarHTTPClient(jar: jar, followsRedirects: false)
            let response = try await client.execute(Self.signIn(baseURL + "/sign-in"), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            #expect(Self.hops(response) == ["POST /sign-in 302"])
            #expect(response.headers["Location"] == ["/home"])
            #expect(jar.cookies(forSite: "127.0.0.1").map(\.name).sorted() == ["remember_me", "session"])
            let home = try await client.execute(HTTPClientRequest(url: baseURL + "/home"), timeout: .seconds(30))
            #expect(try await Self.json(home)["cookies"] == "session,remember_me")
        }
    }

    /// A cookie the caller sends itself that a redirect's response sets or deletes goes on the next hops as
    /// the jar holds it, the server's new value or none (a session rotated, or a sign-out that deletes it
    /// and redirects): the caller's value would otherwise win its name's clash with the jar's on every later
    /// hop (Go's net/http drops such a cookie from the `Cookie` field it forwards). The first hop goes with
    /// the method as the chain reads it (`post` as `POST`, Fetch's "normalize a method").
    @Test("a cookie the server changes on the way goes as the jar holds it, and the method as the chain reads it", arguments: [
        ("session=new; Path=/", "keep=1; session=new"), ("session=; Max-Age=0; Path=/", "keep=1"),
    ])
    func aCookieTheServerChangesOnTheWay(_ setCookie: String, _ echoed: String) async throws {
        try await Backend.withRunningServer { baseURL in
            let query = "set=" + setCookie.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&to=%2Fecho"
            var request = HTTPClientRequest(url: baseURL + "/set-and-bounce?" + query)
            request.headers.add(name: "Cookie", value: "session=old; keep=1")
            let response = try await JarHTTPClient(jar: CookieJar()).execute(request, timeout: .seconds(30))
            #expect(try await Self.json(response)["cookieHeader"] == echoed)
            var post = HTTPClientRequest(url: baseURL + "/submit")
            post.method = HTTPMethod(rawValue: "post")
            let submitted = try await JarHTTPClient(jar: CookieJar()).execute(post, timeout: .seconds(30))
            #expect(submitted.history.map(\.request.method) == [.POST, .GET])
        }
    }

    /// The caller's own cookies go with the jar's in one field (rfc6265bis-22 §5.8.1: one Cookie field),
    /// on the first origin only. A hop to another site carries the jar's cookies for that site and none
    /// of the first site's: neither the jar's session nor the caller's own cookie, which the first hop's
    /// Cookie field held, nor Authorization or Origin (`RedirectStep.crossOriginFieldNames`: Fetch's
    /// HTTP-redirect fetch drops Authorization, Go's net/http the Cookie field, AsyncHTTPClient's own
    /// following Origin too); a hop that stays on the origin keeps Origin. A chain that leaves the site and comes back is
    /// cross-site (rfc6265bis-22 §5.2 via Fetch): the SameSite=Lax session stays off it when the request
    /// is no top-level navigation, and goes on it when it is one (§5.8.3 step 1: Lax cookies go on a
    /// cross-site top-level GET), as an app's own request (`firstParty`) is; a cookie such a hop sets is
    /// stored (§5.7 step 18.3), as in an SSO round trip that comes back to a page rotating the session.
    @Test("a redirect to another site carries none of the first site's cookies, nor credentials or Origin")
    func crossSite() async throws {
        try await Backend.withRunningServer { baseURL in
            let jar = CookieJar()
            let runner = JarHTTPClient(jar: jar)
            _ = try await Self.json(runner.execute(Self.signIn(baseURL + "/sign-in"), timeout: .seconds(30)))
            let port = try #require(URL(string: baseURL)?.port)
            let otherSite = "http://localhost:\(port)"
            jar.receive("there=1; Max-Age=3600", from: try #require(CookieURL(otherSite + "/")))
            func bounce(_ target: String) -> String {
                "/bounce?to=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            }

            var own = HTTPClientRequest(url: baseURL + "/echo")
            own.headers.add(name: "Cookie", value: "own=1")
            let ownResponse = try await runner.execute(own, timeout: .seconds(30))
            #expect(try await Self.json(ownResponse)["cookies"].map { Set($0.split(separator: ",")) } == ["own", "session", "remember_me"])
            #expect(ownResponse.history[0].request.headers["Cookie"].count == 1)

            var near = HTTPClientRequest(url: baseURL + bounce(baseURL + "/echo"))
            near.headers.add(name: "Origin", value: baseURL)
            #expect(try await Self.json(runner.execute(near, timeout: .seconds(30)))["origin"] == baseURL)

            var away = HTTPClientRequest(url: baseURL + bounce(otherSite + "/echo"))
            away.headers.add(name: "Authorization", value: "Bearer secret")
            away.headers.add(name: "Cookie", value: "own=1")
            away.headers.add(name: "Origin", value: baseURL)
            let awayResponse = try await runner.execute(away, timeout: .seconds(30))
            let echoed = try await Self.json(awayResponse)
            #expect(echoed["cookies"] == "there" && echoed["authorization"] == "" && echoed["origin"] == "")
            #expect(Self.hops(awayResponse) == ["GET /bounce 302", "GET /echo 200"])
            #expect(awayResponse.history[0].request.headers["Cookie"].count == 1)
            #expect(awayResponse.history[0].request.headers["Cookie"].first?.hasPrefix("own=1; ") == true)
            #expect(awayResponse.history[0].request.headers["Origin"] == [baseURL])
            #expect(awayResponse.history[1].request.headers["Cookie"] == ["there=1"])

            struct Case: Sendable {
                let path: String
                let context: CookieRequestContext
                let cookies: String
            }
            let cases = [
                // Same site all the way: the cookies go.
                Case(path: "/echo", context: .firstParty, cookies: "session,remember_me"),
                // Away and back: cross-site, so the Lax cookies stay off a request that is no navigation...
                Case(path: bounce(otherSite + bounce(baseURL + "/echo")), context: CookieRequestContext(), cookies: ""),
                // ...and go on a top-level navigation's GET, which an app's own request is.
                Case(path: bounce(otherSite + bounce(baseURL + "/echo")), context: .firstParty, cookies: "session,remember_me"),
            ]
            for testCase in cases {
                let response = try await runner.execute(
                    HTTPClientRequest(url: baseURL + testCase.path), timeout: .seconds(30), context: testCase.context)
                #expect(try await Self.json(response)["cookies"] == testCase.cookies, "\(testCase.path)")
            }

            let session = { jar.allCookies().first { $0.name == "session" }?.value }
            let before = session()
            let rotated = try await runner.execute(
                HTTPClientRequest(url: baseURL + bounce(otherSite + bounce(baseURL + "/account/rotate"))), timeout: .seconds(30))
            #expect(rotated.status == .ok)
            #expect(session() != nil && session() != before, "the session the cross-site hop set is stored")
        }
    }

    /// RFC 9110 §15.4.4: a 303 answer to a POST is followed with a GET, without the body (Fetch also
    /// drops the fields that describe it).
    @Test("a 303 after a POST becomes a GET without the body")
    func seeOther() async throws {
        try await Backend.withRunningServer { baseURL in
            let request = Self.post(baseURL + "/submit", text: "a body for /submit")
            let response = try await JarHTTPClient(jar: CookieJar()).execute(request, timeout: .seconds(30))
            #expect(Self.hops(response) == ["POST /submit 303", "GET /echo 200"])
            let echoed = try await Self.json(response)
            #expect(echoed["method"] == "GET" && echoed["bodyBytes"] == "0" && echoed["contentType"] == "")
        }
    }

    /// RFC 9110 §15.4.8: a 307 keeps the method and the body. A body of bytes goes again; a body streamed
    /// from an async sequence, which the first hop used up, is refused rather than sent again empty.
    @Test("a 307 resends a bytes body, and refuses a streamed one")
    func temporaryRedirectWithABody() async throws {
        try await Backend.withRunningServer { baseURL in
            var request = Self.post(baseURL + "/moved-temporarily", text: "twelve bytes")
            let response = try await JarHTTPClient(jar: CookieJar()).execute(request, timeout: .seconds(30))
            #expect(Self.hops(response) == ["POST /moved-temporarily 307", "POST /echo 200"])
            let echoed = try await Self.json(response)
            #expect(echoed["method"] == "POST" && echoed["bodyBytes"] == "12" && echoed["contentType"] == "text/plain")

            let (parts, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
            continuation.yield(ByteBuffer(string: "twelve bytes"))
            continuation.finish()
            request.body = .stream(parts, length: .known(12))
            await #expect(throws: JarHTTPClientError.bodyCannotBeResent(status: 307, location: baseURL + "/echo")) {
                try await JarHTTPClient(jar: CookieJar()).execute(request, timeout: .seconds(30))
            }
        }
    }

    /// Which bodies `canBeSentAgain` finds can be sent again: what AsyncHTTPClient's own redirect following
    /// decides for each (its `canBeConsumedMultipleTimes`, HTTPClientRequest.swift of AsyncHTTPClient 1.x).
    @Test("bodies that can be sent again", arguments: [
        ("ByteBuffer", HTTPClientRequest.Body.bytes(ByteBuffer(string: "abc")), true),
        ("[UInt8]", .bytes([UInt8]("abc".utf8)), true),
        ("Data", .bytes(Data("abc".utf8)), true),
        ("async sequence", .stream(AsyncStream<ByteBuffer> { $0.finish() }, length: .unknown), false),
        // Over 4 MiB, a collection is streamed as an async sequence (HTTPClientRequest.Body.bytes(_:length:)):
        // one that reads the collection afresh on each send, but whose mode is a used-up stream's too, an
        // iterator maker behind a closure (its mirror has no children). A ByteBuffer never is.
        ("[UInt8] over 4 MiB", .bytes([UInt8](repeating: 0x61, count: 4 << 20 + 1)), false),
        ("ByteBuffer over 4 MiB", .bytes(ByteBuffer(repeating: 0x61, count: 4 << 20 + 1)), true),
    ])
    func bodiesThatCanBeSentAgain(_ kind: String, _ body: HTTPClientRequest.Body, _ again: Bool) {
        #expect(JarHTTPClient.canBeSentAgain(body) == again, "\(kind)")
    }

    /// `/loop/a` and `/loop/b` redirect to each other: the second `GET /loop/a` would be the very request
    /// sent before, so the chain stops there with an error that names the hops.
    @Test("a redirect loop stops with an error naming the hops")
    func loop() async throws {
        try await Backend.withRunningServer { baseURL in
            let error = await #expect(throws: RedirectError.self) {
                try await JarHTTPClient(jar: CookieJar()).execute(HTTPClientRequest(url: baseURL + "/loop/a"), timeout: .seconds(30))
            }
            #expect(error?.description == "redirect loop: GET \(baseURL)/loop/a → 302, GET \(baseURL)/loop/b → 302, GET \(baseURL)/loop/a")
        }
    }

    /// A redirect's body is read only when it is short and there at once (`RedirectBody`): a 302 whose
    /// body is a terabyte, or trickles without end, is followed at once. Reading such a body to its end
    /// held the chain for as long as the server went on, past the deadline, which AsyncHTTPClient's own
    /// deadline does not cover once the head arrived (`executeCancellable`, HTTPClient+execute.swift of
    /// AsyncHTTPClient 1.37). Dropping the body closes its connection, so the server stops writing it
    /// (AsyncHTTPClient cancels a request whose body is let go), and the client goes on with other
    /// requests.
    @Test("a redirect whose body is huge or trickles is followed at once", .timeLimit(.minutes(1)),
        arguments: ["huge", "trickling"])
    func redirectBodies(_ kind: String) async throws {
        try await Backend.withRunningServer { baseURL in
            let runner = JarHTTPClient(jar: CookieJar())
            let started = ContinuousClock.now
            let response = try await runner.execute(
                HTTPClientRequest(url: baseURL + "/bounce-with-body/" + kind), timeout: .seconds(30))
            #expect(Self.hops(response) == ["GET /bounce-with-body/\(kind) 302", "GET /echo 200"])
            #expect(try await Self.json(response)["method"] == "GET")
            #expect(ContinuousClock.now - started < .seconds(10))
            try await Self.expectNoBodyBeingWritten(baseURL, through: runner)
        }
    }

    /// The deadline is for the whole chain: it ends the reading of a redirect's body that trickles
    /// (`RedirectBody.maximumWait` is longer than what is left of it here).
    @Test("the deadline ends the reading of a redirect's body", .timeLimit(.minutes(1)))
    func redirectBodyWithinTheDeadline() async throws {
        try await Backend.withRunningServer { baseURL in
            let runner = JarHTTPClient(jar: CookieJar())
            let started = ContinuousClock.now
            await #expect(throws: HTTPClientError.deadlineExceeded) {
                try await runner.execute(
                    HTTPClientRequest(url: baseURL + "/bounce-with-body/trickling"), timeout: .milliseconds(600))
            }
            #expect(ContinuousClock.now - started < .seconds(10))
            try await Self.expectNoBodyBeingWritten(baseURL, through: runner)
        }
    }

    /// Waits (up to 10 s) until the backend writes no redirect body any more: their connections closed.
    static func expectNoBodyBeingWritten(_ baseURL: String, through runner: JarHTTPClient) async throws {
        var writing: String?
        for _ in 0..<100 {
            let response = try await runner.execute(HTTPClientRequest(url: baseURL + "/redirect-bodies"), timeout: .seconds(5))
            writing = try await Self.json(response)["writing"]
            if writing == "0" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(writing == "0", "a dropped redirect body's connection stays open")
    }

    /// Several Location fields of different values: Fetch's "location URL" is failure (a network error),
    /// Chromium's ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION; the request throws naming them, rather than
    /// following the first. The same value twice is one Location.
    @Test("a redirect with several different Location fields throws, naming them")
    func severalLocations() async throws {
        try await Backend.withRunningServer { baseURL in
            let runner = JarHTTPClient(jar: CookieJar())
            let error = await #expect(throws: RedirectError.self) {
                try await runner.execute(
                    HTTPClientRequest(url: baseURL + "/locations?to=/echo&to=/home"), timeout: .seconds(30))
            }
            #expect(error?.description == "redirect with several different Location fields (\"/echo\", \"/home\"): "
                + "GET \(baseURL)/locations?to=/echo&to=/home → 302")
            let same = try await runner.execute(
                HTTPClientRequest(url: baseURL + "/locations?to=/echo&to=/echo"), timeout: .seconds(30))
            #expect(Self.hops(same) == ["GET /locations 302", "GET /echo 200"])
            _ = try await Self.json(same)
        }
    }

    /// A URL the jar keeps no cookies for (AsyncHTTPClient's Unix-socket schemes) is refused before
    /// anything is sent, rather than sent without the jar's cookies and its Set-Cookie fields dropped.
    /// The host the jar reads is the one the request goes to (this library's contract): AsyncHTTPClient reads
    /// a URL through Foundation, which percent-encodes a backslash in the authority into the user information,
    /// where the WHATWG URL standard ends the host at it, so "http://localhost:PORT\\@127.0.0.1:PORT/echo" goes
    /// to 127.0.0.1. Read the WHATWG way, the jar sent localhost's cookies there.
    @Test("a backslash in the authority: the jar's host is the one the request goes to")
    func backslashInTheAuthority() async throws {
        try await Backend.withRunningServer { baseURL in
            let port = try #require(URL(string: baseURL)?.port)
            let jar = CookieJar()
            jar.receive("leak=1; Max-Age=3600", from: try #require(CookieURL("http://localhost:\(port)/")))
            jar.receive("mine=1; Max-Age=3600", from: try #require(CookieURL(baseURL + "/")))
            let url = "http://localhost:\(port)\\@127.0.0.1:\(port)/echo"
            let response = try await JarHTTPClient(jar: jar).execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            #expect(try await Self.json(response)["cookies"] == "mine")
        }
    }

    @Test("a Unix-socket URL is refused, not sent without cookies")
    func unixSocketURL() async throws {
        for url in ["http+unix://%2Ftmp%2Fcookiejar-none.sock/me", "unix:///tmp/cookiejar-none.sock", "ftp://example.com/"] {
            await #expect(throws: JarHTTPClientError.notACookieURL(url)) {
                try await JarHTTPClient(jar: CookieJar()).execute(HTTPClientRequest(url: url), timeout: .seconds(5))
            }
        }
    }

    /// A following client's hops are stored only while it went where the chain goes: AsyncHTTPClient reads
    /// `Location: \\other.test/stray` as Foundation does, a path on the same host (the backslashes
    /// percent-encoded), the chain as a browser does (the WHATWG URL standard: a backslash is a slash), the
    /// host other.test. The cookie the client's hop got is not filed under other.test.
    @Test("a following client's hop that went elsewhere than the chain's is not stored under the chain's URL")
    func followingClientThatWentElsewhere() async throws {
        try await Backend.withRunningServer { baseURL in
            let following = Self.followingClient()
            let jar = CookieJar()
            let request = HTTPClientRequest(url: baseURL + "/locations?to=%5C%5Cother.test/stray")
            await #expect(throws: JarHTTPClientError.clientFollowsRedirects) {
                try await JarHTTPClient(jar: jar, client: following).execute(request, timeout: .seconds(30))
            }
            #expect(jar.cookies(forSite: "other.test").isEmpty)
            try await following.shutdown()
        }
    }

    /// A client that follows redirects itself sends the hops without the jar's cookies: the request
    /// throws, whether the chain ended, looped (AsyncHTTPClient's `redirectCycleDetected`) or went past
    /// the client's limit (`redirectLimitReached`). `makeClient` turns following off in any configuration.
    @Test("a client that follows redirects itself is refused; makeClient makes one that does not")
    func followingClient() async throws {
        try await Backend.withRunningServer { baseURL in
            let following = Self.followingClient()
            let limited = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: HTTPClient.Configuration(redirectConfiguration: .follow(max: 1, allowCycles: true)))
            for (client, request) in [
                (following, try Self.signIn(baseURL + "/sign-in")), (following, HTTPClientRequest(url: baseURL + "/loop/a")),
                (limited, HTTPClientRequest(url: baseURL + "/loop/a")),
            ] {
                await #expect(throws: JarHTTPClientError.clientFollowsRedirects, "\(request.url)") {
                    try await JarHTTPClient(jar: CookieJar(), client: client).execute(request, timeout: .seconds(30))
                }
            }
            // The hops in the history had their cookies stored before the request threw: the sign-in's
            // session is kept, and the next request, through a client that follows none, is signed in.
            let jar = CookieJar()
            await #expect(throws: JarHTTPClientError.clientFollowsRedirects) {
                try await JarHTTPClient(jar: jar, client: following).execute(Self.signIn(baseURL + "/sign-in"), timeout: .seconds(30))
            }
            let home = try await JarHTTPClient(jar: jar).execute(HTTPClientRequest(url: baseURL + "/home"), timeout: .seconds(30))
            #expect(try await Self.json(home)["email"] == Backend.email)
            try await following.shutdown()
            try await limited.shutdown()

            let made = JarHTTPClient.makeClient(
                configuration: HTTPClient.Configuration(redirectConfiguration: .follow(max: 5, allowCycles: false)))
            let response = try await JarHTTPClient(jar: CookieJar(), client: made).execute(
                Self.signIn(baseURL + "/sign-in"), timeout: .seconds(30))
            #expect(Self.hops(response) == ["POST /sign-in 302", "GET /home 200"])
            #expect(try await Self.json(response)["email"] == Backend.email)
            try await made.shutdown()
        }
    }
}
