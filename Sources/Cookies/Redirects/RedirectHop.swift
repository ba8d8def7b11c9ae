/// One request of a `RedirectChain` and the status that answered it.
public struct RedirectHop: Sendable, Hashable, CustomStringConvertible {
    /// The request's method.
    public let method: String
    /// The request's absolute URL.
    public let url: String
    /// The response's status; nil until the response came.
    public internal(set) var status: Int?

    /// A hop as `GET https://example.com/a → 302`.
    public var description: String {
        "\(method) \(url)" + (status.map { " → \($0)" } ?? "")
    }
}
