/// A seeded random number generator (SplitMix64, Steele, Lea & Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014): the same seed gives the same workload on every machine and run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` characters drawn from `alphabet`.
    public mutating func string(_ alphabet: String, count: Int) -> String {
        let characters = Array(alphabet)
        return String((0..<count).map { _ in characters.randomElement(using: &self)! })
    }

    /// An element of `elements`.
    public mutating func pick<T>(_ elements: [T]) -> T {
        elements.randomElement(using: &self)!
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }
}
