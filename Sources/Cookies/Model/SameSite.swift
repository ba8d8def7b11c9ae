/// A cookie's same-site-flag (rfc6265bis-22 §5.6.7, §5.7 step 17).
///
/// `default` is what a missing or unrecognised SameSite attribute gives; retrieval enforces it like
/// `lax` (§5.8.3 step 3, §4.1.2.7).
public enum SameSite: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    case strict = "Strict"
    case lax = "Lax"
    case none = "None"
    case `default` = "Default"
}
