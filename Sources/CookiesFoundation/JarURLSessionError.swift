import Cookies

/// Why `JarURLSession` could not follow a redirect.
public enum JarURLSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The redirect keeps the method and the body (a 307 or 308, RFC 9110 §15.4.8, §15.4.9, and a 301 or
    /// 302 of any method but POST, §15.4.2, §15.4.3), but the request's body is an `httpBodyStream`, which
    /// the first hop read to its end and which cannot be read again: the next hop would go with an empty or
    /// broken body. The request was sent once; `status` and `location` are the redirect's. Give the request
    /// its body as `httpBody` (data) to have it followed.
    case bodyStreamCannotBeResent(status: Int, location: String)

    public var description: String {
        switch self {
        case .bodyStreamCannotBeResent(let status, let location):
            "a \(status) redirect to \(location) keeps the method and body, but the request's body is an "
                + "httpBodyStream, which cannot be sent again: give the body as httpBody to follow it"
        }
    }
}
