import Cookies
import HTTPTypes

/// A swift-http-types request carrying a jar's cookies.
extension HTTPRequest {
    /// The request's target as a `CookieURL` (scheme, authority and path); nil when the request has no
    /// scheme or authority (e.g. a CONNECT request).
    public var cookieURL: CookieURL? {
        guard let scheme, let authority else { return nil }
        return CookieURL("\(scheme)://\(authority)\(path ?? "/")")
    }

    /// Sets the `Cookie` field to the cookies `jar` sends to this request (rfc6265bis-22 §5.8.3),
    /// replacing any `Cookie` field the request had; removes the field when the jar sends none. The
    /// request's own method is the context's: a cross-site POST carries no SameSite=Lax cookie whatever
    /// `context.method` says. The cookies go in one field (§5.8.1: "MUST NOT attach more than one Cookie
    /// header field"), which `HTTPFields`' own subscript would split into a field a cookie.
    public mutating func addCookies(from jar: CookieJar, context: CookieRequestContext = .firstParty) {
        let context = context.forRequest(method: method.rawValue)
        let value = cookieURL.flatMap { jar.cookieHeader(for: $0, context: context) }
        headerFields[fields: .cookie] = value.map { [HTTPField(name: .cookie, value: $0)] } ?? []
    }
}

/// Receiving a swift-http-types response's cookies.
extension CookieJar {
    /// Receives every `Set-Cookie` field of `fields`, each on its own (never comma-joined), as the response
    /// to `url`.
    public func receive(_ fields: HTTPFields, from url: CookieURL, context: CookieRequestContext = .firstParty) {
        receive(fields[values: .setCookie], from: url, context: context)
    }

    /// Receives every `Set-Cookie` field of `response`, the response to `request`; nothing when the
    /// request has no URL (see `HTTPRequest.cookieURL`).
    public func receive(_ response: HTTPResponse, to request: HTTPRequest, context: CookieRequestContext = .firstParty) {
        guard let url = request.cookieURL else { return }
        receive(response.headerFields, from: url, context: context)
    }
}
