import Cookies
import Foundation

/// A cookie URL from a Foundation URL.
extension CookieURL {
    /// The cookie-relevant parts of `url`; nil when it is not an absolute URL with a host.
    public init?(_ url: URL) {
        self.init(url.absoluteString)
    }
}
