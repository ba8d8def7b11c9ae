#if CookiesAsyncHTTPClient
/// Why `JarHTTPClient` could not run a request.
public enum JarHTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `HTTPClient` followed redirects itself: its hops went without the cookies the redirects set,
    /// whose `Set-Cookie` fields are lost, and the first request had its effect. Make the client with
    /// `JarHTTPClient.makeClient(eventLoopGroup:configuration:)`, or use `JarHTTPClient.sharedClient`.
    case clientFollowsRedirects

    public var description: String {
        switch self {
        case .clientFollowsRedirects:
            "the HTTPClient followed redirects itself (its hops went without the jar's cookies, and the first "
                + "request had its effect): make it with JarHTTPClient.makeClient(eventLoopGroup:configuration:) "
                + "or redirectConfiguration: .disallow, or use JarHTTPClient.sharedClient"
        }
    }
}
#endif
