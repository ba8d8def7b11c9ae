/// A cookie a jar found in its file or store but did not load, and why: one no jar may hold
/// (`LoadedCookie.rejection`), such as a value with a CR LF, which a `Cookie` header would carry as a
/// header field of its own, or a path not starting with "/" (`CookieJar.insert(_:)` refuses these too; an
/// earlier version of the library may have stored one). The jar neither sends nor deletes it: it stays in
/// the file or store as it is, until a cookie of its identity replaces it or it expires.
/// `CookieJar.cookiesNotLoaded` lists them.
public struct CookieNotLoaded: Hashable, Sendable {
    /// The cookie's identity, its texts as they are stored.
    public let identity: CookieIdentity
    /// Why the jar did not load it.
    public let rejection: CookieRejection

    init(_ cookie: LoadedCookie, rejection: CookieRejection) {
        identity = CookieIdentity(
            name: String(decoding: cookie.name, as: UTF8.self), domain: String(decoding: cookie.domain, as: UTF8.self),
            isHostOnly: cookie.isHostOnly, path: String(decoding: cookie.path, as: UTF8.self),
            partitionKey: cookie.partitionKey.map { String(decoding: $0, as: UTF8.self) })
        self.rejection = rejection
    }
}
