#if CookiesAsyncHTTPClient
/// Why `JarHTTPClient` could not run a request.
public enum JarHTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `HTTPClient` followed redirects itself: its hops went without the cookies the redirects set, and
    /// the first request had its effect; the `Set-Cookie` fields of the hops in the response's history were
    /// stored (none when AsyncHTTPClient gave up on a loop or too many redirects). Make the client with
    /// `JarHTTPClient.makeClient(eventLoopGroup:configuration:)`, or use `JarHTTPClient.sharedClient`.
    case clientFollowsRedirects
    /// The request's URL is none a jar keeps cookies for (not http, https, ws or wss: AsyncHTTPClient's
    /// Unix-socket schemes `http+unix`, `https+unix` and `unix` are not), so the jar could neither send
    /// nor store its cookies: send it with the `HTTPClient` itself. Nothing was sent.
    case notACookieURL(String)
    /// The redirect keeps the method and the body (a 307 or 308, RFC 9110 §15.4.8, §15.4.9, and a 301 or
    /// 302 of any method but POST, §15.4.2, §15.4.3), but the request's body is not known to be one that
    /// can be sent again (`JarHTTPClient.canBeSentAgain(_:)`): made from an async sequence, which the first
    /// hop read and the next hop would send empty or cut short, or bytes over 4 MiB, which AsyncHTTPClient
    /// streams as an async sequence that cannot be told apart from such a one. The request was sent once;
    /// `status` and `location` are the redirect's. Give the body as one `ByteBuffer` to have it followed.
    case bodyCannotBeResent(status: Int, location: String)

    public var description: String {
        switch self {
        case .notACookieURL(let url):
            "\(url) is no URL a cookie jar keeps cookies for (an http or https URL with a valid host): send it with the HTTPClient itself"
        case .bodyCannotBeResent(let status, let location):
            "a \(status) redirect to \(location) keeps the method and body, but the request's body is streamed "
                + "(an async sequence, or bytes over 4 MiB, which AsyncHTTPClient streams as one) and is not known "
                + "to be one that can be sent again: give it as one ByteBuffer to follow the redirect"
        case .clientFollowsRedirects:
            "the HTTPClient followed redirects itself (its hops went without the jar's cookies, and the first "
                + "request had its effect): make it with JarHTTPClient.makeClient(eventLoopGroup:configuration:) "
                + "or redirectConfiguration: .disallow, or use JarHTTPClient.sharedClient"
        }
    }
}
#endif
