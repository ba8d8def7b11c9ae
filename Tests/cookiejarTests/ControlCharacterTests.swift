import Foundation
import TestSupport
import Testing

@testable import Cookies

/// A jar file's texts are shown, never obeyed: a row whose value holds an ESC sequence (a jar file's rows
/// are held to the length limits only, so it loads) and whose name holds a C1 control (U+009B, a CSI to
/// some terminals) reaches the terminal as escapes, in the table with and without --show-values and in
/// `inspect --url`'s report.
struct ControlCharacterTests {
    let directory = TemporaryDirectory()

    /// Error messages quote what they are given (a file's name here): an ESC sequence in it reaches the
    /// terminal as escapes too.
    @Test func controlCharactersOfAnErrorMessageAreShownAsEscapes() throws {
        let run = try Tool.run(["inspect", "missing\u{1B}]0;title\u{07}.sqlite"])
        #expect(run.status == 3)
        #expect(run.stderr.hasPrefix("cookiejar: missing\\u{1B}]0;title\\u{07}.sqlite: "), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"))
    }

    /// So do usage errors, which quote an option's value: exit 2, the ESC shown.
    @Test func controlCharactersOfAUsageErrorAreShownAsEscapes() throws {
        let run = try Tool.run(["inspect", "Tests/Samples/app-jar.sqlite", "--url", "http://\u{1B}[31mx"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: --url: not an absolute http(s) URL: http://\\u{1B}[31mx\n"), "\(run.stderr)")
        #expect(!run.stderr.contains("\u{1B}"))
    }

    @Test func controlCharactersOfAJarFileAreShownAsEscapes() throws {
        let jar = try Tool.sampleJar(at: directory.file("jar.sqlite"), changedBy: [
            "UPDATE cookies SET value = char(27) || '[31mRED', name = 'n' || char(155) || 'x' WHERE name = 'csrf'",
        ])
        let runs = [
            try Tool.run(["inspect", jar, "--at", InspectTests.at]),
            try Tool.run(["inspect", jar, "--show-values", "--at", InspectTests.at]),
            try Tool.run(["inspect", jar, "--url", "https://www.example.com/", "--show-values", "--at", InspectTests.at]),
        ]
        for run in runs {
            #expect(run.status == 0)
            #expect(!run.stdout.utf8.contains(0x1B) && !run.stdout.unicodeScalars.contains("\u{9B}"), "no control reaches the terminal")
            #expect(run.stdout.contains("n\\u{9B}x"), "the name, escaped")
        }
        #expect(runs[0].stdout.contains("\\u{1B}[…(8)"), "the masked value's first two characters, escaped")
        #expect(runs[1].stdout.contains("\\u{1B}[31mRED"), "the value, escaped")
        // A jar refuses the cookie (§5.6 step 1: no line could carry it): named with that reason.
        #expect(runs[2].stdout.contains("n\\u{9B}x     www.example.com  /          refused by a jar: control-character"))
    }
}
