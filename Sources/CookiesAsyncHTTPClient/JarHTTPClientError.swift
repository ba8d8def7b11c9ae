#if CookiesAsyncHTTPClient
/// Why `JarHTTPClient` could not run a request.
public enum JarHTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `HTTPClient` followed redirects itself: its hops went without the cookies the redirects set,
    /// whose `Set-Cookie` fields are lost, and the first request had its effect. Make the client with
    /// `JarHTTPClient.makeClient(eventLoopGroup:configuration:)`, or use `JarHTTPClient.sharedClient`.
    case clientFollowsRedirects
    /// The request's URL is none a jar keeps cookies for (not http, https, ws or wss: AsyncHTTPClient's
    /// Unix-socket schemes `http+unix`, `https+unix` and `unix` are not), so the jar could neither send
    /// nor store its cookies: send it with the `HTTPClient` itself. Nothing was sent.
    case notACookieURL(String)

    public var description: String {
        switch self {
        case .notACookieURL(let url):
            "\(url) is not an http or https URL, which a cookie jar keeps cookies for: send it with the HTTPClient itself"
        case .clientFollowsRedirects:
            "the HTTPClient followed redirects itself (its hops went without the jar's cookies, and the first "
                + "request had its effect): make it with JarHTTPClient.makeClient(eventLoopGroup:configuration:) "
                + "or redirectConfiguration: .disallow, or use JarHTTPClient.sharedClient"
        }
    }
}
#endif
