import Cookies
import Foundation

/// Splits a `Location` value that a client library may have joined from several fields with ", " back
/// into the fields, for `RedirectChain.follow(status:locations:)`.
///
/// Foundation joins repeated fields with ", " (`HTTPURLResponse.value(forHTTPHeaderField:)`, and the
/// URLSession transport of swift-openapi-urlsession hands that value on), so a response with two Location
/// fields gives one value, `https://a.test/x, https://b.test/y`. But one Location can hold ", " too: a URI
/// reference has no space (RFC 3986 §2), yet servers send one unencoded, as in
/// `/files/Report Q1, 2024.pdf`, which browsers follow (the WHATWG URL standard percent-encodes the space)
/// to `/files/Report%20Q1,%202024.pdf`. So the value is taken for several fields only when every piece
/// between its ", " is an absolute URL (a scheme and "://", RFC 3986 §3); otherwise it is one Location,
/// followed as browsers follow it. What cannot be told apart: relative Locations joined (`/a, /b`) are
/// taken for the one Location `/a, /b`, and one absolute Location holding ", " followed by an absolute
/// URL (`https://a.test/?next=x, https://b.test/`) for several.
public enum CombinedLocation {
    /// The Location fields joined into `combined`: the pieces between its ", " when there are several and
    /// each is an absolute URL, else `combined` alone.
    public static func split(_ combined: String) -> [String] {
        let pieces = combined.components(separatedBy: ", ")
        return pieces.count > 1 && pieces.allSatisfy(isAbsoluteURL) ? pieces : [combined]
    }

    /// True when `text` starts with a scheme and "://" (RFC 3986 §3: `scheme ":" "//" authority`).
    private static func isAbsoluteURL(_ text: String) -> Bool {
        guard let separator = text.range(of: "://") else { return false }
        return RedirectChain.isScheme(text[..<separator.lowerBound])
    }
}
