import Benchmark
import BenchmarkWorkload
import Cookies

/// Writing headers: the `Cookie` header of a request (§5.8.3 step 4) and `Set-Cookie` lines; one
/// iteration writes 1,000 of them.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Tolerances.configuration

    var random = SeededGenerator(seed: 6265)
    // Requests carrying 1 to 20 cookies, as the jar would send them.
    let headers: [[CookiePair]] = (0..<1000).map { _ in
        (0..<Int.random(in: 1...20, using: &random)).map { index in
            CookiePair(name: "c\(index)", value: random.string("0123456789abcdef", count: Int.random(in: 4...40, using: &random)))
        }
    }
    Benchmark("Serialize-Cookie-header") { _ in
        for pairs in headers {
            blackHole(CookieHeader.serialize(pairs))
        }
    }

    let parsed = (0..<1000).compactMap { _ in try? ParsedSetCookie(parsing: Workload.typicalLine(&random, domain: "example.com")) }
    Benchmark("Serialize-Set-Cookie-line") { _ in
        for cookie in parsed {
            blackHole(cookie.setCookieString)
        }
    }
}
