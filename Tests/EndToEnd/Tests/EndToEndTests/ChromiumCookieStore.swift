import Cookies
import CookiesFoundation
import Foundation

/// Chromium's cookie store over the DevTools protocol, as the platform side of a `CookieStoreSync`:
/// `Storage.getCookies` and `Storage.setCookies` on the browser, `Network.deleteCookies` on a page.
/// It carries every field the sync compares (SameSite None included); the protocol has no cookie change
/// event, so it never signals: the tests call `reconcile()`.
struct ChromiumCookieStore: PlatformCookieStore {
    let browser: DevToolsPipe
    let page: String
    let clock: any CookieClock

    func allCookies() async throws -> [Cookie] {
        let now = clock.now()
        let cookies = try await browser.send("Storage.getCookies")["cookies"] as? [[String: Any]] ?? []
        return cookies.map { Self.cookie($0, creation: now) }
    }

    func setCookies(_ cookies: [Cookie]) async throws {
        try await browser.send("Storage.setCookies", ["cookies": cookies.map(Self.parameters)])
    }

    func deleteCookies(_ cookies: [Cookie]) async throws {
        for cookie in cookies {
            try await browser.send(
                "Network.deleteCookies",
                ["name": cookie.name, "domain": (cookie.isHostOnly ? "" : ".") + cookie.domain, "path": cookie.path],
                session: page)
        }
    }

    func changeSignals() -> AsyncStream<Void> { AsyncStream { _ in } }

    var carriedFields: CarriedCookieFields { .all }

    /// The protocol's `Network.Cookie` as the jar's cookie: a leading "." marks a domain cookie;
    /// `session` one without expiry; `sameSite` absent is no SameSite attribute.
    static func cookie(_ object: [String: Any], creation: CookieTime) -> Cookie {
        let domain = object["domain"] as? String ?? ""
        let isSession = object["session"] as? Bool ?? true
        let sameSite: SameSite = switch object["sameSite"] as? String {
        case "Strict": .strict
        case "Lax": .lax
        case "None": .none
        default: .default
        }
        return Cookie(
            name: object["name"] as? String ?? "", value: object["value"] as? String ?? "",
            domain: domain.hasPrefix(".") ? String(domain.dropFirst()) : domain, isHostOnly: !domain.hasPrefix("."),
            path: object["path"] as? String ?? "/",
            expiry: isSession ? nil : (object["expires"] as? Double).map { CookieTime(secondsSinceEpoch: $0) },
            creation: creation, isSecure: object["secure"] as? Bool ?? false,
            isHTTPOnly: object["httpOnly"] as? Bool ?? false, sameSite: sameSite,
            isSourceSecure: object["sourceScheme"] as? String == "Secure", sourcePort: object["sourcePort"] as? Int)
    }

    /// The protocol's `Network.CookieParam` of a cookie: a host-only cookie is set through a URL of its
    /// host (Chromium makes a cookie given a `domain` a domain cookie).
    static func parameters(_ cookie: Cookie) -> [String: Any] {
        var parameters: [String: Any] = [
            "name": cookie.name, "value": cookie.value, "path": cookie.path, "secure": cookie.isSecure,
            "httpOnly": cookie.isHTTPOnly,
        ]
        if cookie.isHostOnly {
            parameters["url"] = (cookie.isSecure ? "https://" : "http://") + cookie.domain + cookie.path
        } else {
            parameters["domain"] = "." + cookie.domain
        }
        if let expiry = cookie.expiry { parameters["expires"] = Double(expiry.microsecondsSinceEpoch) / 1_000_000 }
        switch cookie.sameSite {
        case .strict: parameters["sameSite"] = "Strict"
        case .lax: parameters["sameSite"] = "Lax"
        case .none: parameters["sameSite"] = "None"
        case .default: break
        }
        return parameters
    }
}
