import Benchmark
import BenchmarkWorkload
import Cookies
import Foundation
import Synchronization

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
    let big = lookupJar(workload, limits: limits)
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

    manySites()
    // A jar of its own, which the receiving thread changes.
    manyThreads(jar: lookupJar(workload, limits: limits), queries: hits)
}

/// A jar of about 50,000 cookies: 66,000 receipts of `workload`.
func lookupJar(_ workload: Workload, limits: CookieLimits) -> CookieJar {
    let jar = CookieJar(limits: limits)
    for receipt in workload.receipts(count: 66_000, seed: 2) {
        jar.receive(receipt.setCookie, from: CookieURL(receipt.url)!)
    }
    precondition((48_000...52_000).contains(jar.count), "the lookup jar should hold about 50,000 cookies")
    return jar
}

/// One jar shared by threads (an app's URLSession delegate queues, a server's event loops): the 50,000
/// cookie jar, 8,000 lookups of `queries` (URLs built beforehand) per iteration, made by one thread, by
/// eight threads of 1,000 each, and by seven threads while an eighth receives 1,000 lines into the same
/// jar. On a machine of n cores, eight threads at best take 1/n of one thread's time.
func manyThreads(jar: CookieJar, queries: [String]) {
    // Each thread asks with URLs of its own, as the requests of different threads are: threads that
    // shared one URL's text would contend for its reference count, which is not the jar's cost.
    let urlsOfThread = (0..<8).map { _ in
        queries.map { CookieURL(String(decoding: Array($0.utf8), as: UTF8.self))! }
    }
    let receipts = Workload(siteCount: 1000, seed: 6265).receipts(count: 1000, seed: 5).map { ($0.setCookie, CookieURL($0.url)!) }

    let lookups: @Sendable (Int, Int) -> Void = { count, thread in
        let urls = urlsOfThread[thread]
        for index in 0..<count {
            blackHole(jar.cookieHeader(for: urls[index % urls.count]))
        }
    }
    Benchmark("Lookup-8000-one-thread") { _ in
        onThreads([{ lookups(8000, 0) }])
    }
    Benchmark("Lookup-8000-eight-threads") { _ in
        onThreads((0..<8).map { thread in { lookups(1000, thread) } })
    }
    Benchmark("Lookup-7000-seven-threads-while-one-receives") { _ in
        let receiver: @Sendable () -> Void = {
            for (line, url) in receipts {
                jar.receive(line, from: url)
            }
        }
        onThreads([receiver] + (1..<8).map { thread in { lookups(1000, thread) } })
    }
    lookupsWhileOneReceives(jar: jar, urls: urlsOfThread[0], receipts: receipts)
}

/// Runs `bodies` on threads of their own and returns when all are done.
func onThreads(_ bodies: [@Sendable () -> Void]) {
    let group = DispatchGroup()
    for body in bodies {
        group.enter()
        Thread.detachNewThread {
            body()
            group.leave()
        }
    }
    group.wait()
}

/// One thread receives 1,000 lines into the jar while another looks up without pause, each taking the
/// time at the start and end of each call. A lookup that asks while a receipt holds the jar waits for that
/// receipt; it should not wait for the next ones too (a lock that the receiving thread takes again before
/// the waiting lookup would let it). The measure of that: the most receipts that began and ended within
/// one lookup, which is 0 when a lookup waits for at most the receipt under way, with the longest lookup
/// and the longest receipt for scale (custom metrics, per iteration). The same with the receipts going
/// into another jar (`-elsewhere`) is the control: what the machine's scheduling alone does to the count
/// (a lookup thread taken off its core while receipts go on).
func lookupsWhileOneReceives(jar: CookieJar, urls: [CookieURL], receipts: [(String, CookieURL)]) {
    let otherJar = lookupJar(Workload(siteCount: 1000, seed: 6265), limits: CookieLimits(maxCookies: 1_000_000))
    for (name, receivingJar) in [("Lookups-while-one-receives", jar), ("Lookups-while-one-receives-elsewhere", otherJar)] {
        lookupsWhileOneReceives(name, jar: jar, urls: urls, receipts: receipts, receivingJar: receivingJar)
    }
}

