import Cookies
import Foundation
import TestSupport
import Testing

/// The code of the article "Importing and exporting cookie files"
/// (Sources/Cookies/Cookies.docc/ImportingAndExporting.md), compiled and run (DocumentationCodeTests
/// checks that every block of the article is here, in order).
struct ImportingAndExportingExamples {
    let directory = TemporaryDirectory()

    @Test func readInsertAndWrite() throws {
        let path = directory.file("cookies.txt")
        // A day ahead: an import caps an expiry more than 400 days ahead (§5.5), which would change the line.
        let expiry = Int64(Date().timeIntervalSince1970) + 86_400
        let line = "#HttpOnly_.example.com\tTRUE\t/\tTRUE\t\(expiry)\tsid\t7f3c9a"
        let lines = ["# Netscape HTTP Cookie File", line, "bad line"]
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let jar = CookieJar()

        let contents = try CookieImportFile.read(path: path, now: jar.clock.now(), lenient: true)
        for skipped in contents.skipped { print(skipped) }      // the line and the reason, never a value
        let report = jar.insert(contentsOf: contents.cookies)
        for eviction in report.evictions {                      // what the jar's limits evicted, by site
            print("\(eviction.count) of \(eviction.site) evicted by the \(eviction.limit) limit")
        }
        #expect(contents.format == .cookiesTxt && contents.skipped.count == 1)
        #expect(report == CookieInsertionReport(stored: 1, expired: 0, evictions: []))

        let json = CookieJSON.serialize(jar.allCookies())      // lossless: SameSite, partition, times
        let (text, leftOut) = try CookiesTxt.serialize(jar.allCookies())  // for curl and wget: no partitions
        #expect(try CookieJSON.parse(Array(json.utf8)).cookies == jar.allCookies())
        #expect(text.contains(line) && leftOut.isEmpty)
    }
}
