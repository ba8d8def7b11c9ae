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
struct WebViewSession: WebView {
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

    func store(clock: any CookieClock) -> any PlatformCookieStore {
        HTTPCookieStorageCookieStore(storage, clock: clock)
    }

    func load(_ path: String) async throws -> String {
        Self.statusText(try await send(URLRequest(url: URL(string: baseURL + path)!)))
    }

    func signIn(email: String, password: String) async throws -> String {
        Self.statusText(try await submit("/login", ["email": email, "password": password]))
    }

    /// Submits a form (a POST of `application/x-www-form-urlencoded` fields), following the redirect.
    func submit(_ path: String, _ fields: KeyValuePairs<String, String>) async throws -> String {
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

    private func send(_ request: URLRequest) async throws -> String {
        String(decoding: try await session.data(for: request).0, as: UTF8.self)
    }

    /// The text of a page's `<p id="status">` element ("" when it has none).
    static func statusText(_ page: String) -> String {
        guard let start = page.range(of: #"<p id="status">"#), let end = page.range(of: "</p>", range: start.upperBound..<page.endIndex)
        else { return "" }
        return String(page[start.upperBound..<end.lowerBound])
    }

    /// The web view after an app relaunch: a persistent data store keeps its persistent cookies and
    /// loses its session cookies (rfc6265bis-22 §5.7: a cookie without expiry lasts until the session
    /// ends). The same process cannot read a storage's file afresh (Foundation keeps one storage per
    /// file), so the relaunched store is a new storage holding what the file would.
    func relaunched() async throws -> any WebView {
        session.finishTasksAndInvalidate()
        return WebViewSession(baseURL: baseURL, cookies: (storage.cookies ?? []).filter { !$0.isSessionOnly })
    }

    func close() async {
        session.finishTasksAndInvalidate()
    }
}
