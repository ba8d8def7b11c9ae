import Benchmark
import BenchmarkWorkload
import Cookies
import Synchronization

/// Registrable-domain lookups; one iteration resolves 1,000 seeded hosts.
/// - cold: every lookup goes to the list (libpsl's, and the pure-Swift `PublicSuffixRules`). `LibPSLList`
///   remembers its answers, so each iteration asks about its hosts under a label of its own (made before
///   the measurement), never asked before.
/// - cached: the hosts' sites are known to the jar, which answers from its host → site cache (measured
///   as the `Cookie` header of a request to an empty-handed host of a known site).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Tolerances.configuration

    let workload = Workload(siteCount: 1000, seed: 6265)
    var random = SeededGenerator(seed: 6266)
    let hosts = (0..<1000).map { _ in random.pick(random.pick(workload.sites).hosts) }

    let system = SystemPublicSuffixList.shared
    let round = Atomic<Int>(0)
    Benchmark("Public-suffix-cold-libpsl") { benchmark in
        let label = "r\(round.add(1, ordering: .relaxed).newValue)."
        let unasked = hosts.map { label + $0 }
        benchmark.startMeasurement()
        for host in unasked {
            blackHole(system.registrableDomain(of: host))
        }
        benchmark.stopMeasurement()
    }

    if let rules = try? PublicSuffixRules(contentsOfFile: "/usr/share/publicsuffix/public_suffix_list.dat") {
        Benchmark("Public-suffix-cold-PublicSuffixRules") { _ in
            for host in hosts {
                blackHole(rules.registrableDomain(of: host))
            }
        }
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
