import Cookies
import CookiesFoundation

/// The web view of a hybrid app, as the tests drive it: it loads the backend's pages with its own
/// cookie handling (no cookie code of the app's runs for its requests), and its cookie store is the
/// platform side of a `CookieStoreSync`.
protocol WebView: Sendable {
    /// Loads the page at `path`; returns its status line (the `#status` element's text).
    func load(_ path: String) async throws -> String
    /// Signs in with the backend's form (`POST /login`); returns the status line of the page it ends on.
    func signIn(email: String, password: String) async throws -> String
    /// The web view's cookie store.
    func store(clock: any CookieClock) -> any PlatformCookieStore
    /// The web view after an app relaunch: persistent cookies kept, session cookies gone.
    func relaunched() async throws -> any WebView
    /// Releases the web view.
    func close() async
}

extension WebView {
    /// The cookies of the web view's store.
    func cookies() async throws -> [Cookie] {
        try await store(clock: SystemCookieClock()).allCookies()
    }

    /// The value of the cookie `name`, if the store holds one.
    func cookie(_ name: String) async throws -> String? {
        try await cookies().first { $0.name == name }?.value
    }

    /// The names of the store's cookies of `domain`, sorted.
    func names(domain: String) async throws -> [String] {
        try await cookies().filter { $0.domain == domain }.map(\.name).sorted()
    }
}

/// The web views the scenarios run on.
enum WebViewKind: String, CaseIterable, Sendable {
    /// A URLSession with a cookie storage of its own (`WebViewSession`).
    case urlSession = "URLSession"
    /// Headless Chromium over the DevTools protocol (`ChromiumWebView`).
    case chromium = "Chromium"

    /// A new web view of this kind on the backend at `baseURL`; `folder` holds what it keeps on disk.
    func make(baseURL: String, folder: String) async throws -> any WebView {
        switch self {
        case .urlSession: return WebViewSession(baseURL: baseURL)
        case .chromium: return try await ChromiumWebView.launch(baseURL: baseURL, profile: folder + "/chromium")
        }
    }
}
