import Benchmark
import BenchmarkWorkload
import Cookies

/// The jar: receiving `Set-Cookie` lines (§5.6 + §5.7) and building `Cookie` headers (§5.8.3).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Tolerances.configuration

    // 1,000 sites; the per-site limit (180) stays on, the jar-wide one is raised above the workload.
    let workload = Workload(siteCount: 1000, seed: 6265)
    let limits = CookieLimits(maxCookies: 1_000_000)

    // One iteration: 1,000 receipts (URL parse + parse + storage model) into a fresh jar.
    let receipts = workload.receipts(count: 1000, seed: 1)
    Benchmark("Receive-into-a-jar") { benchmark in
        let jar = CookieJar(limits: limits)
        benchmark.startMeasurement()
        for receipt in receipts {
            jar.receive(receipt.setCookie, from: CookieURL(receipt.url)!)
        }
        benchmark.stopMeasurement()
        blackHole(jar)
    }

    // A jar of about 50,000 cookies (66,000 receipts), then 1,000 requests per iteration (URL parse + header).
    let big = CookieJar(limits: limits)
    for receipt in workload.receipts(count: 66_000, seed: 2) {
        big.receive(receipt.setCookie, from: CookieURL(receipt.url)!)
    }
    precondition((48_000...52_000).contains(big.count), "the lookup jar should hold about 50,000 cookies")
    let hits = workload.queries(count: 1000, hits: true, seed: 3)
    let misses = workload.queries(count: 1000, hits: false, seed: 4)
    Benchmark("Lookup-hits-50k-cookie-jar") { _ in
        for query in hits {
            blackHole(jar: big, query)
        }
    }
    Benchmark("Lookup-misses-50k-cookie-jar") { _ in
        for query in misses {
            blackHole(jar: big, query)
        }
    }
}

@inline(__always)
func blackHole(jar: CookieJar, _ query: String) {
    blackHole(CookieURL(query).flatMap { jar.cookieHeader(for: $0) })
}
