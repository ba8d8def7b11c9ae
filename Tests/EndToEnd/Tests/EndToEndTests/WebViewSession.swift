import Cookies
import CookiesFoundation
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The web view of a hybrid app, played by a URLSession with a cookie storage of its own: Foundation
/// sends and stores its cookies through that storage by itself, as WebKit does through a web view's
/// `WKHTTPCookieStore`; no cookie code of the app's runs for its requests. (On Linux a storage of one's
/// own comes from a new ephemeral configuration: `HTTPCookieStorage` has no public initializer.)
struct WebViewSession: Sendable {
    /// The web view's cookie store.
    let storage: HTTPCookieStorage
    /// Loads pages, its cookies in `storage`.
    let session: URLSession
    /// Where the pages are: `http://127.0.0.1:PORT`.
    let baseURL: String

    /// A web view whose store starts with `cookies` (what a persistent data store holds at a launch).
    init(baseURL: String, cookies: [HTTPCookie] = []) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = true
        configuration.httpCookieAcceptPolicy = .always
        self.baseURL = baseURL
        self.storage = configuration.httpCookieStorage!
        for cookie in cookies { storage.setCookie(cookie) }
        self.session = URLSession(configuration: configuration)
    }

    /// The platform store a `CookieStoreSync` keeps in step with the jar.
    func store(clock: any CookieClock) -> HTTPCookieStorageCookieStore {
        HTTPCookieStorageCookieStore(storage, clock: clock)
    }

    /// Loads a page (following redirects); returns its status and text.
    func load(_ path: String) async throws -> (status: Int, text: String) {
        try await send(URLRequest(url: URL(string: baseURL + path)!))
    }

    /// Submits a form (a POST of `application/x-www-form-urlencoded` fields), following the redirect.
    func submit(_ path: String, _ fields: KeyValuePairs<String, String>) async throws -> (status: Int, text: String) {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&").utf8)
        return try await send(request)
    }

    private func send(_ request: URLRequest) async throws -> (status: Int, text: String) {
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The value of the cookie `name` in the store, if it holds one.
    func cookie(_ name: String) -> String? {
        storage.cookies?.first { $0.name == name }?.value
    }

    /// The names of the cookies of `domain` in the store, sorted.
    func names(domain: String) -> [String] {
        (storage.cookies ?? []).filter { $0.domain == domain || $0.domain == "." + domain }.map(\.name).sorted()
    }

    /// The web view after an app relaunch: a persistent data store keeps its persistent cookies and
    /// loses its session cookies (rfc6265bis-22 §5.7: a cookie without expiry lasts until the session
    /// ends). The same process cannot read a storage's file afresh (Foundation keeps one storage per
    /// file), so the relaunched store is a new storage holding what the file would.
    func relaunched() -> WebViewSession {
        session.finishTasksAndInvalidate()
        return WebViewSession(baseURL: baseURL, cookies: (storage.cookies ?? []).filter { !$0.isSessionOnly })
    }
}
