/// One fuzz target: a name (the `FUZZ_TARGET` value and the `corpus/<name>/` folder) and a check that
/// runs the library on arbitrary bytes and throws when an invariant breaks.
///
/// Adding a target: one file declaring `extension FuzzTarget { static let … }`, plus its line in `all`.
public struct FuzzTarget: Sendable, CustomStringConvertible {
    public let name: String
    private let body: @Sendable (UnsafeBufferPointer<UInt8>) throws(InvariantViolation) -> Void

    init(name: String, body: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws(InvariantViolation) -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the target on one input.
    public func run(_ input: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        try body(input)
    }

    /// Runs the target on one input held in an array.
    public func run(_ input: [UInt8]) throws(InvariantViolation) {
        let result = input.withUnsafeBufferPointer { bytes in
            Result { () throws(InvariantViolation) in try body(bytes) }
        }
        try result.get()
    }

    public var description: String { name }

    /// Every target, in the order the tools list them.
    public static let all: [FuzzTarget] = [setCookie, cookieDate, cookieHeader, jar, cookieFile, databaseFile, cookieURL]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
