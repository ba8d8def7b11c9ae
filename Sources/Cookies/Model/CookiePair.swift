/// One name/value pair of a `Cookie` request header.
///
/// rfc6265bis-22 §4.2.1: cookie-pair = cookie-name "=" cookie-value. A pair with an empty
/// `name` is a nameless cookie, which the header carries as its value alone (§5.6, §5.8.3).
public struct CookiePair: Sendable, Hashable {
    /// The cookie's name; empty for a nameless cookie.
    public var name: String
    /// The cookie's value.
    public var value: String

    /// The pair `name`=`value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
