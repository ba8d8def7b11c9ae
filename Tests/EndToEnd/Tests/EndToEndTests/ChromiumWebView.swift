import Cookies
import CookiesFoundation
import Foundation

/// The web view played by a real browser engine: headless Chromium (Debian's `chromium`) over the
/// DevTools protocol, with real SameSite, HttpOnly and Secure handling. Pages are loaded by navigation,
/// the sign-in form is filled and submitted by script in the page, and the cookie store is the
/// protocol's (`ChromiumCookieStore`). Its profile folder keeps the persistent cookies across a
/// relaunch, as a persistent `WKWebsiteDataStore` does.
final class ChromiumWebView: WebView {
    let browser: DevToolsPipe
    /// The page's session (the protocol's `sessionId` of its target).
    let page: String
    let profile: String
    let baseURL: String

    private init(browser: DevToolsPipe, page: String, profile: String, baseURL: String) {
        self.browser = browser
        self.page = page
        self.profile = profile
        self.baseURL = baseURL
    }

    /// Starts the browser on `profile` and opens a page.
    static func launch(baseURL: String, profile: String) async throws -> ChromiumWebView {
        let browser = try DevToolsPipe(profile: profile)
        do {
            let target = try await browser.send("Target.createTarget", ["url": "about:blank"])
            let attached = try await browser.send(
                "Target.attachToTarget", ["targetId": target["targetId"] as? String ?? "", "flatten": true])
            let page = attached["sessionId"] as? String ?? ""
            try await browser.send("Page.enable", session: page)
            return ChromiumWebView(browser: browser, page: page, profile: profile, baseURL: baseURL)
        } catch {
            await browser.close()
            throw error
        }
    }

    func load(_ path: String) async throws -> String {
        try await browser.awaitingEvent("Page.loadEventFired") {
            try await browser.send("Page.navigate", ["url": baseURL + path], session: page)
        }
        return try await statusText()
    }

    func signIn(email: String, password: String) async throws -> String {
        _ = try await load("/login")
        try await browser.awaitingEvent("Page.loadEventFired") {
            try await evaluate("""
                document.querySelector('[name=email]').value = \(try Self.literal(email));
                document.querySelector('[name=password]').value = \(try Self.literal(password));
                document.forms[0].submit();
                """)
        }
        return try await statusText()
    }

    func store(clock: any CookieClock) -> any PlatformCookieStore {
        ChromiumCookieStore(browser: browser, page: page, clock: clock)
    }

    func relaunched() async throws -> any WebView {
        await close()
        return try await Self.launch(baseURL: baseURL, profile: profile)
    }

    func close() async {
        await browser.close()
    }

    /// The text of the page's `#status` element ("" when it has none).
    private func statusText() async throws -> String {
        let result = try await evaluate("document.getElementById('status')?.textContent ?? ''")
        return (result["result"] as? [String: Any])?["value"] as? String ?? ""
    }

    @discardableResult
    private func evaluate(_ expression: String) async throws -> [String: Any] {
        try await browser.send("Runtime.evaluate", ["expression": expression, "returnByValue": true], session: page)
    }

    /// `text` as a JavaScript string literal.
    private static func literal(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }
}
