import Benchmark

/// How far a metric may move before `swift package benchmark baseline check` (or `thresholds check`)
/// calls it a regression. Allocation counts are deterministic, so they get a tight bound (1 %). Medians of
/// wall-clock time on a shared 2-core machine moved by up to 85 % between two runs of the same build
/// (2026-11-21), so time fails only beyond +150 %, i.e. a slow-down of 2.5 times or more.
public enum Tolerances {
    public static var standard: [BenchmarkMetric: BenchmarkThresholds] {
        [
            .mallocCountTotal: .init(relative: [.p50: 1, .p90: 1]),
            .wallClock: .init(relative: [.p50: 150]),
        ]
    }

    /// The configuration every suite uses: wall clock and allocation counts, per iteration (each suite
    /// says what one iteration does).
    public static var configuration: Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal],
            scalingFactor: .one,
            maxDuration: .seconds(2),
            maxIterations: 1000,
            thresholds: standard
        )
    }
}
