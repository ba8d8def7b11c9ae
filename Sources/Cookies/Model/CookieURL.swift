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
    /// The text holding the path (the URL as given, or the path itself) and the path's UTF-8 offsets in
    /// it: a parsed URL makes no String of its path, which retrieval reads as bytes and receiving only
    /// when it works out a default-path (§5.1.4).
    private let pathText: String
    private let pathStart: Int
    private let pathEnd: Int

    /// The path, starting with `/`.
    public var path: String {
        if pathStart == 0, pathEnd == pathText.utf8.count { return pathText }
        return withPathBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the path.
    @inline(__always)
    func withPathBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        pathText.withUTF8Bytes { body(UnsafeBufferPointer(rebasing: $0[pathStart..<pathEnd])) }
    }

    /// Calls `body` with the UTF-8 bytes of the host's name and of the path: both read from one text
    /// when they are in it (the closure then captures plain offsets, not a copy of the URL).
    @inline(__always)
    func withHostAndPathBytes<R>(_ body: (_ host: UnsafeBufferPointer<UInt8>, _ path: UnsafeBufferPointer<UInt8>) -> R) -> R {
        let path = pathStart..<pathEnd
        // A path after the start of its text is a parsed URL's, in the text its host stayed in, if any.
        if pathStart != 0, let hostRange = host.rangeInURLText {
            return pathText.withUTF8BytesViaSpan {
                body(UnsafeBufferPointer(rebasing: $0[hostRange]), UnsafeBufferPointer(rebasing: $0[path]))
            }
        }
        return host.withNameBytes { host in withPathBytes { body(host, $0) } }
    }

    /// Parses `string`; nil when it is not an absolute URL with a host.
    public init?(_ string: String) {
        var text = string
        guard let parts = text.withUTF8(CookieURL.parts(of:)), let host = CanonicalHost(in: text, at: parts.host)
        else { return nil }
        self.scheme = parts.scheme
        self.host = host
        self.port = parts.port
        if let path = parts.path {
            (pathText, pathStart, pathEnd) = (text, path.lowerBound, path.upperBound)
        } else {
            (pathText, pathStart, pathEnd) = ("/", 0, 1)
        }
    }

    /// Splits the bytes of an absolute URL into the lower-cased scheme, the offsets of the host text (not
    /// yet canonical), the explicit port and the offsets of the path (nil when empty); nil when it is no
    /// such URL. One pass over the bytes.
    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> (scheme: String, host: Range<Int>, port: Int?, path: Range<Int>?)? {
        let count = bytes.count
        // The scheme: a letter, then letters, digits, "+", "-" and ".", up to the first ":".
        guard count > 0, isAlpha(bytes[0]) else { return nil }
        var colon = 1
        while colon < count, bytes[colon] != UInt8(ascii: ":") {
            let byte = bytes[colon]
            guard isAlpha(byte) || isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E else { return nil }
            colon += 1
        }
        let authorityStart = colon + 3
        guard authorityStart <= count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        // The authority runs up to the first "/", "?", "#" or backslash; the same pass notes its last "@", ":"
        // and "]".
        var authorityEnd = authorityStart
        var lastAt = -1
        var lastColon = -1
        var lastClose = -1
        scan: while authorityEnd < count {
            let byte = bytes[authorityEnd]
            // Letters, the most common bytes, are none of those looked for.
            if byte < UInt8(ascii: "a") {
                switch byte {
                case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "\\"): break scan
                case UInt8(ascii: "@"): lastAt = authorityEnd
                case UInt8(ascii: ":"): lastColon = authorityEnd
                case UInt8(ascii: "]"): lastClose = authorityEnd
                default: break
                }
            }
            authorityEnd += 1
        }
        // The host follows the last "@" of the authority (user information before it is dropped).
        let hostStart = lastAt >= 0 ? lastAt + 1 : authorityStart
        // The port follows the last colon of the host part that is not inside an IPv6 literal.
        var hostEnd = authorityEnd
        var port: Int?
        if lastColon >= hostStart, lastClose < lastColon,
            bytes[hostStart] != UInt8(ascii: "[") || (lastColon > hostStart && bytes[lastColon - 1] == UInt8(ascii: "]"))
        {
            let digits = bytes[(lastColon + 1)..<authorityEnd]
            if !digits.isEmpty {
                guard digits.count <= 5, let value = Int(String(decoding: digits, as: UTF8.self)), value <= 65535
                else { return nil }
                port = value
            }
            hostEnd = lastColon
        }
        // The path runs up to the query or fragment.
        var pathEnd = authorityEnd
        while pathEnd < bytes.count, bytes[pathEnd] != UInt8(ascii: "?"), bytes[pathEnd] != UInt8(ascii: "#") {
            pathEnd += 1
        }
        let schemeBytes = UnsafeBufferPointer(rebasing: bytes[..<colon])
        // The two schemes nearly every request has are constants (no string made, nothing to check).
        let scheme: String
        if schemeBytes.caseInsensitivelyEquals("https") {
            scheme = "https"
        } else if schemeBytes.caseInsensitivelyEquals("http") {
            scheme = "http"
        } else {
            scheme = String(unsafeUninitializedCapacity: colon) { buffer in
                for index in 0..<colon { buffer[index] = bytes[index].asciiLowercased }
                return colon
            }
        }
        return (scheme, hostStart..<hostEnd, port, pathEnd == authorityEnd ? nil : authorityEnd..<pathEnd)
    }

    /// A URL from parts already in canonical form.
    public init(scheme: String, host: CanonicalHost, port: Int? = nil, path: String = "/") {
        self.scheme = scheme
        self.host = host
        self.port = port
        (pathText, pathStart, pathEnd) = path.isEmpty ? ("/", 0, 1) : (path, 0, path.utf8.count)
    }

    /// URLs are equal when their scheme, host, port and the UTF-8 of their path are.
    public static func == (lhs: CookieURL, rhs: CookieURL) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.port == rhs.port
            && lhs.withPathBytes { left in rhs.withPathBytes { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
        withPathBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
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
