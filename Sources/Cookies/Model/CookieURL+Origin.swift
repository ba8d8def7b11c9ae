extension CookieURL {
    /// True when both URLs have the same scheme, host and port (RFC 6454 §5), a missing port being the
    /// scheme's default (`defaultPort(ofScheme:)`).
    func isSameOrigin(as other: CookieURL) -> Bool {
        scheme == other.scheme && host == other.host && effectivePort == other.effectivePort
    }

    private var effectivePort: Int? { port ?? Self.defaultPort(ofScheme: scheme) }

    /// The default port of a special scheme, the WHATWG URL standard's table (21 for ftp, 80 for http and
    /// ws, 443 for https and wss): the port of a URL that names none, which its serialisation omits.
    package static func defaultPort(ofScheme scheme: String) -> Int? {
        switch scheme {
        case "ftp": 21
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
