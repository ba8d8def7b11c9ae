import Foundation
import TestSupport
import Testing

@testable import Cookies

/// A jar file's texts are shown, never obeyed: a row whose value holds an ESC sequence (a jar file's rows
/// are held to the length limits only, so it loads) and whose name holds a C1 control (U+009B, a CSI to
/// some terminals) reaches the terminal as escapes, in the table with and without --show-values and in
/// `inspect --url`'s report. So do a server's Set-Cookie lines in `explain` and a scenario file's texts
/// in `replay` (the README: control characters are shown as escapes, never sent to the terminal).
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
        #expect(run.stderr.hasPrefix("Error: --url: its host \"\\u{1B}[31mx\" is no host name (§5.1.2): http://\\u{1B}[31mx\n"), "\(run.stderr)")
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

    /// A jar whose `csrf` cookie holds a CSI (U+009B, which §5.6 step 1 lets a server set: it refuses only
    /// %x00-08 / %x0A-1F / %x7F) and RIGHT-TO-LEFT OVERRIDE (U+202E) in its value and name.
    func jarWithTerminalControls() throws -> String {
        try Tool.sampleJar(at: directory.file("jar.sqlite"), changedBy: [
            "UPDATE cookies SET value = 'x' || char(155) || '31m' || char(8238) || 'DER', name = 'n' || char(8238) || 'x' WHERE name = 'csrf'",
        ])
    }

    /// Whether `text` holds a C1 control or a bidirectional formatting character, raw.
    static func holdsRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            (0x7F...0x9F).contains($0.value) || [0x061C, 0x200E, 0x200F].contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }
    }

    /// JSON written by the tool (`inspect --json`, `export --format json` to standard output, to a terminal
    /// or not) carries them as `\uXXXX` escapes, never raw (the README: shown as escapes, never sent to
    /// the terminal); the JSON is valid, and imported back gives the same cookies (RFC 8259 §7: any
    /// character may be escaped).
    @Test func jsonOutputEscapesWhatATerminalWouldObey() throws {
        let jar = try jarWithTerminalControls()
        let runs = [
            try Tool.run(["inspect", jar, "--json", "--at", InspectTests.at]),
            try Tool.run(["export", jar, "--format", "json", "--at", InspectTests.at]),
            try Tool.runOnATerminal(["inspect", jar, "--json", "--at", InspectTests.at]),
            try Tool.runOnATerminal(["export", jar, "--format", "json", "--at", InspectTests.at]),
        ]
        for (index, run) in runs.enumerated() {
            #expect(run.status == 0, "run \(index): \(run.stderr)")
            #expect(!Self.holdsRawControls(run.stdout), "run \(index): \(run.stdout.debugDescription)")
            #expect(run.stdout.contains(#""name": "n\u202ex""#) && run.stdout.contains(#""value": "x\u009b31m\u202eDER""#), "run \(index)")
        }
        let exported = directory.file("exported.json")
        try runs[1].stdout.write(toFile: exported, atomically: true, encoding: .utf8)
        let copy = directory.file("copy.sqlite")
        let imported = try Tool.run(["import", exported, "--into", copy, "--keep-session-cookies", "--at", InspectTests.at])
        #expect(imported.status == 0, "\(imported.stderr)")
        let now = CookieTime(secondsSinceEpoch: try #require(Int64(InspectTests.at)))
        let original = try CookieImportFile.read(path: jar, now: now).cookies.unexpired(at: now)
        let readBack = try CookieImportFile.read(path: copy, now: now).cookies
        #expect(Set(readBack.map { [$0.name, $0.value, $0.domain, $0.path] }) == Set(original.map { [$0.name, $0.value, $0.domain, $0.path] }))
        #expect(readBack.contains { $0.value == "x\u{9B}31m\u{202E}DER" })
    }

    /// cookies.txt has no escapes: to a terminal, an export of a cookie holding such characters is refused
    /// (exit 1, nothing written to it, stderr naming what to do instead), also through an `--output` that
    /// names the terminal (`/dev/stdout` while standard output is one); to a pipe or a file it is written
    /// as it is, a file curl and the library load.
    @Test(arguments: [[], ["--output", "/dev/stdout"]])
    func cookiesTxtHoldingWhatATerminalWouldObeyIsNotWrittenToOne(output: [String]) throws {
        let jar = try jarWithTerminalControls()
        let onTerminal = try Tool.runOnATerminal(["export", jar, "--format", "cookies.txt", "--at", InspectTests.at] + output)
        #expect(onTerminal.status == 1)
        #expect(onTerminal.stdout.isEmpty, "\(onTerminal.stdout.debugDescription)")
        #expect(onTerminal.stderr == """
            cookiejar: 1 cookie holds control or bidirectional formatting characters, which cookies.txt cannot escape: not written to the terminal (write it with --output FILE or a redirection, or show it with --format json, which escapes them)

            """, "\(onTerminal.stderr)")
        let piped = try Tool.run(["export", jar, "--format", "cookies.txt", "--at", InspectTests.at])
        #expect(piped.status == 0)
        #expect(piped.stdout.contains("\tn\u{202E}x\tx\u{9B}31m\u{202E}DER\n"))
        // Without such a cookie, a terminal gets cookies.txt as before.
        let plain = try Tool.runOnATerminal(["export", Tool.packageRoot.appendingPathComponent("Tests/Samples/app-jar.sqlite").path, "--format", "cookies.txt", "--at", InspectTests.at])
        #expect(plain.status == 0 && plain.stdout.hasPrefix("# Netscape HTTP Cookie File"), "\(plain.stderr)")
    }

    /// The bidirectional formatting characters (Unicode Standard Annex #9; CVE-2021-42574, "Trojan Source")
    /// reorder the rest of a line: a cookie named with RIGHT-TO-LEFT OVERRIDE would show its row's cells
    /// reversed. Each is shown as an escape; other characters of the same UTF-8 lead bytes ("é" at U+00E9
    /// is 0xC3, "…" U+2026 is 0xE2 0x80 0xA6, "ؠ" U+0620 is 0xD8 0xA0) are not.
    @Test(arguments: [
        ("n\u{202E}abc", "n\\u{202E}abc"), ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"), ("a\u{200F}b\u{200E}", "a\\u{200F}b\\u{200E}"),
        ("\u{061C}ab", "\\u{061C}ab"), ("\u{202A}\u{202B}\u{202C}\u{202D}", "\\u{202A}\\u{202B}\\u{202C}\\u{202D}"),
        ("caf\u{E9}\u{2026}\u{0620}\u{2029}", "caf\u{E9}\u{2026}\u{0620}\u{2029}"),
    ])
    func bidirectionalFormattingIsShownAsEscapes(name: String, shown: String) throws {
        let jar = try Tool.sampleJar(at: directory.file("jar.sqlite"), changedBy: [
            "UPDATE cookies SET name = '\(name)' WHERE name = 'csrf'",
        ])
        let run = try Tool.run(["inspect", jar, "--at", InspectTests.at])
        #expect(run.status == 0)
        #expect(run.stdout.contains("  " + shown + " "), "\(run.stdout)")
        #expect(!run.stdout.unicodeScalars.contains { [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2069].contains($0.value) })
    }

    /// `explain` shows a line's control characters as escapes wherever it quotes the line: a C1 control
    /// (U+009B) is no CTL (§5.6 step 1 refuses only %x00-08 / %x0A-1F / %x7F), so a cookie holding it is
    /// stored, and its value, path and attribute names are printed; a line with an ESC is ignored, and
    /// printed too.
    static let explainedLines: [(arguments: [String], stdin: String?, shown: [String], source: String)] = [
        ([], "Set-Cookie: a=x\u{9B}31mRED; Path=/\u{9B}2J\n",
         ["Set-Cookie: a=x\\u{9B}31mRED; Path=/\\u{9B}2J", "value \"x\\u{9B}31mRED\"", "Path=/\\u{9B}2J", ", path /\\u{9B}2J,", "contains U+009B"],
         "a response's Set-Cookie field, its value and path with a CSI"),
        (["a=b; X\u{9B}y=1"], nil, ["the attribute \"X\\u{9B}y\""], "an unknown attribute's name with a CSI, in a warning"),
        (["a=\u{1B}[31mRED"], nil, ["Set-Cookie: a=\\u{1B}[31mRED\n  ignored"], "a line with an ESC, ignored (§5.6 step 1)"),
    ]

    @Test(arguments: explainedLines.indices)
    func controlCharactersOfASetCookieLineAreShownAsEscapes(_ index: Int) throws {
        let row = Self.explainedLines[index]
        let run = try Tool.run(["explain", "--url", "https://ex.com/", "--at", ExplainTests.at] + row.arguments, stdin: row.stdin)
        #expect(!run.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }, "\(row.source): \(run.stdout.debugDescription)")
        for shown in row.shown { #expect(run.stdout.contains(shown), "\(row.source): \(shown) in \(run.stdout)") }
    }

    /// `replay` shows a scenario file's texts (case ids, skip reasons, expected values), a ratchet's
    /// reasons and the Cookie headers of a server's cookies (a U+009B in a value is no CTL, §5.6 step 1:
    /// stored and sent) with their control characters as escapes, with and without --check.
    @Test func controlCharactersOfAScenarioAreShownAsEscapes() throws {
        let scenario = directory.file("scenario.json")
        try #"""
            {"cases": [
              {"id": "evil\u001b]0;pwned\u0007", "steps": [
                {"receive": {"url": "http://h.test/", "set_cookie": ["a=\u009b2J"]}, "at": 0},
                {"request": {"url": "http://h.test/"}, "expect": "a=\u001b[2J", "at": 1}]},
              {"id": "known\u001b[2J", "steps": [{"request": {"url": "http://h.test/"}, "expect": "x", "at": 1}]},
              {"id": "passes\u009b2J", "steps": [{"request": {"url": "http://h.test/"}, "expect": "", "at": 1}]},
              {"id": "skipped\u001b[2J", "skip": "kept\u0007", "steps": []}
            ]}
            """#.write(toFile: scenario, atomically: true, encoding: .utf8)
        let known = directory.file("known.txt")
        try "known\u{1B}[2J  not yet: \u{9B}2J\npasses\u{9B}2J  not yet: passes\n".write(toFile: known, atomically: true, encoding: .utf8)
        let headers = try Tool.run(["replay", scenario])
        #expect(headers.stdout == "evil\\u{1B}]0;pwned\\u{07} #1: a=\\u{9B}2J\nknown\\u{1B}[2J #0: \npasses\\u{9B}2J #0: \n")
        let checked = try Tool.run(["replay", "--check", "--verbose", "--known-failures", known, scenario])
        #expect(checked.stdout == """
            FAIL evil\\u{1B}]0;pwned\\u{07}: step 1: GET http://h.test/: expected "a=\\u{1B}[2J", got "a=\\u{9B}2J"
            KNOWN known\\u{1B}[2J: not yet: \\u{9B}2J
            PASS passes\\u{9B}2J
            SKIP skipped\\u{1B}[2J: kept\\u{07}
            PASSES NOW passes\\u{9B}2J: remove it from the known failures
            1 passed, 1 failed, 1 skipped, 1 known

            """)
    }
}
