extension CookieURL {
    /// True when both URLs have the same scheme, host and port (RFC 6454 §5), a missing port being the
    /// scheme's default (80 for http and ws, 443 for https and wss).
    func isSameOrigin(as other: CookieURL) -> Bool {
        scheme == other.scheme && host == other.host && effectivePort == other.effectivePort
    }

    private var effectivePort: Int? {
        if let port { return port }
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }
}
