/// A cookie as a reader of a jar file finds it (`CookieDatabase`), handed to the store as it is read:
/// its strings are still the reader's UTF-8 bytes, valid only until the reader moves on, so that the
/// store makes Strings of only what it keeps, and builds its own entry of the other fields
/// (`SiteCookies.append(_:)`). The bytes are well-formed UTF-8, as a String's are: a reader refuses a
/// file holding others. The fields are those of `Cookie`.
struct LoadedCookie {
    var name: UnsafeBufferPointer<UInt8>
    var value: UnsafeBufferPointer<UInt8>
    var domain: UnsafeBufferPointer<UInt8>
    var path: UnsafeBufferPointer<UInt8>
    /// nil for an unpartitioned cookie.
    var partitionKey: UnsafeBufferPointer<UInt8>?
    var isHostOnly: Bool
    /// nil for a session cookie.
    var expiry: CookieTime?
    var creation: CookieTime
    var lastAccess: CookieTime
    var isSecure: Bool
    var isHTTPOnly: Bool
    var sameSite: SameSite
    var isSourceSecure: Bool
    var sourcePort: Int?

    /// True when the cookie has expired at `now`.
    func isExpired(at now: CookieTime) -> Bool {
        expiry.map { $0 <= now } ?? false
    }

    /// Why a jar may not hold this cookie, or nil when it may: a name and value no `Set-Cookie` line could
    /// give (`CookieTextRules.pairRejection`: a control character other than HTAB, a ";" or a name's "=",
    /// which a `Cookie` header would carry as something else, a CR LF as a header field of its own; both
    /// empty; WSP at their ends), a path not starting with "/", a domain with a control character (no host
    /// has one), an empty partition key or one with a control character, or a cookie outside the bounds of
    /// `StoredCookie.rejection`. Every cookie a jar receives passes, a host with a ";" included (the WHATWG
    /// URL host parser lets one through); so does a path with a control character, which a jar file may
    /// hold from a request path taken as written (`CookieURL` percent-encodes them): a `Cookie` header
    /// carries neither.
    var rejection: CookieRejection? { checkButDomain.rejection ?? CookieTextRules.hostRejection(domain) }

    /// `rejection` but for the domain's (which a reader of many cookies of one domain checks once), and
    /// whether the name and value are ASCII (the pair's flag, `CookiePairs`): one pass over them for both.
    @inline(__always)
    var checkButDomain: (rejection: CookieRejection?, isASCIIPair: Bool) {
        let pair = CookieTextRules.pairCheck(name: name, value: value)
        let rejection = pair.rejection
            ?? StoredCookie.rejection(nameLength: name.count, valueLength: value.count, sourcePort: sourcePort)
            ?? CookieTextRules.storedPathRejection(path)
            ?? partitionKey.flatMap(CookieTextRules.partitionKeyRejection)
        return (rejection, pair.isASCII)
    }

    /// This cookie as a `Cookie`; its domain, path and partition key are `previous`'s own strings when
    /// they have the same bytes (rows of one site repeat them).
    func cookie(sharingStringsOf previous: Cookie?) -> Cookie {
        let partitionKey = partitionKey.map { String(utf8: $0, reusing: previous?.partitionKey) }
        return Cookie(
            name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self),
            domain: String(utf8: domain, reusing: previous?.domain), isHostOnly: isHostOnly,
            path: String(utf8: path, reusing: previous?.path), expiry: expiry, creation: creation,
            lastAccess: lastAccess, isSecure: isSecure, isHTTPOnly: isHTTPOnly, sameSite: sameSite,
            partitionKey: partitionKey, isSourceSecure: isSourceSecure, sourcePort: sourcePort)
    }
}

extension String {
    /// `bytes` as a String: `previous` itself when it has these bytes.
    fileprivate init(utf8 bytes: UnsafeBufferPointer<UInt8>, reusing previous: String?) {
        if let previous, previous.hasUTF8(bytes) {
            self = previous
        } else {
            self = String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension LoadedCookie {
    /// The fields of `cookie` with its strings given as UTF-8 bytes.
    init(
        _ cookie: Cookie, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
        domain: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>, partitionKey: UnsafeBufferPointer<UInt8>?
    ) {
        self.init(
            name: name, value: value, domain: domain, path: path, partitionKey: partitionKey, isHostOnly: cookie.isHostOnly,
            expiry: cookie.expiry, creation: cookie.creation, lastAccess: cookie.lastAccess, isSecure: cookie.isSecure,
            isHTTPOnly: cookie.isHTTPOnly, sameSite: cookie.sameSite, isSourceSecure: cookie.isSourceSecure,
            sourcePort: cookie.sourcePort)
    }

    /// Calls `body` with `cookie` as a reader of a store would hand it over (for stores that read
    /// `Cookie`s: `CookieJar(loading:into:options:…)`; and for the checks of `CookieJar.insert(_:)`).
    static func withLoaded(_ cookie: Cookie, _ body: (LoadedCookie) -> Void) {
        var (name, value, domain, path, partitionKey) = (cookie.name, cookie.value, cookie.domain, cookie.path, cookie.partitionKey)
        name.withUTF8 { name in
            value.withUTF8 { value in
                domain.withUTF8 { domain in
                    path.withUTF8 { path in
                        func hand(_ partitionKey: UnsafeBufferPointer<UInt8>?) {
                            body(LoadedCookie(cookie, name: name, value: value, domain: domain, path: path, partitionKey: partitionKey))
                        }
                        if partitionKey == nil { hand(nil) } else { partitionKey!.withUTF8 { hand($0) } }
                    }
                }
            }
        }
    }
}
