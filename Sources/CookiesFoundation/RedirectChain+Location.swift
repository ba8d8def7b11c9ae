import Cookies
import Foundation

extension RedirectChain {
    /// As `follow(status:to:)`, with the Location field value as the response gave it: a URI reference,
    /// resolved against the current hop's URL (RFC 9110 §10.2.2). A Location that does not resolve is no
    /// redirect.
    public mutating func follow(status: Int, location: String?) throws(RedirectError) -> RedirectStep? {
        let target = location.flatMap { URL(string: $0, relativeTo: URL(string: current.url)) }
        return try follow(status: status, to: target?.absoluteString)
    }

    /// As `follow(status:location:)`, with every Location field value of the response, one per field:
    /// several different ones throw `RedirectError.severalLocations` (`location(status:values:)`).
    public mutating func follow(status: Int, locations: [String]) throws(RedirectError) -> RedirectStep? {
        try follow(status: status, location: try location(status: status, values: locations))
    }
}
