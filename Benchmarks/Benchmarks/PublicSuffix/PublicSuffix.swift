import Benchmark
import BenchmarkWorkload
@_spi(Benchmarking) import Cookies
import Synchronization

/// Registrable-domain lookups; one iteration resolves 1,000 seeded hosts.
/// - compiled-in: the list compiled into `Cookies` (the default on every platform unless libpsl's list is newer).
///   Cold: hosts under a label of their own each iteration, never asked before (the list keeps no answers, so
///   this differs from warm only in what the processor's caches hold). Warm: the same 1,000 hosts each iteration.
///   Build: parsing the compiled-in rules into the list's table, which its first use pays once.
/// - libpsl (where linked): cold asks hosts never asked before; warm asks the same hosts again, which `LibPSLList`
///   answers from the answers it remembers.
/// - cached: the hosts' sites are known to the jar, which answers from its host → site cache (measured
///   as the `Cookie` header of a request to an empty-handed host of a known site).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Tolerances.configuration

    let workload = Workload(siteCount: 1000, seed: 6265)
    var random = SeededGenerator(seed: 6266)
    let hosts = (0..<1000).map { _ in random.pick(random.pick(workload.sites).hosts) }

    /// Cold and warm lookups on `list`.
    func lookups(_ name: String, _ list: any PublicSuffixList) {
        let round = Atomic<Int>(0)
        Benchmark("Public-suffix-cold-\(name)") { benchmark in
            let label = "r\(round.add(1, ordering: .relaxed).newValue)."
            let unasked = hosts.map { label + $0 }
            benchmark.startMeasurement()
            for host in unasked {
                blackHole(list.registrableDomain(of: host))
            }
            benchmark.stopMeasurement()
        }
        for host in hosts { blackHole(list.registrableDomain(of: host)) }
        Benchmark("Public-suffix-warm-\(name)") { _ in
            for host in hosts {
                blackHole(list.registrableDomain(of: host))
            }
        }
    }

    lookups("compiled-in", CompiledPublicSuffixList.shared)
    #if os(Linux)
    lookups("libpsl", LibPSLList.latest())
    #endif

    Benchmark("Public-suffix-compiled-in-build", configuration: .init(maxIterations: 20)) { _ in
        blackHole(CompiledPublicSuffixList.makeList())
    }

    let jar = CookieJar(limits: CookieLimits(maxCookies: 1_000_000))
    let urls = hosts.compactMap { CookieURL("https://" + $0 + "/") }
    // One cookie per site on a path no request asks for: the site exists, nothing is sent.
    for site in workload.sites {
        jar.setCookie("k=v; Path=/never; Domain=" + site.domain, from: CookieURL("https://" + site.domain + "/")!)
    }
    Benchmark("Public-suffix-cached-jar") { _ in
        for url in urls {
            blackHole(jar.cookieHeader(for: url))
        }
    }
}
