/// A broken invariant: the fuzz entry point traps on it (libFuzzer keeps the input as a crash), the corpus
/// replay test records it. The message names the target and the invariant, never a cookie's value.
public struct InvariantViolation: Error, CustomStringConvertible {
    public let target: String
    public let invariant: String

    public var description: String { "\(target): invariant violated: \(invariant)" }
}

/// Throws a violation of `invariant` in `target` unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ target: String, _ invariant: @autoclosure () -> String) throws(InvariantViolation) {
    if !condition { throw InvariantViolation(target: target, invariant: invariant()) }
}
