/// A cookie that passed the receive rules of rfc6265bis-22 §5.7 (steps 1–22, `CookieReceivingRules`): every
/// field the storage model gives it, ready for steps 23–24 (replace or insert). The role of Chromium's
/// `CanonicalCookie`: past this point the line and its attributes are no longer read.
///
/// Its strings are borrowed UTF-8 (of the line, the request's host and path, the partition key) and live
/// only as long as the call that lends the cookie: it is not copyable, and nothing keeps it.
struct ValidatedCookie: ~Copyable {
    /// The cookie-name (step 5; empty for a nameless cookie).
    let name: UnsafeBufferPointer<UInt8>
    /// The cookie-value (step 5).
    let value: UnsafeBufferPointer<UInt8>
    /// The domain (step 10): the request-host for a host-only cookie, the Domain attribute otherwise.
    let domain: UnsafeBufferPointer<UInt8>
    /// The host-only-flag (step 10).
    let isHostOnly: Bool
    /// The path (step 11).
    let path: UnsafeBufferPointer<UInt8>
    /// The expiry-time (step 6); nil for a session cookie (persistent-flag false).
    let expiry: CookieTime?
    /// The secure-only-flag (step 12).
    let isSecure: Bool
    /// The http-only-flag (step 14).
    let isHTTPOnly: Bool
    /// The same-site-flag (step 17).
    let sameSite: SameSite
    /// The partition key (CHIPS §2.1), nil for an unpartitioned cookie.
    let partitionKey: UnsafeBufferPointer<UInt8>?
    /// The request-uri's scheme was secure: the cookie's source scheme.
    let isSourceSecure: Bool
    /// The request-uri's explicit port: the cookie's source port.
    let sourcePort: Int?
    /// A non-HTTP API sets the cookie (step 23.2 reads it).
    let isFromNonHTTPAPI: Bool
    /// The name and value are known to be ASCII (the whole line is); false also when not known.
    let isKnownASCII: Bool

    /// True when the cookie has expired at `now` (it then only deletes the cookie it would replace).
    func isExpired(at now: CookieTime) -> Bool {
        expiry.map { $0 <= now } ?? false
    }
}
