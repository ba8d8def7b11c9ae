import Foundation

// Outside the trait's `#if`: it needs only Foundation, and the package's own tests, built without the
// trait, check it.

/// The URL an OpenAPI client transport sends a request to, made of the client's server URL and the
/// request's path, and the server URL and path that `CookieJarMiddleware` gives a redirect's hop: the
/// jar picks a request's cookies for this URL and stores its response's under it, so that it must be the
/// one the transport sends.
package enum TransportURL {
    /// The URL a transport sends a request for `path` (and query) to under `baseURL`, joined as both
    /// OpenAPI client transports join them (swift-openapi-urlsession's `URLRequest.init(_:baseURL:)`,
    /// swift-openapi-async-http-client's `AsyncHTTPClientTransport.convertRequest`): the path of
    /// `URLComponents(string: path)` after the server URL's own path (a trailing "/" included, so that
    /// `https://h/api/` and `/pets` make `https://h/api//pets`), its query instead of the server URL's. A
    /// path that starts with "//" is an authority to `URLComponents`, whose host is dropped: `//b.test/x`
    /// adds `/x`. Nil when a transport would throw (either does not parse).
    package static func joining(_ baseURL: URL, _ path: String?) -> String? {
        guard var components = URLComponents(string: baseURL.absoluteString),
            let pathComponents = URLComponents(string: path ?? "")
        else { return nil }
        components.percentEncodedPath += pathComponents.percentEncodedPath
        components.percentEncodedQuery = pathComponents.percentEncodedQuery
        return components.url?.absoluteString
    }

    /// The server URL and the path (and query) that `joining` makes the absolute `url` of, without its
    /// fragment (never sent) and with "/" for an empty path (HTTP sends "/" for one, RFC 9112 §3.2.1): its
    /// scheme and authority, and the rest. A path that starts with several slashes leaves all but one
    /// with the server URL (`https://a.test//login` is `https://a.test/` and `/login`), since `joining`
    /// reads a path starting with "//" as an authority. Nil when `url` has no authority or no server URL
    /// and path join into it.
    package static func split(_ url: String) -> (baseURL: URL, path: String)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        var path = url[authorityEnd...].prefix { $0 != "#" }
        let slashes = path.prefix { $0 == "/" }
        let pathStart = slashes.count > 1 ? path.index(before: slashes.endIndex) : path.startIndex
        let base = String(url[..<pathStart])
        path = path[pathStart...]
        let sent = path.hasPrefix("/") ? String(path) : "/" + path
        guard let baseURL = URL(string: base), joining(baseURL, sent) == base + sent else { return nil }
        return (baseURL, sent)
    }
}
