/// The rules of rfc6265bis-22 §5.7 on a cookie's own attributes, whatever request set it: steps 19–22 and
/// CHIPS §2.1. Receiving applies them to each line (`CookieJar.receive`); `CookieJar.insert(_:)` to each
/// cookie handed to it as it is (an import, a web view's cookie), so that a jar holds no cookie a
/// `Set-Cookie` line could not have given it.
enum CookieAttributeRules {
    /// Why the cookie named `name` (UTF-8) with `value` is refused, or nil. `hasRootPath`: its path is
    /// "/" set by a Path attribute (a cookie handed over as it is: its path is "/").
    @inline(__always)
    static func rejection(
        name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, isSecure: Bool, isHostOnly: Bool,
        hasRootPath: @autoclosure () -> Bool, sameSite: SameSite, isPartitioned: Bool
    ) -> CookieRejection? {
        // Step 19: SameSite=None requires Secure.
        if sameSite == .none, !isSecure { return .sameSiteNoneWithoutSecure }
        // Step 20: `__Secure-` requires the secure-only-flag.
        if name.caseInsensitivelyStarts(with: "__secure-"), !isSecure { return .securePrefixViolation }
        // Step 21: `__Host-` requires Secure, host-only, and a Path attribute whose path is "/".
        if name.caseInsensitivelyStarts(with: "__host-"), !(isSecure && isHostOnly && hasRootPath()) {
            return .hostPrefixViolation
        }
        // Step 22: a nameless cookie cannot pose as a prefixed one.
        if name.isEmpty, value.caseInsensitivelyStarts(with: "__secure-") || value.caseInsensitivelyStarts(with: "__host-") {
            return .namelessWithPrefix
        }
        // CHIPS §2.1: Partitioned requires Secure.
        if isPartitioned, !isSecure { return .partitionedWithoutSecure }
        return nil
    }
}
