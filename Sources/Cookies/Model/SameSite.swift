/// A cookie's same-site-flag (rfc6265bis-22 §5.6.7, §5.7 step 17).
///
/// `default` is what a missing or unrecognised SameSite attribute gives; retrieval enforces it like
/// `lax` (§5.8.3 step 1, §4.1.2.7).
public enum SameSite: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    /// `SameSite=Strict`: sent only on same-site requests.
    case strict = "Strict"
    /// `SameSite=Lax`: sent on same-site requests and on cross-site top-level navigations with a safe method.
    case lax = "Lax"
    /// `SameSite=None`: sent on cross-site requests too (the cookie must be Secure, §5.7 step 18.2).
    case none = "None"
    /// No SameSite attribute, or one with an unrecognised value: enforced as `lax`.
    case `default` = "Default"
}
