import Cookies
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Foundation request carrying a jar's cookies.
extension URLRequest {
    /// Sets the `Cookie` field to the cookies `jar` sends to this request's URL (rfc6265bis-22 §5.8.3),
    /// replacing any `Cookie` field the request had; removes the field when the jar sends none. The
    /// request's own method (`httpMethod`, GET when nil) is the context's: a cross-site POST carries no
    /// SameSite=Lax cookie whatever `context.method` says.
    ///
    /// Turn off the session's own cookie handling (`httpShouldSetCookies = false` or
    /// `httpCookieStorage = nil` on its configuration): otherwise URLSession puts its storage's cookies in
    /// this field as well (on Linux it replaces the field with them, and the jar's are not sent).
    public mutating func addCookies(from jar: CookieJar, context: CookieRequestContext = .firstParty) {
        let context = context.forRequest(method: httpMethod ?? "GET")
        let header = url.flatMap(CookieURL.init).flatMap { jar.cookieHeader(for: $0, context: context) }
        setValue(header, forHTTPHeaderField: "Cookie")
    }
}
