import Cookies
import Foundation

extension RedirectChain {
    /// As `follow(status:to:)`, with the Location field value as the response gave it: a URI reference,
    /// resolved against the current hop's URL (RFC 9110 §10.2.2) as a browser resolves it
    /// (`resolved(_:against:)`). A Location that does not resolve is no redirect.
    public mutating func follow(status: Int, location: String?) throws(RedirectError) -> RedirectStep? {
        try follow(status: status, to: location.flatMap { Self.resolved($0, against: current.url) })
    }

    /// As `follow(status:location:)`, with every Location field value of the response, one per field:
    /// several different ones throw `RedirectError.severalLocations` (`location(status:values:)`).
    public mutating func follow(status: Int, locations: [String]) throws(RedirectError) -> RedirectStep? {
        try follow(status: status, location: try location(status: status, values: locations))
    }

    /// The WHATWG URL standard's special schemes, but "file", whose URLs it parses otherwise (and which no
    /// redirect may go to).
    static let specialSchemes: Set<String> = ["ftp", "http", "https", "ws", "wss"]

    /// `location` resolved against `base` (RFC 3986 §5.2, by Foundation), read first as the WHATWG URL
    /// standard's basic URL parser reads a URL of a special scheme, where RFC 3986 reads it otherwise:
    /// - a scheme that is the base's, followed by fewer than two slashes, is dropped, and the rest is
    ///   relative to the base (its "special relative or authority state", then "relative state"):
    ///   `http:/y` against `http://a.test/x` is `http://a.test/y`, where RFC 3986 makes the host-less
    ///   `http:/y`, no http URL;
    /// - two or more slashes, after a special scheme or none (the base's then), start the authority, all of
    ///   them skipped ("special authority ignore slashes state"), as is any number after a special scheme
    ///   that is not the base's ("special authority slashes state"): `///y` and `http:///y` are
    ///   `http://y`, `https:/y` against an http URL `https://y`;
    /// - a backslash before the query is a slash ("url is special and c is U+005C (\)"), so that
    ///   `\\b.test/` goes to b.test and `/a\b` is `/a/b`;
    /// - before all that, C0 controls and spaces at the ends go, and every tab and newline
    ///   ("remove any leading and trailing C0 control or space", "remove all ASCII tab or newline");
    /// - the path's dot segments go, in an absolute Location too ("shorten url's path"): `/a/../c` and
    ///   `http://b.test/a/../c` end in `/c`; so do those written percent-encoded ("single-dot URL path
    ///   segment": `%2e`; "double-dot URL path segment": `.%2e`, `%2e.`, `%2e%2e`, in any case), so that
    ///   `/a/%2e%2e/c` is `/c` too;
    /// - the port is written as the standard serialises it (`normalizingPort(of:scheme:)`).
    ///
    /// A Location of any other scheme, or without one against a base of any other scheme, is as RFC 3986
    /// reads it. Nil when the result does not parse.
    static func resolved(_ location: String, against base: String) -> String? {
        let location = String(
            location.unicodeScalars.drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }.reversed()
                .filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
                .map(Character.init))
        let baseURL = URL(string: base)
        let baseScheme = baseURL?.scheme?.lowercased()
        var scheme = baseScheme
        var rest = Substring(location)
        if let colon = location.firstIndex(of: ":"), isScheme(location[..<colon]) {
            scheme = location[..<colon].lowercased()
            rest = location[location.index(after: colon)...]
        }
        guard let scheme, specialSchemes.contains(scheme) else {
            return URL(string: location, relativeTo: baseURL)?.absoluteString
        }
        let slashes = rest.prefix { $0 == "/" || $0 == "\\" }.count
        rest = rest.dropFirst(slashes)
        let queryOrFragment = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        let isAbsolute = scheme != baseScheme || slashes >= 2
        let path = rest[..<queryOrFragment].replacingOccurrences(of: "\\", with: "/")
        rest = Substring(dotSegmentsDecoded(path, keepingFirst: isAbsolute) + rest[queryOrFragment...])
        guard !isAbsolute else {
            return (URL(string: scheme + "://" + rest)?.standardized.absoluteString).map { normalizingPort(of: $0, scheme: scheme) }
        }
        let relative: String
        if slashes == 1 {
            relative = "/" + rest
        } else if let first = rest.first, first != "?", first != "#" {
            // A relative path whose first segment holds a colon would be read as a scheme: "./" keeps it a
            // path (RFC 3986 §4.2).
            relative = "./" + rest
        } else {
            relative = String(rest)
        }
        return (URL(string: relative, relativeTo: baseURL)?.absoluteURL.standardized.absoluteString).map {
            normalizingPort(of: $0, scheme: scheme)
        }
    }

    /// `path` (segments joined by "/"; `keepingFirst`: the first is the authority, left as it is) with each
    /// percent-encoded dot segment written as one: "%2e" as ".", ".%2e", "%2e." and "%2e%2e" as "..", in any
    /// case, as the WHATWG URL standard's path state reads them, for `URL.standardized` to remove.
    private static func dotSegmentsDecoded(_ path: String, keepingFirst: Bool) -> String {
        guard path.contains("%") else { return path }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for index in segments.indices.dropFirst(keepingFirst ? 1 : 0) {
            switch segments[index].lowercased() {
            case "%2e": segments[index] = "."
            case ".%2e", "%2e.", "%2e%2e": segments[index] = ".."
            default: break
            }
        }
        return segments.joined(separator: "/")
    }

    /// `url` (of a special `scheme`) with its port as the WHATWG URL standard serialises it: no ":" for an
    /// empty port ("port state": the port is null), no leading zeros (`:0080` is 80), none at all for the
    /// scheme's default port. `http://b.test:/x` and `http://b.test:0080/x` are `http://b.test/x`, which a
    /// client built on Foundation's URL sends as it reads it (a port it would otherwise drop or rewrite).
    static func normalizingPort(of url: String, scheme: String) -> String {
        guard let authorityStart = url.range(of: "://")?.upperBound else { return url }
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let authority = url[authorityStart..<authorityEnd]
        // The port's colon: the last one after the user information and an IPv6 address's brackets.
        let hostStart = authority.lastIndex(of: "@").map(authority.index(after:)) ?? authority.startIndex
        let afterBrackets = authority[hostStart...].lastIndex(of: "]") ?? hostStart
        guard let colon = authority[afterBrackets...].lastIndex(of: ":") else { return url }
        let digits = authority[authority.index(after: colon)...]
        let significant = digits.drop { $0 == "0" }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), significant.count <= 5 else { return url }
        let port = Int(significant) ?? 0
        let written = digits.isEmpty || port == CookieURL.defaultPort(ofScheme: scheme) ? "" : ":\(port)"
        return String(url[..<colon]) + written + String(url[authorityEnd...])
    }

    /// RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
