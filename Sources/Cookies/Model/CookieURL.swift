/// The parts of a request URL that cookies depend on: scheme, canonical host, port and path.
///
/// Parsed from the text of an absolute `scheme://authority/path?query#fragment` URL. The path is kept as
/// written (never percent-decoded, rfc6265bis-22 §5.1.4 works on the URI path as sent), without query or
/// fragment; as a browser's URL parser gives it, an empty path is `/`, a backslash in an http-family path
/// a "/", TAB, LF and CR removed, and the other bytes of the WHATWG URL standard's path percent-encode
/// set (controls, SP, non-ASCII, `"`, "<", ">", "^", "`", "{", "}"), which a request line carries
/// encoded, percent-encoded.
public struct CookieURL: Sendable, Hashable, CustomStringConvertible {
    /// The text every part is read from, by UTF-8 offsets: the URL as given when its scheme and host are
    /// canonical as written (no String is made), else `scheme://host` and the path rebuilt in canonical
    /// form. One text, so a URL holds one reference: copying or dropping it retains or releases once.
    private let text: String
    /// Where the parts are in the text, and what they are.
    private let layout: Layout

    /// The explicit port, if the URL names one.
    @inline(__always)
    public var port: Int? { layout.port }
    /// What the host names.
    @inline(__always)
    var hostKind: CanonicalHost.Kind { layout.hostKind }

    /// True for an IPv4 or IPv6 host (`CanonicalHost.isIPAddress`, read without making the host).
    var hostIsIPAddress: Bool { hostKind != .domain }
    @inline(__always)
    private var schemeKind: SchemeKind { layout.schemeKind }

    /// The scheme is `text[..<schemeEnd]`, the host `text[schemeEnd + 3..<hostEnd]` (after "://"), the
    /// path `text[pathStart..<pathEnd]` ("/" when empty), with the kinds of scheme and host and the port,
    /// in 16 bytes.
    ///
    /// Why 16: with the text's two words a URL is then four, which Swift passes and returns in registers.
    /// A larger struct is returned through memory, and an optional one (`CookieURL(_:)`'s result) is
    /// destroyed through its type's value witnesses, some 70 instructions at every caller. So the kinds
    /// ride in the top bits of the scheme's and the host's end (which leaves their texts 512 MiB and
    /// 1 GiB), and the path's start is told as its distance from the host's end, the port's colon and at
    /// most five digits between them.
    private struct Layout: Sendable {
        /// The scheme's end, its kind in the top three bits.
        private let schemeEndAndKind: UInt32
        /// The host's end, its kind in the top two bits.
        private let hostEndAndKind: UInt32
        /// The port plus one (0: none) in the low 17 bits, the path's start minus the host's end above.
        private let portAndGap: UInt32
        let pathEnd: UInt32

        /// The largest scheme end and host end the bits leave.
        static let maxSchemeEnd = 1 << 29 - 1
        static let maxHostEnd = 1 << 30 - 1

        /// Nil when the scheme or host ends beyond what the bits hold, the path starts more than six bytes
        /// after the host (a colon and five digits), or the text is 4 GiB or more.
        init?(schemeEnd: Int, schemeKind: SchemeKind, hostEnd: Int, hostKind: CanonicalHost.Kind, port: Int?, path: Range<Int>) {
            let gap = path.lowerBound - hostEnd
            guard schemeEnd <= Layout.maxSchemeEnd, hostEnd <= Layout.maxHostEnd, (0...6).contains(gap),
                path.upperBound <= Int(UInt32.max), (port ?? 0) >= 0, (port ?? 0) <= 65535
            else { return nil }
            schemeEndAndKind = UInt32(schemeEnd) | UInt32(schemeKind.rawValue) << 29
            let hostCode: UInt32 = switch hostKind {
            case .domain: 0
            case .ipv4: 1
            case .ipv6: 2
            }
            hostEndAndKind = UInt32(hostEnd) | hostCode << 30
            portAndGap = UInt32(port.map { $0 + 1 } ?? 0) | UInt32(gap) << 17
            pathEnd = UInt32(path.upperBound)
        }

