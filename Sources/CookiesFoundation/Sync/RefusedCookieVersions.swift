import Cookies

/// The versions of the jar's cookies the platform store turned down, by identity: refused
/// (`PlatformCookieStoreRefusal`) or not kept (a set it completed without holding the cookie after).
///
/// Such a version is not offered to the store again: the store would turn it down again, and a store
/// that signals the sync's own writes (WKHTTPCookieStore) would signal each offer, for a reconcile that
/// offered it again, for ever. A version is the cookie's fields as the jar holds them (its value and
/// attributes), so a change of the cookie in the jar is offered; so is the cookie added again after it
/// left the jar.
struct RefusedCookieVersions {
    private var versions: [CookieIdentity: SyncedCookieFields] = [:]

    /// True when the store turned down `cookie` as it is now.
    func contains(_ cookie: Cookie) -> Bool {
        versions[CookieIdentity(cookie)] == SyncedCookieFields(cookie, carried: .all)
    }

    /// Remembers that the store turned down `cookie` (its version replaces an older one of its identity).
    mutating func insert(_ cookie: Cookie) {
        versions[CookieIdentity(cookie)] = SyncedCookieFields(cookie, carried: .all)
    }

    /// Forgets every version the jar no longer holds (`jar`: the jar's cookies in scope, by identity).
    mutating func keepOnly(heldIn jar: [CookieIdentity: Cookie]) {
        versions = versions.filter { identity, version in
            jar[identity].map { SyncedCookieFields($0, carried: .all) } == version
        }
    }
}
