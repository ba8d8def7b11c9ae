import Cookies

extension FuzzTarget {
    /// A request URL's parsing (`CookieURL`: the WHATWG URL rules for the authority, the host canonicalised
    /// as rfc6265bis-22 §5.1.2 says, percent-decoding, IDNA, IPv4 and IPv6 literals): any bytes give a URL
    /// or none; a URL's host is canonical (canonicalising it again changes nothing), and its text (origin and
    /// path) parses back to the same URL.
    static let cookieURL = FuzzTarget(name: "url") { input throws(InvariantViolation) in
        let target = "url"
        guard let url = CookieURL(String(decoding: input, as: UTF8.self)) else { return }
        let host = url.host.name
        try require(CanonicalHost(host)?.name == host, target, "the host is not canonical: \(host)")
        let again = CookieURL(url.description)
        try require(again?.description == url.description, target, "the URL's text does not parse back to it")
        try require(
            again?.host.name == host && again?.path == url.path && again?.port == url.port
                && again?.isSecure == url.isSecure,
            target, "the URL's text parses back to another URL")
    }
}
