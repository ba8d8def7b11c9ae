// The fleet benchmark (run by hand; figures in the README): JARS jars × 20 cookies served by two
// instances (two threads, each with its own PostgresCookieJars and connections, each serving every other
// jar), on PostgreSQL (PGHOST, PGPORT, PGUSER, PGDATABASE) and, as the baseline, on SQLite jar files (one
// file per jar, in a temporary directory).
//
//   swift run -c release --package-path Tests/EndToEnd PostgresBenchmark [JARS]
//
// Measured, for each store: receive+flush throughput (a jar opened, 20 Set-Cookie lines received,
// flushed), jar open latency p50/p99 on a new instance (nothing in memory), lookup latency p50/p99 with
// a warm cache (the Cookie header of a jar in memory; for PostgreSQL also with the per-request version
// check of `jar(_:)`).
import Cookies
import CookiesPostgres
import Dispatch
import Foundation

let jarCount = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 10_000 : 10_000
let instances = 2
let lines = (0..<20).map { "c\($0)=\(String(repeating: "v", count: 40)); Max-Age=86400; Path=/; Secure; HttpOnly" }
let urls = (0..<jarCount).map { CookieURL("https://site\($0 % 500).example/")! }

/// Runs `body(instance, jar)` for every jar, the jars shared out among the instances (threads).
func forEveryJar(_ body: @Sendable @escaping (Int, Int) throws -> Void) rethrows {
    DispatchQueue.concurrentPerform(iterations: instances) { instance in
        for jar in stride(from: instance, to: jarCount, by: instances) {
            do { try body(instance, jar) } catch { fatalError("\(error)") }
        }
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// p50 and p99 of durations, in microseconds.
func percentiles(_ samples: [Duration]) -> (Double, Double) {
    let sorted = samples.map { seconds($0) * 1e6 }.sorted()
    return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
}

final class Samples: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Duration] = []
    func add(_ value: Duration) { lock.withLock { values.append(value) } }
    var all: [Duration] { lock.withLock { values } }
}

struct Figures {
    var throughput: Double  // cookies per second
    var open: (Double, Double)
    var lookup: (Double, Double)
    var lookupChecked: (Double, Double)?
}

func report(_ name: String, _ f: Figures) {
    print(String(format: "%@: receive+flush %.0f cookies/s (%.0f jars/s); open p50 %.0f µs p99 %.0f µs; warm lookup p50 %.1f µs p99 %.1f µs",
        name, f.throughput, f.throughput / 20, f.open.0, f.open.1, f.lookup.0, f.lookup.1))
    if let checked = f.lookupChecked {
        print(String(format: "%@: warm lookup with the version check p50 %.0f µs p99 %.0f µs", name, checked.0, checked.1))
    }
}

func postgres() throws -> Figures {
    var configuration = PostgresCookieJars.Configuration.environment()
    configuration.schema = "bench_\(UInt32.random(in: 0...UInt32.max))"
    configuration.writeOptions.flushDelay = nil
    configuration.maximumOpenJars = jarCount
    configuration.connections = 2
    let writers = try (0..<instances).map { _ in try PostgresCookieJars(configuration) }
    let clock = ContinuousClock()
    let start = clock.now
    try forEveryJar { instance, index in
        let jars = writers[instance]
        let jar = try jars.jar("jar-\(index)")
        for line in lines { jar.receive(line, from: urls[index]) }
        try jars.flush("jar-\(index)")
    }
    let throughput = Double(jarCount * 20) / seconds(clock.now - start)
    let readers = try (0..<instances).map { _ in try PostgresCookieJars(configuration) }
    let open = Samples(), lookup = Samples(), checked = Samples()
    try forEveryJar { instance, index in
        let began = clock.now
        _ = try readers[instance].jar("jar-\(index)")
        open.add(clock.now - began)
    }
    try forEveryJar { instance, index in
        let jar = try readers[instance].jar("jar-\(index)")
        let began = clock.now
        precondition(jar.cookieHeader(for: urls[index]) != nil)
        lookup.add(clock.now - began)
        let checkedStart = clock.now
        let header = try readers[instance].jar("jar-\(index)").cookieHeader(for: urls[index])
        precondition(header != nil)
        checked.add(clock.now - checkedStart)
    }
    for jars in writers + readers { try jars.shutDown() }
    return Figures(throughput: throughput, open: percentiles(open.all), lookup: percentiles(lookup.all),
        lookupChecked: percentiles(checked.all))
}

func sqlite() throws -> Figures {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cookiejar-bench-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let options = { () -> CookieJarFileOptions in
        var options = CookieJarFileOptions()
        options.flushDelay = nil
        return options
    }()
    let path = { @Sendable (index: Int) in directory.appendingPathComponent("jar-\(index).sqlite").path }
    let clock = ContinuousClock()
    let start = clock.now
    try forEveryJar { _, index in
        let jar = try CookieJar(contentsOf: path(index), options: options)
        for line in lines { jar.receive(line, from: urls[index]) }
        try jar.flush()
        try jar.close()
    }
    let throughput = Double(jarCount * 20) / seconds(clock.now - start)
    // Each jar is opened (timed), asked for its header with its cookies in memory (timed), and closed:
    // an SQLite jar keeps its file open, and 10,000 open jars would exceed the process's descriptors.
    let open = Samples(), lookup = Samples()
    try forEveryJar { _, index in
        let began = clock.now
        let jar = try CookieJar(contentsOf: path(index), options: options)
        open.add(clock.now - began)
        let asked = clock.now
        precondition(jar.cookieHeader(for: urls[index]) != nil)
        lookup.add(clock.now - asked)
        try jar.close()
    }
    return Figures(throughput: throughput, open: percentiles(open.all), lookup: percentiles(lookup.all), lookupChecked: nil)
}

print("\(jarCount) jars × 20 cookies, \(instances) instances, \(ProcessInfo.processInfo.activeProcessorCount) cores")
let pg = try postgres()
report("PostgreSQL", pg)
let lite = try sqlite()
report("SQLite", lite)
print(String(format: "PostgreSQL / SQLite: throughput ×%.2f, open p50 ×%.2f, warm lookup p50 ×%.2f",
    pg.throughput / lite.throughput, pg.open.0 / lite.open.0, pg.lookup.0 / lite.lookup.0))
