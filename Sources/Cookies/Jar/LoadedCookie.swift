/// A cookie as a reader of a jar file finds it (`CookieDatabase`), handed to the store as it is read:
/// its strings are still the reader's UTF-8 bytes, valid only until the reader moves on, so that the
/// store makes Strings of only what it keeps (`SiteCookies.append(_:)`).
struct LoadedCookie {
    var name: UnsafeBufferPointer<UInt8>
    var value: UnsafeBufferPointer<UInt8>
    var domain: UnsafeBufferPointer<UInt8>
    var path: UnsafeBufferPointer<UInt8>
    /// nil for an unpartitioned cookie.
    var partitionKey: UnsafeBufferPointer<UInt8>?
    /// The other fields; its domain, path and partition slots are not set yet.
    var entry: StoredCookie

    /// This cookie as a `Cookie`; its domain, path and partition key are `previous`'s own strings when
    /// they have the same bytes (rows of one site repeat them).
    func cookie(sharingStringsOf previous: Cookie?) -> Cookie {
        let partitionKey = partitionKey.map { String(utf8: $0, reusing: previous?.partitionKey) }
        return entry.cookie(
            name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self),
            domain: String(utf8: domain, reusing: previous?.domain), path: String(utf8: path, reusing: previous?.path),
            partitionKey: partitionKey)
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
    /// Calls `body` with `cookie` as a reader of a store would hand it over (for stores that read
    /// `Cookie`s: `CookieJar(loading:into:options:…)`).
    static func withLoaded(_ cookie: Cookie, _ body: (LoadedCookie) -> Void) {
        var (name, value, domain, path, partitionKey) = (cookie.name, cookie.value, cookie.domain, cookie.path, cookie.partitionKey)
        let entry = StoredCookie(cookie, domain: 0, path: 0, partition: StoredCookie.unpartitioned)
        name.withUTF8 { name in
            value.withUTF8 { value in
                domain.withUTF8 { domain in
                    path.withUTF8 { path in
                        func hand(_ partitionKey: UnsafeBufferPointer<UInt8>?) {
                            body(LoadedCookie(name: name, value: value, domain: domain, path: path, partitionKey: partitionKey, entry: entry))
                        }
                        if partitionKey == nil { hand(nil) } else { partitionKey!.withUTF8 { hand($0) } }
                    }
                }
            }
        }
    }
}
