import ArgumentParser
import Cookies

/// The request a command evaluates: its URL and the optional context of rfc6265bis-22 §5.2 and §5.7.
struct RequestContextOptions: ParsableArguments {
    @Option(help: "The document's site for cookies, e.g. https://top.example, or 'opaque' (default: the URL's own origin: a same-site request).")
    var siteForCookies: String?

    @Flag(help: "The request is a top-level navigation.")
    var topLevel = false

    @Option(name: .customLong("method"), help: "The request method (default: GET).")
    var givenMethod: String?

    @Option(help: "The top-level site the request is made under, for partitioned cookies (default: the URL's own site for a top-level navigation or without --site-for-cookies, else the --site-for-cookies origin; none for an opaque one).")
    var partition: String?

    @Flag(help: "Evaluate for a non-HTTP API such as document.cookie (HttpOnly cookies are invisible).")
    var nonHTTP = false

    /// The request method: `--method`, else GET.
    var method: String { givenMethod ?? "GET" }

    /// The options of the request context given on the command line (`--method GET` among them), by name.
    var given: [String] {
        var names: [String] = []
        if siteForCookies != nil { names.append("--site-for-cookies") }
        if topLevel { names.append("--top-level") }
        if givenMethod != nil { names.append("--method") }
        if partition != nil { names.append("--partition") }
        if nonHTTP { names.append("--non-http") }
        return names
    }

    func validate() throws {
        guard HTTPMethod.isValid(method) else {
            throw ValidationError("--method: not a method (an RFC 9110 token such as GET or POST): \(method)")
        }
        if let siteForCookies, siteForCookies != "opaque", CookieURL(siteForCookies) == nil {
            throw ValidationError("--site-for-cookies: not an origin: \(siteForCookies)")
        }
        if let partition, CookieURL(partition) == nil {
            throw ValidationError("--partition: not an origin: \(partition)")
        }
    }

    var context: CookieRequestContext {
        var context = CookieRequestContext(isTopLevelNavigation: topLevel, method: method, api: nonHTTP ? .nonHTTP : .http)
        switch siteForCookies {
        case nil: context.siteForCookies = .requestOrigin
        case "opaque": context.siteForCookies = .opaque
        case let origin?: context.siteForCookies = CookieURL(origin).map { .origin($0) } ?? .opaque
        }
        // Without --partition, the jar's own default (`CookieRequestContext.partition`).
        context.partition = partition.flatMap(CookieURL.init)
        return context
    }
}

/// Parses `--url`, with a usage error naming the option; one that says which host is no host name, when
/// the URL has one (a code point IDNA refuses, a control character).
func parseRequestURL(_ text: String) throws -> CookieURL {
    guard let url = CookieURL(text) else {
        if let host = hostText(ofURL: text), CanonicalHost(host) == nil {
            // Default-ignorable code points (joiners, soft hyphens), often what makes the host no host, show
            // as escapes: a terminal shows nothing of them (controls are escaped with the whole message).
            let shown = host.unicodeScalars.map { scalar in
                scalar.properties.isDefaultIgnorableCodePoint ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
            }
            throw ValidationError("--url: its host \"\(shown.joined())\" is no host name (§5.1.2): \(text)")
        }
        throw ValidationError("--url: not an absolute http(s) URL: \(text)")
    }
    return url
}

/// The host of `text` as written, when `text` reads as `scheme://authority…` with a port of digits, if any,
/// and its host holds no percent escape (which `CookieURL` decodes first). Read by Unicode scalars, as
/// `CookieURL` reads bytes (a `Character` would join a mark or a joiner to the "@" or "/" before it): the
/// authority runs to the first "/", "?", "#" or "\\", user information ends at its last "@", and a port is
/// a ":" and digits after the host (after the "]" of an IPv6 address).
private func hostText(ofURL text: String) -> String? {
    let scalars = Array(text.unicodeScalars)
    guard let separator = (1..<max(1, scalars.count - 2)).first(where: { scalars[$0..<$0 + 3].elementsEqual("://".unicodeScalars) })
    else { return nil }
    var authority = scalars[(separator + 3)...].prefix { !"/?#\\".unicodeScalars.contains($0) }
    if let at = authority.lastIndex(of: "@") { authority = authority[(at + 1)...] }
    let portStart = authority.first == "[" ? authority.firstIndex(of: "]").map { $0 + 1 } : authority.lastIndex(of: ":")
    if let portStart, portStart < authority.endIndex {
        let port = authority[portStart...]
        guard port.first == ":", port.dropFirst().allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        authority = authority[..<portStart]
    }
    guard !authority.isEmpty, !authority.contains("%") else { return nil }
    var host = ""
    host.unicodeScalars.append(contentsOf: authority)
    return host
}
