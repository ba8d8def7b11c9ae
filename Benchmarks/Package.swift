// swift-tools-version: 6.1
import PackageDescription

// The benchmarks of swift-cookiejar, a package of their own so that the library does not depend on the
// benchmark harness. `swift package benchmark` runs the suites in Benchmarks/; `cookiejar-bench` is the
// workload runner for the cross-engine harness (see the README's "Performance" section).
let package = Package(
    name: "swift-cookiejar-benchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "cookiejar-bench", targets: ["cookiejar-bench"]),
    ],
    dependencies: [
        // Named: a clone's folder name need not be "swift-cookiejar".
        .package(name: "swift-cookiejar", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkWorkload",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Sources/BenchmarkWorkload"
        ),
        .executableTarget(
            name: "cookiejar-bench",
            dependencies: [.product(name: "Cookies", package: "swift-cookiejar")],
            path: "Sources/cookiejar-bench"
        ),
        benchmarkSuite("Parse"),
        benchmarkSuite("Jar"),
        benchmarkSuite("Serialization"),
        benchmarkSuite("Persistence"),
        benchmarkSuite("PublicSuffix"),
    ],
    swiftLanguageModes: [.v6]
)

/// A package-benchmark suite in Benchmarks/<name>/, run on the library with the shared workload.
func benchmarkSuite(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "Cookies", package: "swift-cookiejar"),
            "BenchmarkWorkload",
            .product(name: "Benchmark", package: "benchmark"),
        ],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
