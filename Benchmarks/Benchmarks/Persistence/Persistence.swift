import Benchmark
import BenchmarkWorkload
import Cookies
import Foundation

/// Reading cookie files, as `cookiejar inspect` and `import` do: one iteration reads 10,000 cookies from
/// a cookies.txt file, a swift-cookiejar JSON file or an SQLite jar; loading that SQLite jar as a jar
/// (`CookieJar(contentsOf:)`), and a 50,000-cookie one; writing one changed cookie to an open jar file
/// (`setCookie` + `flush()`); exporting 10,000 cookies as JSON and as cookies.txt. Allocation counts
/// guard the per-cookie costs (a String per field, none per JSON member name; one buffer for the file;
/// when loading, a String only for a name or value too long to be stored inline, and for each domain
/// and path new to its site). Writing the JSON document (`inspect --json`, `export`) allocates a fixed
/// number of buffers, whatever the number of cookies: the cookies' order and the document.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Tolerances.configuration

    // About 10,000 cookies over 1,000 sites, from the workload's receipts, at a fixed instant.
    let now = CookieTime(secondsSinceEpoch: Int64(1_790_000_000))
    // The jar-wide limit raised above the cookies of every file here (the per-site one stays on).
    let limits = CookieLimits(maxCookies: 1_000_000)
    let jar = CookieJar(limits: limits, clock: ManualCookieClock(now))
    for receipt in Workload(siteCount: 1000, seed: 6265).receipts(count: 12_000, seed: 5) {
        jar.setCookie(receipt.setCookie, from: CookieURL(receipt.url)!)
    }
    let cookies = jar.allCookies()
    precondition((9_000...11_000).contains(cookies.count), "the files should hold about 10,000 cookies")

    let cookiesTxt = Array(try! CookiesTxt.serialize(cookies).text.utf8)
    Benchmark("Read-cookies.txt-10k-cookies") { _ in
        blackHole(try CookiesTxt.parse(cookiesTxt, now: now))
    }

    let json = Array(CookieJSON.serialize(cookies).utf8)
    Benchmark("Read-JSON-10k-cookies") { _ in
        blackHole(try CookieJSON.parse(json))
    }

    Benchmark("Write-JSON-10k-cookies") { _ in
        blackHole(CookieJSON.serializedBytes(cookies))
    }

    Benchmark("Write-cookies.txt-10k-cookies") { _ in
        blackHole(try CookiesTxt.serialize(cookies))
    }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cookiejar-benchmark-\(UUID().uuidString)")
    let path = directory.appendingPathComponent("jar.sqlite").path
    let options = {
        var options = CookieJarFileOptions()
        options.flushDelay = nil
        options.persistsSessionCookies = true
        return options
    }()
    let writeJar = { (cookies: [Cookie]) in
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = try CookieJar(contentsOf: path, options: options, limits: limits, clock: ManualCookieClock(now))
        file.insert(contentsOf: cookies)
        try file.close()
    }
    Benchmark("Read-SQLite-jar-10k-cookies") { _ in
        blackHole(try CookieImportFile.read(path: path, now: now))
    } setup: {
        try writeJar(cookies)
    } teardown: {
        try FileManager.default.removeItem(at: directory)
    }

    // Opening the jar file as a jar: its rows go straight into the sites (no `Cookie` per row); nothing
    // has expired and the jar-wide limit is raised above the file's cookies, so nothing is written. The
    // jar opens a second after the cookies were made (each made a microsecond after the last, from
    // `now` on): at `now` they would all count as used since the open, and `close()` would write their
    // last-access times.
    let opening = ManualCookieClock(now.adding(seconds: 1))
    Benchmark("Load-SQLite-jar-10k-cookies") { _ in
        let jar = try CookieJar(contentsOf: path, options: options, limits: limits, clock: opening)
        blackHole(jar.count)
        try jar.close()
    } setup: {
        try writeJar(cookies)
    } teardown: {
        try FileManager.default.removeItem(at: directory)
    }

    // About 50,000 cookies (66,000 receipts over 1,000 sites, as the lookup jar of the Jar suite), made
    // by the setup of the benchmarks that use them.
    let largeCookies = {
        let jar = CookieJar(limits: limits, clock: ManualCookieClock(now))
        for receipt in Workload(siteCount: 1000, seed: 6265).receipts(count: 66_000, seed: 2) {
            jar.setCookie(receipt.setCookie, from: CookieURL(receipt.url)!)
        }
        let cookies = jar.allCookies()
        precondition((48_000...52_000).contains(cookies.count), "the large jar should hold about 50,000 cookies")
        return cookies
    }
    var fewIterations = Tolerances.configuration
    fewIterations.maxIterations = 20
    Benchmark("Load-SQLite-jar-50k-cookies", configuration: fewIterations) { _ in
        let jar = try CookieJar(contentsOf: path, options: options, limits: limits, clock: opening)
        blackHole(jar.count)
        try jar.close()
    } setup: {
        try writeJar(largeCookies())
    } teardown: {
        try FileManager.default.removeItem(at: directory)
    }

    // One iteration: a Set-Cookie that replaces one cookie of the open 50,000-cookie jar file, and the
    // flush that writes its row (one upsert in one transaction).
    let url = CookieURL("https://www.example.com/account")!
    nonisolated(unsafe) var open: CookieJar?
    nonisolated(unsafe) var iteration = 0
    Benchmark("Write-one-change-to-50k-cookie-jar") { benchmark in
        for _ in benchmark.scaledIterations {
            iteration += 1
            open!.setCookie("session=\(iteration); Path=/; Max-Age=86400; Secure; HttpOnly", from: url)
            blackHole(try open!.flush())
        }
    } setup: {
        try writeJar(largeCookies())
        open = try CookieJar(contentsOf: path, options: options, limits: limits, clock: ManualCookieClock(now))
    } teardown: {
        try open?.close()
        open = nil
        try FileManager.default.removeItem(at: directory)
    }
}
