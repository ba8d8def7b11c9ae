import Foundation
import HTTPTypes
import Hummingbird

/// The app's backend for the end-to-end tests, served by Hummingbird on 127.0.0.1:
///
/// - `GET /me`: 200 and `{"email": …, "cookies": names of the cookies it got, comma-separated,
///   "cookieFields": how many Cookie fields carried them}` with a
///   bearer token, a `session` cookie or a `remember_me`
///   cookie (which also starts a new session: a new `session` cookie); 401 without.
/// - `POST /api/v1/auth` with `{"email", "password"}`: 200 and `{"token": …}` (a bearer token), setting
///   the session cookie (`session`, HttpOnly, Secure, no expiry) and the remember-me cookie
///   (`remember_me`, HttpOnly, Secure, Max-Age 30 days); 401 for a wrong password.
/// - `DELETE /api/v1/auth`: signs out whoever the credentials name and expires both cookies (Max-Age=0).
/// - `GET /redirect`: sets `visited` (persistent, an hour) and answers 302 to `/me`.
/// - The redirect routes of `Backend+Redirects.swift`.
/// - The web pages a web view loads (`addWebRoutes`): `POST /login` (a form), `GET /account`,
///   `GET /account/rotate`.
///
/// Secure cookies over plain HTTP: a client that counts http://127.0.0.1 as a secure origin (as the jar
/// does, rfc6265bis-22 §5.7 step 12 via "potentially trustworthy" loopback) stores them.
public enum Backend {
    /// Sets the session cookie.
    public static func sessionCookie(_ id: String) -> String {
        "session=\(id); Path=/; HttpOnly; Secure; SameSite=Lax"
    }

    /// Sets the remember-me cookie, for 30 days.
    public static func rememberMeCookie(_ token: String) -> String {
        "remember_me=\(token); Path=/; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax"
    }

    /// The `Set-Cookie` fields of a sign-out: both cookies expired.
    public static let signOutCookies = [
        "session=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax",
        "remember_me=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax",
    ]

    /// The cookie `/redirect` sets on the way.
    public static let visitedCookie = "visited=1; Path=/; Max-Age=3600"

    /// The account that can sign in.
    public static let email = Accounts.email
    public static let password = Accounts.password

    /// Runs the backend on an ephemeral port of 127.0.0.1 for the duration of `body`, which gets the base
    /// URL (`http://127.0.0.1:PORT`); stops it afterwards.
    public static func withRunningServer<T: Sendable>(
        _ body: @Sendable (String) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: makeRouter(Accounts()),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            })
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port != 0 else { throw BackendError.noPort }
            return try await body("http://127.0.0.1:\(port)")
        }
    }

    enum BackendError: Error { case noPort }

    struct Credentials: Decodable {
        let email: String
        let password: String
    }

    static func makeRouter(_ accounts: Accounts) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/me") { request, _ -> Response in
            await me(request, accounts: accounts)
        }
        router.post("/api/v1/auth") { request, context -> Response in
            let credentials = try await request.decode(as: Credentials.self, context: context)
            guard let grant = await accounts.signIn(email: credentials.email, password: credentials.password) else {
                return json(.unauthorized, ["error": "wrong email or password"])
            }
            return json(.ok, ["token": grant.bearerToken],
                setCookies: [sessionCookie(grant.session), rememberMeCookie(grant.rememberToken)])
        }
        router.delete("/api/v1/auth") { request, _ -> Response in
            if let email = await account(of: request, in: accounts) {
                await accounts.signOut(email)
            }
            return json(.ok, ["signedOut": "true"], setCookies: signOutCookies)
        }
        router.get("/redirect") { _, _ -> Response in
            redirect(.found, to: "/me", setCookies: [visitedCookie])
        }
        addRedirectRoutes(to: router, accounts: accounts)
        addWebRoutes(to: router, accounts: accounts)
        return router
    }

    /// `GET /me`'s answer to `request`.
    static func me(_ request: Request, accounts: Accounts) async -> Response {
        let cookies = cookieNames(of: request)
        let cookieFields = String(request.headers[values: .cookie].count)
        if let email = await account(of: request, in: accounts) {
            return json(.ok, ["email": email, "cookies": cookies, "cookieFields": cookieFields])
        }
        if let token = request.cookies["remember_me"]?.value, let resumed = await accounts.resume(rememberToken: token) {
            return json(.ok, ["email": resumed.email, "cookies": cookies, "cookieFields": cookieFields],
                setCookies: [sessionCookie(resumed.session)])
        }
        return json(.unauthorized, ["error": "sign in first"])
    }

    /// The names of the cookies `request` carries, comma-separated, in order.
    static func cookieNames(of request: Request) -> String {
        (request.headers[.cookie] ?? "").split(separator: ";")
            .map { $0.split(separator: "=", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces) ?? "" }
            .joined(separator: ",")
    }

    /// The account a bearer token or session cookie names.
    static func account(of request: Request, in accounts: Accounts) async -> String? {
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
            return await accounts.account(bearerToken: String(authorization.dropFirst("Bearer ".count)))
        }
        if let session = request.cookies["session"]?.value {
            return await accounts.account(session: session)
        }
        return nil
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: String], setCookies: [String] = []) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        for line in setCookies {
            headers.append(HTTPField(name: .setCookie, value: line))
        }
        let data = (try? JSONEncoder().encode(object)) ?? Data()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