        @inline(__always)
        var schemeEnd: Int { Int(schemeEndAndKind & 0x1FFF_FFFF) }
        @inline(__always)
        var schemeKind: SchemeKind { SchemeKind(rawValue: UInt8(schemeEndAndKind >> 29)).unsafelyUnwrapped }
        @inline(__always)
        var hostEnd: Int { Int(hostEndAndKind & 0x3FFF_FFFF) }
        @inline(__always)
        var hostKind: CanonicalHost.Kind {
            switch hostEndAndKind >> 30 {
            case 0: .domain
            case 1: .ipv4
            default: .ipv6
            }
        }
        @inline(__always)
        var port: Int? { portAndGap & 0x1_FFFF == 0 ? nil : Int(portAndGap & 0x1_FFFF) - 1 }
        @inline(__always)
        var pathStart: Int { hostEnd + Int(portAndGap >> 17) }
    }

    /// The schemes the jar tells apart.
    private enum SchemeKind: UInt8 {
        case http, https, ws, wss, other

        /// The kind of the scheme that is the first `count` bytes of `text`, compared case-insensitively:
        /// each byte or-ed with 0x20, as the attribute-names of `Set-Cookie` are (a scheme's other bytes,
        /// digits, "+", "-" and ".", stay as they are).
        init(schemeOf text: UnsafeBufferPointer<UInt8>, count: Int) {
            guard count <= 5 else {
                self = .other
                return
            }
            switch text.asciiCaseFoldedWord(from: 0, count: count) {
            case SchemeWord.ws: self = .ws
            case SchemeWord.wss: self = .wss
            case SchemeWord.http: self = .http
            case SchemeWord.https: self = .https
            default: self = .other
            }
        }
    }