func lookupsWhileOneReceives(
    _ name: String, jar: CookieJar, urls: [CookieURL], receipts: [(String, CookieURL)], receivingJar: CookieJar
) {
    /// The start and end of each call a thread made, in nanoseconds of the monotonic clock.
    final class Spans: @unchecked Sendable {
        var starts: [UInt64] = []
        var ends: [UInt64] = []
        init(capacity: Int) {
            starts.reserveCapacity(capacity)
            ends.reserveCapacity(capacity)
        }
        func time(_ body: () -> Void) {
            starts.append(DispatchTime.now().uptimeNanoseconds)
            body()
            ends.append(DispatchTime.now().uptimeNanoseconds)
        }
        var longest: Int { zip(starts, ends).map { Int($1 - $0) }.max() ?? 0 }
    }
    let mostReceipts = BenchmarkMetric.custom("Receipts within one lookup (most)", useScalingFactor: false)
    let longestLookup = BenchmarkMetric.custom("Longest lookup (µs)", useScalingFactor: false)
    let longestReceipt = BenchmarkMetric.custom("Longest receipt (µs)", useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, mostReceipts, longestLookup, longestReceipt], maxIterations: 100, thresholds: [:])
    Benchmark(name, configuration: configuration) { benchmark in
        let received = Spans(capacity: receipts.count)
        let looked = Spans(capacity: 1 << 20)
        let done = Flag()
        onThreads([
            {
                for (line, url) in receipts { received.time { receivingJar.receive(line, from: url) } }
                done.raise()
            },
            {
                var index = 0
                while !done.isRaised, looked.starts.count < looked.starts.capacity {
                    looked.time { blackHole(jar.cookieHeader(for: urls[index % urls.count])) }
                    index += 1
                }
            },
        ])
        // For each lookup, the receipts that began at or after its start and ended by its end (receipts
        // follow one another, so they are in order of both).
        var most = 0
        var first = 0
        for (start, end) in zip(looked.starts, looked.ends) {
            while first < received.starts.count, received.starts[first] < start { first += 1 }
            var within = 0
            while first + within < received.ends.count, received.ends[first + within] <= end { within += 1 }
            most = max(most, within)
        }
        benchmark.measurement(mostReceipts, most)
        benchmark.measurement(longestLookup, looked.longest / 1000)
        benchmark.measurement(longestReceipt, received.longest / 1000)
    }
}

/// A flag one thread raises and another reads.
final class Flag: Sendable {
    private let value = Atomic(false)
    func raise() { value.store(true, ordering: .releasing) }
    var isRaised: Bool { value.load(ordering: .acquiring) }
}

/// Jars that meet many sites, with the default limits (3,300 cookies in all, 300 evicted at once): one
/// iteration receives 200,000 lines `c=v; Max-Age=3600` from URLs built beforehand (no String work in the
/// loop), so that its time over 200,000 is a receipt's. The reference is a jar within its limits (100
/// sites of 20 names) whose every receipt replaces a cookie: what a receipt costs when nothing is evicted.
func manySites() {
    let receipts = 200_000
    let line = "c=v; Max-Age=3600"
    let few = Benchmark.Configuration(maxIterations: 10)

    /// Receives `line` from each of `urls` into a fresh jar with the default limits.
    func receiveIntoFreshJar(_ name: String, from urls: [CookieURL]) {
        Benchmark(name, configuration: few) { benchmark in
            let jar = CookieJar()
            benchmark.startMeasurement()
            for url in urls {
                jar.receive(line, from: url)
            }
            benchmark.stopMeasurement()
            precondition(jar.count <= CookieLimits.default.maxCookies, "the jar-wide limit holds")
            blackHole(jar)
        }
    }
    receiveIntoFreshJar(
        "Receive-200k-distinct-sites-default-limits", from: (0..<receipts).map { CookieURL("https://site\($0).com/")! })
    // Host k is host k / 50,000 of site k % 50,000: each site comes back three times, 50,000 receipts apart.
    receiveIntoFreshJar(
        "Receive-200k-hosts-over-50k-sites-default-limits",
        from: (0..<receipts).map { CookieURL("https://h\($0 / 50_000).site\($0 % 50_000).com/")! })

    let sites = (0..<100).map { CookieURL("https://site\($0).com/")! }
    let names = (0..<20).map { "c\($0)=v; Max-Age=3600" }
    let jar = CookieJar()
    for site in sites {
        for name in names { jar.receive(name, from: site) }
    }
    precondition(jar.count == 2000, "the reference jar holds 100 sites of 20 cookies")
    Benchmark("Receive-200k-replacing-within-limits", configuration: few) { _ in
        for index in 0..<receipts {
            jar.receive(names[index % 20], from: sites[index / 20 % 100])
        }
    }
}

@inline(__always)
func blackHole(jar: CookieJar, _ query: String) {
    blackHole(CookieURL(query).flatMap { jar.cookieHeader(for: $0) })
}
