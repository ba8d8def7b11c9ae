import Cookies

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The workload runner of ../shared/bench for swift-cookiejar: the engine "project" of its `run.sh`.
///
/// Phases, each timed as the other drivers time theirs (URL parsing included where theirs includes it):
/// - parse: `ParsedSetCookie(parsing:)` over the 200k values of receipts-large.tsv (§5.6 only).
/// - store: `CookieURL(url)` + `CookieJar.receive(_:from:)` per receipt into a new jar (§5.6 + §5.7,
///   public suffix checks with the machine's list, prefixes, Secure, SameSite, limits).
/// - lookup: `CookieURL(query)` + `CookieJar.appendCookieHeader(for:to:)` (§5.8.3) into one buffer kept
///   from query to query, as the Rust, curl and floor drivers write theirs; adaptive count. The same
///   queries through `cookieHeader(for:)`, a String each, are timed too (`lookup_string_*`).
/// - persistence: the SQLite jar file (`JarFileRoundTrip`): save the large jar to a file in `--tmp`,
///   then open and load it.
/// - memory (`--phase rss-input` / `rss-jar`): peak RSS after reading the inputs, and after also
///   building the large jar once, every input alive throughout. Memory freed before the jar is built
///   would be reused by it without raising the peak, hiding the jar's own footprint, so `WorkloadFiles`
///   reads without leaving freed memory behind. `rss-jar` also reports `MemoryLayout<Cookie>.size`
///   and `.stride`.
///
/// Limits: the large workload leaves about 55,000 live cookies; the default jar-wide limit (3,300,
/// Chromium's) would evict most of them and make every peer's jar (none of which caps the total)
/// incomparable to ours. The runner raises `maxCookies` to 1,000,000 and keeps the per-site limit
/// (180) and the 400-day cap as they are. The report's `limits` field says so.
@main
struct CookieJarBench {
    static let limits = CookieLimits(maxCookies: 1_000_000)

    static func main() {
        guard let arguments = DriverArguments(Array(CommandLine.arguments.dropFirst())) else { exit(2) }
        let publicSuffixList: any PublicSuffixList
        if let path = arguments.publicSuffixListPath {
            do {
                publicSuffixList = try PublicSuffixRules(contentsOfFile: path)
            } catch {
                printError(error.description)
                exit(3)
            }
        } else {
            publicSuffixList = SystemPublicSuffixList.shared
        }
        func newJar() -> CookieJar { CookieJar(publicSuffixList: publicSuffixList, limits: limits) }

        let small = WorkloadFiles.receipts(atPath: arguments.data + "/receipts-small.tsv")
        let large = WorkloadFiles.receipts(atPath: arguments.data + "/receipts-large.tsv")
        let queries = WorkloadFiles.lines(atPath: arguments.data + "/queries.tsv")

        switch arguments.phase {
        // Both memory phases keep every input alive to the end, as the other drivers do: the optimiser
        // would otherwise free the inputs a phase never uses at once, and the jar would reuse their
        // memory without raising the peak.
        case .rssInput:
            print("{\"vmhwm_kb\":\(peakResidentKilobytes())}")
            withExtendedLifetime((small, large, queries)) {}
            return
        case .rssJar:
            let jar = newJar()
            store(large, into: jar)
            print("{\"vmhwm_kb\":\(peakResidentKilobytes()),\"n\":\(jar.count),"
                + "\"cookie_size\":\(MemoryLayout<Cookie>.size),\"cookie_stride\":\(MemoryLayout<Cookie>.stride)}")
            withExtendedLifetime((jar, small, large, queries)) {}
            return
        case .all:
            break
        }

        var timer = PhaseTimer(reps: arguments.reps)
        var report = DriverReport()
        report.set("engine", "swift-cookiejar")
        report.set("version", "Cookies (this repository), \(compilerVersion), release build; "
            + (arguments.publicSuffixListPath.map { "PublicSuffixRules from \($0)" }
                ?? "default public suffix list (\(SystemPublicSuffixList.shared.info?.source.rawValue ?? "unknown"))"))
        report.set("limits", "maxCookies raised to 1000000 for the ~55k-cookie workload; 180 per site and 400 days as default")

        // (a) parse
        var parsedOK = 0
        var seconds = timer.median("parse") { parsedOK = parse(large) }
        report.set("parse_n", large.count)
        report.set("parse_ok", parsedOK)
        report.set("parse_s", seconds)
        report.set("parse_per_s", Double(large.count) / seconds)

        // (b) store
        seconds = timer.median("store_small") { store(small, into: newJar()) }
        report.set("store_small_n", small.count)
        report.set("store_small_s", seconds)
        report.set("store_small_per_s", Double(small.count) / seconds)
        var jar = newJar()
        seconds = timer.median("store_large") {
            jar = newJar()
            store(large, into: jar)
        }
        report.set("store_large_n", large.count)
        report.set("store_large_s", seconds)
        report.set("store_large_per_s", Double(large.count) / seconds)
        report.set("jar_cookies", jar.allCookies().count)

        // (c) lookup: as many queries as fit in the budget per repetition, calibrated on 200.
        let calibration = min(200, queries.count)
        let perQuery = PhaseTimer.seconds { _ = lookUp(queries[..<calibration], in: jar) } / Double(max(1, calibration))
        var lookupCount = queries.count
        if perQuery * Double(lookupCount) > arguments.lookupBudget {
            lookupCount = max(calibration, Int(arguments.lookupBudget / perQuery))
        }
        var result = (hits: 0, bytes: 0)
        seconds = timer.median("lookup") { result = lookUp(queries[..<lookupCount], in: jar) }
        report.set("lookup_n", lookupCount)
        report.set("lookup_s", seconds)
        report.set("lookup_per_s", Double(lookupCount) / seconds)
        report.set("lookup_hits", result.hits)
        report.set("lookup_bytes", result.bytes)
        var stringResult = (hits: 0, bytes: 0)
        seconds = timer.median("lookup_string") { stringResult = lookUpStrings(queries[..<lookupCount], in: jar) }
        precondition(stringResult == result, "the String headers differ from the appended ones")
        report.set("lookup_string_s", seconds)
        report.set("lookup_string_per_s", Double(lookupCount) / seconds)

        // (d) persistence
        JarFileRoundTrip(path: arguments.tmp + "/cookiejar-bench.sqlite", limits: limits, publicSuffixList: publicSuffixList)
            .measure(jar, timer: &timer, report: &report)
        report.set("reps", arguments.reps)
        report.set("samples", samples: timer.samples)
        report.set("vmhwm_kb", peakResidentKilobytes())
        print(report.line)
        withExtendedLifetime(jar) {}
    }

