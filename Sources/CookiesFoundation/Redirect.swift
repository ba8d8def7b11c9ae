import Foundation

/// Where a redirect response sends the client next (RFC 9110 §15.4), for clients that follow redirects
/// themselves so that every hop stores its `Set-Cookie` fields and sends the jar's `Cookie` field.
public struct Redirect: Sendable, Hashable {
    /// The next request's URL: the Location resolved against the URL that answered.
    public let url: URL
    /// The next request's method.
    public let method: String

    /// The redirect that a response with `status` and `location` to a `method` request for `url` asks
    /// for; nil when it asks for none (not 301, 302, 303, 307 or 308, or no usable Location).
    ///
    /// 303 turns every method but HEAD into GET (§15.4.4); 301 and 302 turn POST into GET, as user agents
    /// do (§15.4.2, §15.4.3); 307 and 308 keep the method (§15.4.8, §15.4.9).
    public init?(status: Int, location: String?, from url: URL, method: String) {
        guard [301, 302, 303, 307, 308].contains(status), let location,
            let target = URL(string: location, relativeTo: url)?.absoluteURL
        else { return nil }
        self.url = target
        switch status {
        case 303 where method != "HEAD", 301 where method == "POST", 302 where method == "POST":
            self.method = "GET"
        default:
            self.method = method
        }
    }

    /// True when the next request drops the body (and the fields that describe it): when the method
    /// became GET.
    public func dropsBody(of method: String) -> Bool {
        self.method == "GET" && method != "GET"
    }
}
