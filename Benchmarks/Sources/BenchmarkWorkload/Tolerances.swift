import Benchmark

/// How far a metric may move before `swift package benchmark baseline check` (or `thresholds check`)
/// calls it a regression. Allocation counts are deterministic, so they get a tight bound; times on a
/// shared 2-core machine drift by tens of percent between runs, so only a large slow-down fails.
public enum Tolerances {
    public static let standard: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(relative: [.p50: 1, .p90: 1]),
        .wallClock: .init(relative: [.p50: 50]),
    ]

    /// The configuration every suite uses: wall clock and allocation counts, per iteration (each suite says what one iteration does).
    public static let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 1000,
        thresholds: standard
    )
}