    /// The lower-cased scheme, e.g. `https`.
    public var scheme: String {
        switch schemeKind {
        case .http: "http"
        case .https: "https"
        case .ws: "ws"
        case .wss: "wss"
        case .other: withTextBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[..<layout.schemeEnd]), as: UTF8.self) }
        }
    }

    /// The scheme of the URL's site (HTML's schemeful site, rfc6265bis-22 §5.2): the scheme, but http for
    /// ws and https for wss, since a WebSocket handshake is a fetch of the URL with that scheme (the
    /// WebSockets standard, "establish a WebSocket connection"): `wss://example.com` is same-site with,
    /// and partitioned as, `https://example.com`.
    public var siteScheme: String {
        switch schemeKind {
        case .http, .ws: "http"
        case .https, .wss: "https"
        case .other: scheme
        }
    }

    /// The canonical host, read out of the text.
    public var host: CanonicalHost {
        CanonicalHost(text: text, start: layout.schemeEnd + 3, end: layout.hostEnd, kind: hostKind)
    }

    /// The path, starting with `/`.
    public var path: String {
        withPathBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The one byte of the path of a URL whose path is empty.
    private static let slash: StaticString = "/"

    /// Calls `body` with the UTF-8 bytes of the text.
    @inline(__always)
    private func withTextBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        text.withUTF8BytesViaSpan(body)
    }

    /// Calls `body` with the UTF-8 bytes of the path.
    @inline(__always)
    func withPathBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withHostAndPathBytes { body($1) }
    }

    /// Calls `body` with the UTF-8 bytes of the host's name and of the path, both read from the text.
    @inline(__always)
    func withHostAndPathBytes<R>(_ body: (_ host: UnsafeBufferPointer<UInt8>, _ path: UnsafeBufferPointer<UInt8>) -> R) -> R {
        withTextBytes { text in
            let parts = parts(of: text)
            return body(parts.host, parts.path)
        }
    }

    /// The UTF-8 bytes of the scheme, the host's name and the path in `text`, this URL's text.
    @inline(__always)
    private func parts(of text: UnsafeBufferPointer<UInt8>) -> (
        scheme: UnsafeBufferPointer<UInt8>, host: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>
    ) {
        let (schemeEnd, hostEnd, pathStart, pathEnd) = (layout.schemeEnd, layout.hostEnd, layout.pathStart, Int(layout.pathEnd))
        return (
            UnsafeBufferPointer(rebasing: text[..<schemeEnd]),
            UnsafeBufferPointer(rebasing: text[(schemeEnd + 3)..<hostEnd]),
            pathStart == pathEnd
                ? UnsafeBufferPointer(start: CookieURL.slash.utf8Start, count: 1)
                : UnsafeBufferPointer(rebasing: text[pathStart..<pathEnd]))
    }

    /// Parses `string`; nil when it is not an absolute URL with a host, or is too long for `Layout` (its
    /// scheme ending past 512 MiB, its host past 1 GiB, its text past 4 GiB).
    public init?(_ string: String) {
        // A bridged string is made native once, not transcoded on every read of a part.
        var string = string
        string.makeContiguousUTF8()
        guard let parts = string.withUTF8BytesViaSpan(CookieURL.parts(of:)) else { return nil }
        if parts.isCanonical {
            self.init(
                text: string, schemeEnd: parts.scheme.upperBound, schemeKind: parts.schemeKind, host: parts.host,
                hostKind: .domain, port: parts.port, path: parts.path)
            return
        }
        // The scheme lower-cased, the host canonicalised (percent-decoded, IDNA, IP addresses) and the path
        // canonicalised make a text of their own.
        let (scheme, hostText, path, isBracketed) = string.withUTF8BytesViaSpan { bytes in
            (String(unsafeUninitializedCapacity: parts.scheme.count) { buffer in
                for index in parts.scheme { buffer[index] = bytes[index].asciiLowercased }
                return parts.scheme.count
            },
            CookieURL.hostText(UnsafeBufferPointer(rebasing: bytes[parts.host])),
            CookieURL.canonicalPath(UnsafeBufferPointer(rebasing: bytes[parts.path]), schemeKind: parts.schemeKind),
            bytes[parts.host].first == UInt8(ascii: "["))
        }
        // An IPv6 address is written inside brackets (RFC 3986 §3.2.2), as written, not percent-encoded: the
        // WHATWG URL host parser takes the IPv6 path only for a host that starts with "[", and otherwise
        // refuses "[", "]" and ":" (forbidden host code points) after percent-decoding, so "%5B::1%5D" is
        // no host, nor is a decoded "%3A".
        guard let hostText,
            isBracketed || !hostText.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }),
            let host = CanonicalHost(canonicalising: hostText)
        else { return nil }
        self.init(canonicalScheme: scheme, host: host, port: parts.port, path: path)
    }

    /// A path as the WHATWG URL standard's path state makes it: a backslash is a "/" in an http-family URL,
    /// TAB, LF and CR are removed (as from the whole URL), and the other bytes of the path percent-encode
    /// set (the other controls, every byte from 0x7F on, SP, `"`, "<", ">", "^", "`", "{" and "}", which a
    /// request line carries encoded) are percent-encoded, upper-case hex. "%" is kept as written.
    private static func canonicalPath(_ bytes: UnsafeBufferPointer<UInt8>, schemeKind: SchemeKind) -> String {
        var path: [UInt8] = []
        path.reserveCapacity(bytes.count)
        func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10 }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\") where schemeKind != .other:
                path.append(UInt8(ascii: "/"))
            case 0x09, 0x0A, 0x0D:
                continue
            case 0x00...0x20, 0x7F...0xFF, UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "^"),
                 UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                path += [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
            default:
                path.append(byte)
            }
        }
        return String(decoding: path, as: UTF8.self)
    }

    /// The text of a host as written in a URL, percent-decoded (WHATWG URL host parser: `b%C3%BCcher.example`
    /// is `bücher.example`, as Foundation's `URL.host` reads it too); nil when an escape is malformed or
    /// the octets are not UTF-8, which no host is.
    private static func hostText(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        return PercentDecoding.decoded(bytes)
    }

    /// A URL from parts already in canonical form, the host right after the scheme's "://"; nil when its
    /// text would be too long for `Layout`.
    private init?(
        text: String, schemeEnd: Int, schemeKind: SchemeKind, host: Range<Int>, hostKind: CanonicalHost.Kind, port: Int?,
        path: Range<Int>
    ) {
        guard host.lowerBound == schemeEnd + 3,
            let layout = Layout(
                schemeEnd: schemeEnd, schemeKind: schemeKind, hostEnd: host.upperBound, hostKind: hostKind, port: port, path: path)
        else { return nil }
        self.text = text
        self.layout = layout
    }

    /// Splits the bytes of an absolute URL into the offsets of the scheme, of the host text and of the
    /// path (empty when there is none: it then starts where the authority ends), the scheme's kind and the
    /// explicit port; `isCanonical` when the scheme is lower-case, the authority holds no user information
    /// and no brackets, only a domain name canonical as written and at most the port's colon and five
    /// digits, and the path of an http-family URL no backslash. Nil when it is no such URL. One pass over
    /// the bytes.
    private static func parts(
        of bytes: UnsafeBufferPointer<UInt8>
    ) -> (scheme: Range<Int>, schemeKind: SchemeKind, host: Range<Int>, port: Int?, path: Range<Int>, isCanonical: Bool)? {
        let count = bytes.count
        guard count > 0 else { return nil }
        let base = UnsafeRawPointer(bytes.baseAddress!)
        // The scheme: a letter, then letters, digits, "+", "-" and ".", up to the first ":". "https://" and
        // "http://", which nearly every URL starts with, are recognised in one word.
        var colon = 1
        let schemeKind: SchemeKind
        // Whether the scheme has no upper-case letter (the words matched first are lower-case).
        let schemeIsLowerCase: Bool
        let first = count >= 8 ? UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) : 0
        if first == SchemeWord.httpsOpening {
            colon = 5
            schemeKind = .https
            schemeIsLowerCase = true
        } else if first & 0x00FF_FFFF_FFFF_FFFF == SchemeWord.httpOpening {
            colon = 4
            schemeKind = .http
            schemeIsLowerCase = true
        } else {
            guard isAlpha(bytes[0]) else { return nil }
            while colon < count, bytes[colon] != UInt8(ascii: ":") {
                let byte = bytes[colon]
                guard isAlpha(byte) || isDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E else { return nil }
                colon += 1
            }
            schemeKind = SchemeKind(schemeOf: bytes, count: colon)
            schemeIsLowerCase = !bytes[..<colon].contains { $0 &- UInt8(ascii: "A") < 26 }
        }
        let authorityStart = colon + 3
        guard authorityStart <= count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        // The authority runs up to the first "/", "?", "#" or backslash; the same pass notes its last "@", ":"
        // and "]", how many ":" it has, and whether it has any other byte a canonical domain name cannot
        // hold. Bytes a canonical domain name holds (lower-case letters, digits, "-", "." and "_") are none
        // of those looked for: eight of them are passed over at a time.
        var authorityEnd = count
        var lastAt = -1
        var lastColon = -1
        var lastClose = -1
        var colons = 0
        var hasOtherByte = false
        var next = authorityStart
        scan: while let stop = bytes.firstIndex(from: next, markedBy: { $0.nonCanonicalHostBytes }) {
            switch bytes[stop] {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "\\"):
                authorityEnd = stop
                break scan
            case UInt8(ascii: "@"): lastAt = stop
            case UInt8(ascii: ":"):
                lastColon = stop
                colons &+= 1
            case UInt8(ascii: "]"): lastClose = stop
            default: hasOtherByte = true
            }
            next = stop &+ 1
        }
        // The host follows the last "@" of the authority (user information before it is dropped).
        let hostStart = lastAt >= 0 ? lastAt + 1 : authorityStart
        // The port follows the last colon of the host part that is not inside an IPv6 literal.
        var hostEnd = authorityEnd
        var port: Int?
        var portFitsLayout = true
        if lastColon >= hostStart, lastClose < lastColon,
            bytes[hostStart] != UInt8(ascii: "[") || (lastColon > hostStart && bytes[lastColon - 1] == UInt8(ascii: "]"))
        {
            let digits = bytes[(lastColon + 1)..<authorityEnd]
            if !digits.isEmpty {
                // DIGITs only (no sign, RFC 3986 §3.2.3 `port = *DIGIT`), at most 65535, leading zeros
                // allowed (the WHATWG URL port state: "000080" is 80).
                var value = 0
                for digit in digits {
                    guard digit &- UInt8(ascii: "0") < 10 else { return nil }
                    value = value * 10 + Int(digit &- UInt8(ascii: "0"))
                    guard value <= 65535 else { return nil }
                }
                port = value
                // More digits than `Layout` leaves between host and path: the text is rebuilt without them.
                portFitsLayout = digits.count <= 5
            }
            hostEnd = lastColon
        }
        // The path runs up to the query or fragment; a backslash in it, a "/" to a browser (the WHATWG URL
        // standard, for http-family schemes as for its other special ones), and a byte of the path
        // percent-encode set take the canonicalisation (`canonicalPath`).
        var pathEnd = count
        var pathIsCanonical = true
        var pathNext = authorityEnd
        while let stop = bytes.firstIndex(from: pathNext, markedBy: { $0.pathStopBytes }) {
            let byte = bytes[stop]
            guard byte != UInt8(ascii: "?") && byte != UInt8(ascii: "#") else {
                pathEnd = stop
                break
            }
            pathIsCanonical = pathIsCanonical && byte == UInt8(ascii: "\\") && schemeKind == .other
            pathNext = stop &+ 1
        }
        // The host is canonical as written when the authority is a domain name of canonical bytes, with at
        // most the port's colon besides (user information and brackets take the full canonicalisation),
        // whose last label does not start with a digit (it would be an IPv4 address, or no valid host).
        let host = UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd])
        let isCanonical = !hasOtherByte && lastAt < 0 && lastClose < 0 && colons <= 1 && !host.isEmpty
            && !CanonicalHost.lastLabelStartsWithDigit(host) && schemeIsLowerCase && pathIsCanonical && portFitsLayout
        return (0..<colon, schemeKind, hostStart..<hostEnd, port, authorityEnd..<pathEnd, isCanonical)
    }

    /// A URL from parts already in canonical form (the scheme is lower-cased; a path that does not start
    /// with "/" is given one, so that it never runs on from the host). Traps when the port is not 0-65535
    /// or the URL is too long for `Layout` (its scheme ending past 512 MiB, its host past 1 GiB).
    public init(scheme: String, host: CanonicalHost, port: Int? = nil, path: String = "/") {
        self.init(canonicalScheme: scheme.lowercased(), host: host, port: port, path: path)!
    }

    /// The URL whose text is `scheme://host` and the path, after a "/" when it has none; nil when the port
    /// is not 0-65535 or that text is too long for `Layout`.
    private init?(canonicalScheme scheme: String, host: CanonicalHost, port: Int?, path: String) {
        let text = scheme + "://" + host.name + (path.hasPrefix("/") ? path : "/" + path)
        let schemeEnd = scheme.utf8.count
        let hostEnd = schemeEnd + 3 + host.name.utf8.count
        self.init(
            text: text, schemeEnd: schemeEnd, schemeKind: text.withUTF8BytesViaSpan { SchemeKind(schemeOf: $0, count: schemeEnd) },
            host: schemeEnd + 3..<hostEnd, hostKind: host.kind, port: port, path: hostEnd..<text.utf8.count)
    }

    /// URLs are equal when their scheme, host, port and the UTF-8 of their path are. (A lookup under a
    /// site that holds partitioned cookies asks whether the request is its own top level: the bytes are
    /// compared a word at a time, `hasSameBytes`.)
    public static func == (lhs: CookieURL, rhs: CookieURL) -> Bool {
        guard lhs.schemeKind == rhs.schemeKind, lhs.hostKind == rhs.hostKind, lhs.port == rhs.port else { return false }
        return lhs.withTextBytes { left in
            rhs.withTextBytes { right in
                let (left, right) = (lhs.parts(of: left), rhs.parts(of: right))
                return left.host.hasSameBytes(as: right.host) && left.path.hasSameBytes(as: right.path)
                    && left.scheme.hasSameBytes(as: right.scheme)
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
        withPathBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// True when a request to this URL travels over a secure channel: https or wss, or any scheme to a
    /// loopback host (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`). rfc6265bis-22 leaves "secure"
    /// to the user agent (§5.7 step 13, §5.8.3 step 1); this matches browsers' potentially trustworthy
    /// origins.
    public var isSecure: Bool {
        schemeKind == .https || schemeKind == .wss || withHostAndPathBytes { host, _ in CanonicalHost.isLoopback(host, kind: hostKind) }
    }

    /// True for schemes that carry HTTP requests (http, https, ws, wss).
    public var isHTTPFamily: Bool { schemeKind != .other }

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
