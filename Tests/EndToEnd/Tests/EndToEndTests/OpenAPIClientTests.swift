import AccountsAPI
import AsyncHTTPClient
import Cookies
import CookiesFoundation
import CookiesOpenAPI
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession
import TestBackend
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client generated from `Sources/AccountsAPI/openapi.yaml`, its cookies in a SQLite jar through
/// `CookieJarMiddleware`, over real HTTP on both transports.
@Suite("OpenAPI client with CookieJarMiddleware over real HTTP")
struct OpenAPIClientTests {
    /// The transports the generated client runs on.
    enum Transport: String, CaseIterable, Sendable {
        case urlSession = "URLSession"
        case asyncHTTPClient = "AsyncHTTPClient"
    }

    /// Sets a `Cookie` field of its own, as an operation with a cookie of its own does (through
    /// swift-http-types, which splits it into one field per cookie), before `CookieJarMiddleware` runs.
    struct OwnCookies: ClientMiddleware {
        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[.cookie] = "client=e2e; theme=dark"
            return try await next(request, body, baseURL)
        }
    }

    /// A generated client on `transport` whose cookies live in `jar`, with `OwnCookies` first when
    /// `ownCookies`; `close` releases the transport's client.
    static func makeClient(_ transport: Transport, baseURL: String, jar: CookieJar, ownCookies: Bool = false)
        -> (client: Client, close: @Sendable () async throws -> Void)
    {
        let middlewares: [any ClientMiddleware] = (ownCookies ? [OwnCookies()] : []) + [CookieJarMiddleware(jar: jar)]
        let (clientTransport, close) = makeTransport(transport)
        return (Client(serverURL: URL(string: baseURL)!, transport: clientTransport, middlewares: middlewares), close)
    }

    /// A transport of kind `transport` as `CookieJarMiddleware` wants it, and what releases it: its own
    /// cookie handling and redirect following off (the jar is the only cookie store, and the middleware
    /// follows redirects).
    static func makeTransport(_ transport: Transport) -> (transport: any ClientTransport, close: @Sendable () async throws -> Void) {
        switch transport {
        case .urlSession:
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            let session = URLSession(configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
            return (URLSessionTransport(configuration: .init(session: session)), { session.finishTasksAndInvalidate() })
        case .asyncHTTPClient:
            var configuration = HTTPClient.Configuration()
            configuration.redirectConfiguration = .disallow
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            return (AsyncHTTPClientTransport(configuration: .init(client: client)), { try await client.shutdown() })
        }
    }

    /// A transport's response with the given `Set-Cookie` fields, as they come.
    struct FieldsTransport: ClientTransport {
        let setCookies: [String]
        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            var fields = HTTPFields()
            for value in setCookies { fields.append(HTTPField(name: .setCookie, value: value)) }
            return (HTTPResponse(status: .ok, headerFields: fields), nil)
        }
    }

    /// One `Set-Cookie` field may be several that Foundation joined (the URLSession transport): it is
    /// split back (`CombinedSetCookie`). Several fields came from a transport that keeps them apart: each
    /// is stored as it is, a comma in a value included (rfc6265bis-22 §5.6 ends a value only at ";").
    /// With a transport that never joins the fields (`transportJoinsSetCookieFields` false), a lone field is
    /// stored as it is too.
    @Test(arguments: [
        (["a=1, b=2; Path=/"], true, ["a": "1", "b": "2"]),
        (["a=1, b=2; Path=/", "c=3"], true, ["a": "1, b=2", "c": "3"]),
        (["consent=analytics=1, ads=0; Path=/"], false, ["consent": "analytics=1, ads=0"]),
    ])
    func setCookieFieldsAreSplitOnlyWhenJoined(_ fields: [String], _ joins: Bool, _ stored: [String: String]) async throws {
        let jar = CookieJar()
        let middleware = CookieJarMiddleware(jar: jar, transportJoinsSetCookieFields: joins)
        let transport = FieldsTransport(setCookies: fields)
        _ = try await middleware.intercept(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/me"), body: nil,
            baseURL: URL(string: "https://api.example.com")!, operationID: "me",
            next: { request, body, baseURL in try await transport.send(request, body: body, baseURL: baseURL, operationID: "me") })
        #expect(Dictionary(uniqueKeysWithValues: jar.allCookies().map { ($0.name, $0.value) }) == stored)
    }

    /// Sign in, "me" with the jar's cookies (merged into one field with the operation's own), then a
    /// relaunch: the jar reopened from its SQLite file (session cookies kept, `persistsSessionCookies`)
    /// still holds the same session cookie, and "me" is signed in by it without a new sign-in.
    ///
    /// The AsyncHTTPClient transport (swift-openapi-async-http-client 1.5.0) keeps only the last of
    /// repeated response fields (it copies AsyncHTTPClient's headers with `headerFields[name] = value`),
    /// so of the sign-in's two `Set-Cookie` fields only `remember_me` reaches any middleware; "me" then
    /// gets a new session from the backend (one `Set-Cookie` field), which is the one that survives.
    @Test(arguments: Transport.allCases)
    func sessionSurvivesRelaunch(_ transport: Transport) async throws {
        try await Backend.withRunningServer { baseURL in
            try await withJarFilePath { path in
                var options = CookieJarFileOptions()
                options.persistsSessionCookies = true
                var jar = try CookieJar(contentsOf: path, options: options)
                var (client, close) = Self.makeClient(transport, baseURL: baseURL, jar: jar)
                let site = try #require(CookieURL(baseURL + "/me"))
                func names() -> String { jar.cookies(for: site).map(\.name).joined(separator: ",") }

                guard case .unauthorized = try await client.me() else {
                    Issue.record("signed in before signing in")
                    return
                }
                let grant = try await client.signIn(body: .json(.init(email: Backend.email, password: Backend.password)))
                #expect(try !grant.ok.body.json.token.isEmpty)
                #expect(names() == (transport == .urlSession ? "session,remember_me" : "remember_me"))
                let me = try await client.me().ok.body.json
                #expect(me.email == Backend.email && me.cookieFields == "1")
                #expect(me.cookies == (transport == .urlSession ? "session,remember_me" : "remember_me"))
                let session = try #require(jar.cookies(for: site).first { $0.name == "session" })
                try await close()

                (client, close) = Self.makeClient(transport, baseURL: baseURL, jar: jar, ownCookies: true)
                let merged = try await client.me().ok.body.json
                #expect(merged.cookies == "client,theme," + names() && merged.cookieFields == "1")
                try await close()

                jar = try relaunch(jar, options: options)
                #expect(jar.cookies(for: site).first { $0.name == "session" }?.value == session.value)
                (client, close) = Self.makeClient(transport, baseURL: baseURL, jar: jar)
                let resumed = try await client.me().ok.body.json
                #expect(resumed.email == Backend.email && resumed.cookies == names())
                #expect(jar.cookies(for: site).first { $0.name == "session" }?.value == session.value)
                try await close()
                try jar.close()
            }
        }
    }
}
