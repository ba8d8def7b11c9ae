import Foundation
import TestSupport
import Testing

@testable import Cookies

/// The tables of `inspect` are aligned in terminal columns, not scalars or bytes.
struct ColumnWidthTests {
    let directory = TemporaryDirectory()

    /// The table's columns line up on a terminal for names that are not one column a scalar: a CJK
    /// name takes two columns a character (East Asian Wide, UAX #11), a name with a combining accent
    /// ("e" + U+0301) one for the two scalars, an emoji two. Each name is followed by the spaces that
    /// take its row to the widest name's width ("abcd", four columns) plus two.
    @Test func wideAndCombiningNamesLineUp() throws {
        let jar = try Tool.sampleJar(at: directory.file("wide.sqlite"), changedBy: [
            "UPDATE cookies SET name = '日本' WHERE name = 'csrf'",
            "UPDATE cookies SET name = 'abcd' WHERE name = 'theme'",
            "UPDATE cookies SET name = 'cafe\u{301}' WHERE name = 'session'",
            "UPDATE cookies SET name = '👍' WHERE name = 'remember_me'",
        ])
        let run = try Tool.run(["inspect", jar, "--site", "example.com", "--at", InspectTests.at])
        #expect(run.status == 0)
        let rows = run.stdout.split(separator: "\n").map(String.init)
        for (name, padding) in [("日本", 2), ("abcd", 2), ("cafe\u{301}", 2), ("👍", 4)] {
            let rest = rows.first { $0.hasPrefix("  " + name + " ") }?.dropFirst(2 + name.count)
            #expect(rest.map { $0.prefix(padding).allSatisfy { $0 == " " } && $0.dropFirst(padding).first != " " } == true,
                "\(name) is followed by \(padding) spaces: \(rest ?? "no row")")
        }
    }
}
