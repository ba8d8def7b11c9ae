import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession delegate that refuses the session's own redirect following, so that the response of each
/// hop comes back to a client that follows redirects with a jar (`JarURLSession`, `CookieJarMiddleware`
/// over a URLSession transport): `URLSession(configuration:delegate:delegateQueue:)` with it.
public final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    override public init() {}

    public func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
