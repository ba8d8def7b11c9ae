import Cookies
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `Set-Cookie` fields of a Foundation response.
extension HTTPURLResponse {
    /// The response's `Set-Cookie` fields, in order.
    ///
    /// Foundation hands out repeated fields joined with ", " (on Linux the original fields are gone once
    /// the response is made), so this splits the joined value back with `CombinedSetCookie.split`: exact
    /// for the fields conforming servers send, see there for the cases it cannot tell apart, and for the
    /// fields Foundation on Linux loses before (those whose name is spelled in another case).
    public var setCookieFields: [String] {
        guard let combined = value(forHTTPHeaderField: "Set-Cookie") else { return [] }
        return CombinedSetCookie.split(combined)
    }
}

/// Receiving a Foundation response's cookies.
extension CookieJar {
    /// Receives every `Set-Cookie` field of `response` (see `HTTPURLResponse.setCookieFields`), as the
    /// response to its URL.
    public func receive(_ response: HTTPURLResponse, context: CookieRequestContext = .firstParty) {
        guard let url = response.url.flatMap(CookieURL.init) else { return }
        receive(response.setCookieFields, from: url, context: context)
    }
}
