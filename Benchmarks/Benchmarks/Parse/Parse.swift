import Benchmark
import BenchmarkWorkload
import Cookies

/// rfc6265bis-22 §5.6 parsing of `Set-Cookie` lines; one iteration parses 1,000 seeded lines of one kind.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Tolerances.configuration

    func parseBenchmark(_ name: String, lines make: (inout SeededGenerator) -> String) {
        var random = SeededGenerator(seed: 6265)
        let lines = (0..<1000).map { _ in make(&random) }
        Benchmark(name) { _ in
            for line in lines {
                blackHole(try? ParsedSetCookie(parsing: line))
            }
        }
    }

    parseBenchmark("Parse-typical-line") { Workload.typicalLine(&$0, domain: "example.com") }
    parseBenchmark("Parse-long-JWT-value") { Workload.jwtLine(&$0) }
    parseBenchmark("Parse-legacy-dates") { Workload.legacyDateLine(&$0) }
    parseBenchmark("Parse-rejected-lines") { Workload.rejectedLine(&$0) }
}
