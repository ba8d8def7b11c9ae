#if CookiesOpenAPI
/// Why `CookieJarMiddleware` could not follow a redirect.
public enum CookieJarMiddlewareError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The redirect keeps the method and the body (a 307 or 308, RFC 9110 §15.4.8, §15.4.9, and a 301 or
    /// 302 of any method but POST, §15.4.2, §15.4.3), but the request's body can be iterated only once
    /// (`HTTPBody.iterationBehavior` is `.single`, a body made from a stream): the first hop read it, and
    /// the next hop would go with an empty or broken body. The request was sent once; `status` and
    /// `location` are the redirect's. Give the body as bytes (iterable many times) to have it followed.
    case bodyCannotBeResent(status: Int, location: String)
    /// The redirect goes to `location`, an http(s) URL that the transport cannot be given as a server URL
    /// and a path that Foundation joins back into the same URL: it is not followed (nor handed back as if
    /// redirects were not followed). The request was sent once.
    case locationNotSendable(status: Int, location: String)

    public var description: String {
        switch self {
        case .bodyCannotBeResent(let status, let location):
            "a \(status) redirect to \(location) keeps the method and body, but the request's body can be "
                + "iterated only once and cannot be sent again: give it as bytes to follow the redirect"
        case .locationNotSendable(let status, let location):
            "a \(status) redirect to \(location): the transport cannot be given that URL as a server URL and a path"
        }
    }
}
#endif
