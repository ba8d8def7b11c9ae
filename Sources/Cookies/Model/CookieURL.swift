/// The parts of a request URL that cookies depend on: scheme, canonical host, port and path.
///
/// Parsed from the text of an absolute `scheme://authority/path?query#fragment` URL. The path is kept as
/// written (never percent-decoded, rfc6265bis-22 §5.1.4 works on the URI path as sent), without query or
/// fragment; an empty path is `/`, as a browser's URL parser gives it.
public struct CookieURL: Sendable, Hashable, CustomStringConvertible {
    /// The lower-cased scheme, e.g. `https`.
    public let scheme: String
    public let host: CanonicalHost
    /// The explicit port, if the URL names one.
    public let port: Int?
    /// The path, starting with `/`.
    public let path: String

    /// Parses `string`; nil when it is not an absolute URL with a host.
    public init?(_ string: String) {
        var rest = Substring(string)
        guard let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = rest[..<colon]
        guard let first = scheme.utf8.first, CookieURL.isAlpha(first),
            scheme.utf8.allSatisfy({ CookieURL.isAlpha($0) || CookieURL.isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        rest = rest[rest.utf8.index(after: colon)...]
        guard rest.utf8.starts(with: "//".utf8) else { return nil }
        rest = rest.dropFirst(2)
        let authorityEnd = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "\\") }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            authority = authority[authority.utf8.index(after: at)...]
        }
        // The port follows the last colon that is not inside an IPv6 literal.
        var hostText = authority
        var port: Int?
        if let portColon = authority.utf8.lastIndex(of: UInt8(ascii: ":")),
            !authority[portColon...].utf8.contains(UInt8(ascii: "]")),
            authority.utf8.first != UInt8(ascii: "[") || authority[..<portColon].utf8.last == UInt8(ascii: "]")
        {
            let digits = authority[authority.utf8.index(after: portColon)...]
            if !digits.isEmpty {
                guard digits.utf8.count <= 5, let value = Int(digits), value <= 65535 else { return nil }
                port = value
            }
            hostText = authority[..<portColon]
        }
        guard let host = CanonicalHost(String(hostText)) else { return nil }
        var pathPart = rest[authorityEnd...]
        if let end = pathPart.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            pathPart = pathPart[..<end]
        }
        self.scheme = scheme.lowercased()
        self.host = host
        self.port = port
        self.path = pathPart.isEmpty ? "/" : String(pathPart)
    }

    /// A URL from parts already in canonical form.
    public init(scheme: String, host: CanonicalHost, port: Int? = nil, path: String = "/") {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path.isEmpty ? "/" : path
    }

    /// True when a request to this URL travels over a secure channel: https or wss, or any scheme to a
    /// loopback host (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`). rfc6265bis-22 leaves "secure"
    /// to the user agent (§5.7 step 13, §5.8.3 step 3); this matches browsers' potentially trustworthy
    /// origins.
    public var isSecure: Bool {
        scheme == "https" || scheme == "wss" || host.isLoopback
    }

    /// True for schemes that carry HTTP requests (http, https, ws, wss).
    public var isHTTPFamily: Bool {
        scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss"
    }

    /// `scheme://host[:port]`.
    public var origin: String {
        if let port { return scheme + "://" + host.name + ":" + String(port) }
        return scheme + "://" + host.name
    }

    public var description: String { origin + path }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