    /// Parses the `Set-Cookie` value of every receipt; returns how many parsed. The receipts are read in
    /// place (a `for` loop over the array would retain and release both strings of each), and a result is
    /// told from an error by `do`/`catch` (`(try? …) != nil` compares two optionals through the runtime's
    /// generic value witnesses, about 75 instructions a line).
    @inline(never)
    static func parse(_ receipts: [WorkloadFiles.Receipt]) -> Int {
        receipts.withUnsafeBufferPointer { receipts in
            var count = 0
            for index in receipts.indices {
                do {
                    _ = try ParsedSetCookie(parsing: receipts[index].setCookie)
                    count += 1
                } catch {}
            }
            return count
        }
    }

    /// Receives every receipt, in order, as a response to its URL. The receipts are read in place (a
    /// `for` loop over the array would retain and release both strings of each).
    static func store(_ receipts: [WorkloadFiles.Receipt], into jar: CookieJar) {
        receipts.withUnsafeBufferPointer { receipts in
            for index in receipts.indices {
                guard let url = CookieURL(receipts[index].url) else { continue }
                jar.receive(receipts[index].setCookie, from: url)
            }
        }
    }

    /// The `Cookie` header of a request to each query, written into one buffer emptied before each; how
    /// many had one and their total length.
    static func lookUp(_ queries: ArraySlice<String>, in jar: CookieJar) -> (hits: Int, bytes: Int) {
        var header: [UInt8] = []
        return countHeaders(of: queries) { url in
            header.removeAll(keepingCapacity: true)
            return jar.appendCookieHeader(for: url, to: &header) ? header.count : nil
        }
    }

    /// `lookUp(_:in:)` through `cookieHeader(for:)`: a String per header.
    static func lookUpStrings(_ queries: ArraySlice<String>, in jar: CookieJar) -> (hits: Int, bytes: Int) {
        countHeaders(of: queries) { jar.cookieHeader(for: $0)?.utf8.count }
    }

    /// How many queries `headerLength` gives a header for (the length of a request's `Cookie` header, nil
    /// when it has none), and their total length. The queries are read in place, as the receipts are.
    @inline(__always)
    static func countHeaders(of queries: ArraySlice<String>, _ headerLength: (CookieURL) -> Int?) -> (hits: Int, bytes: Int) {
        queries.withUnsafeBufferPointer { queries in
            var hits = 0
            var bytes = 0
            for index in queries.indices {
                guard let url = CookieURL(queries[index]), let length = headerLength(url) else { continue }
                hits += 1
                bytes += length
            }
            return (hits, bytes)
        }
    }

    static var compilerVersion: String {
        #if compiler(>=6.3)
        "Swift 6.3+"
        #else
        "Swift < 6.3"
        #endif
    }
}
