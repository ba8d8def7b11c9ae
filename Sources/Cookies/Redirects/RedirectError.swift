/// Why a `RedirectChain` stopped following redirects; each case has the hops so far.
public enum RedirectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// More redirects than `RedirectChain.maximumRedirects`.
    case tooManyRedirects([RedirectHop])
    /// The same request (method, URL and cookies) was about to be sent a second time.
    case loop([RedirectHop])
    /// A Location that is no http or https URL.
    case notHTTP(location: String, hops: [RedirectHop])
    /// A redirect with several Location fields of different values, which are named.
    case severalLocations([String], hops: [RedirectHop])

    /// The hops the chain went through.
    public var hops: [RedirectHop] {
        switch self {
        case .tooManyRedirects(let hops), .loop(let hops), .notHTTP(_, let hops), .severalLocations(_, let hops): hops
        }
    }

    /// What happened, and the hops, as `redirect loop: GET http://a.test/x → 302, GET http://a.test/y → 302`.
    public var description: String {
        let path = hops.map(\.description).joined(separator: ", ")
        switch self {
        case .tooManyRedirects(let hops): return "more than \(hops.count - 1) redirects: \(path)"
        case .loop: return "redirect loop: \(path)"
        case .notHTTP(let location, _): return "redirect to \(location), which is no http or https URL: \(path)"
        case .severalLocations(let locations, _):
            let values = locations.map { "\"\($0)\"" }.joined(separator: ", ")
            return "redirect with several different Location fields (\(values)): \(path)"
        }
    }
}
