/// How the request of the next hop differs from the one that got a redirect response.
public struct RedirectStep: Sendable, Hashable {
    /// The statuses that redirect (RFC 9110 §15.4): 300 and 304 ask for no automatic redirect, 305 and
    /// 306 are deprecated.
    public static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Fetch's "request-body-header names", and the fields that frame a body: a request whose method
    /// became GET drops them with the body.
    public static let bodyFieldNames = [
        "content-encoding", "content-language", "content-location", "content-type", "content-length",
        "transfer-encoding",
    ]

    /// The credentials that never follow a redirect to another origin. Fetch removes `Authorization`
    /// ("If request's current URL's origin is not same origin with locationURL's origin, then for each
    /// headerName of CORS non-wildcard request-header name"); Go's net/http also removes `Cookie` and
    /// `Cookie2` (`shouldCopyHeaderOnRedirect`), as curl does since CVE-2018-1000007 (Authorization) and
    /// CVE-2022-27776 (Cookie); AsyncHTTPClient's own redirect following (1.37, `transformRequestForRedirect`)
    /// also removes `Proxy-Authorization`, which a client that follows here must not keep where that one
    /// would drop it. The jar gives each hop a `Cookie` field of its own.
    public static let credentialFieldNames = ["authorization", "proxy-authorization", "cookie", "cookie2"]

    /// The fields a hop to another origin goes without, whatever the status: the credentials
    /// (`credentialFieldNames`) and `Origin`, which AsyncHTTPClient's own redirect following (1.37,
    /// `transformRequestForRedirect`) also removes there, so that no hop keeps a field that one would drop;
    /// a hop that keeps the origin keeps them, as there. Fetch writes `Origin` afresh on each hop that has
    /// one (a CORS request, or a method other than GET and HEAD), as "null" once the chain went from a URL
    /// whose origin is not the request's to another origin (the request "has a redirect-tainted origin"):
    /// where Fetch sends "null", this sends none.
    public static let crossOriginFieldNames = credentialFieldNames + ["origin"]

    /// The next request's method: 303 turns every method but HEAD into GET (RFC 9110 §15.4.4); 301 and
    /// 302 turn POST into GET, as user agents do (§15.4.2, §15.4.3, and Fetch); 307 and 308 keep it
    /// (§15.4.8, §15.4.9).
    public let method: String
    /// The next request's absolute URL.
    public let url: String
    /// True when the next request goes without the body and the fields of `bodyFieldNames`: the method
    /// became GET.
    public let dropsBody: Bool
    /// True when the next request goes to another origin, without the fields of `crossOriginFieldNames`.
    public let leavesOrigin: Bool

    /// The step that a `status` answer to a `method` request asks for, to the absolute URL `url`.
    init(status: Int, method: String, to url: String, leavesOrigin: Bool) {
        switch status {
        case 303 where method != "HEAD", 301 where method == "POST", 302 where method == "POST":
            self.method = "GET"
        default:
            self.method = method
        }
        self.url = url
        self.dropsBody = self.method != method
        self.leavesOrigin = leavesOrigin
    }

    /// The lower-cased names of the fields the next request goes without.
    public var removedFieldNames: [String] {
        (dropsBody ? Self.bodyFieldNames : []) + (leavesOrigin ? Self.crossOriginFieldNames : [])
    }
}
