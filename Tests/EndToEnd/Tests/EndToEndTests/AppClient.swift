import Cookies

/// What the app's networking layer does, over one HTTP client: send a request to the backend with the
/// jar's cookies (optionally a bearer token and a JSON body), store the `Set-Cookie` fields of every
/// response, follow redirects.
protocol AppClient: Sendable {
    /// The jar the client's cookies live in.
    var jar: CookieJar { get }
    /// Sends `method path`; `cookies: false` sends no cookies (to prove a bearer token works alone).
    func send(_ method: String, _ path: String, bearer: String?, json: [String: String]?, cookies: Bool) async throws
        -> Reply
    /// Releases the client's connections.
    func close() async throws
}

extension AppClient {
    func send(_ method: String, _ path: String, bearer: String? = nil, json: [String: String]? = nil) async throws
        -> Reply
    {
        try await send(method, path, bearer: bearer, json: json, cookies: true)
    }
}

/// The final response of a request.
struct Reply: Sendable {
    let status: Int
    let json: [String: String]
}

/// The clients the flow runs on.
enum ClientKind: String, CaseIterable, Sendable {
    case urlSession = "URLSession"
    case asyncHTTPClient = "AsyncHTTPClient"

    func makeClient(jar: CookieJar, baseURL: String) -> any AppClient {
        switch self {
        case .urlSession: return URLSessionAppClient(jar: jar, baseURL: baseURL)
        case .asyncHTTPClient: return AsyncHTTPClientAppClient(jar: jar, baseURL: baseURL)
        }
    }
}
