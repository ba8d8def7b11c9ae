#if CookiesAsyncHTTPClient
/// Why `JarHTTPClient` could not run a request.
public enum JarHTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `HTTPClient` followed a redirect itself, without the jar's cookies on the next hop: make it
    /// with `redirectConfiguration: .disallow`, or use `JarHTTPClient.sharedClient`.
    case clientFollowsRedirects

    public var description: String {
        switch self {
        case .clientFollowsRedirects:
            "the HTTPClient follows redirects itself (the jar cannot put cookies on its hops): make it with "
                + "redirectConfiguration: .disallow, or use JarHTTPClient.sharedClient"
        }
    }
}
#endif
