import Testing

/// `cookiejar --help` and each subcommand's, run as a sub-process in an 80-column terminal, against
/// golden output: paragraphs wrap as paragraphs, and every example is a whole command a person can
/// copy (long ones continued with a backslash) rather than a line the wrapping cut.
struct HelpTests {
    static let commands: [[String]] = [[], ["inspect"], ["explain"], ["replay"], ["import"], ["export"], ["psl"]]

    @Test(arguments: commands)
    func golden(_ command: [String]) throws {
        let run = try Tool.run(command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(run.status == 0)
        try Tool.expectGolden(run, (["help"] + command).joined(separator: "-"))
        let beforeUsage = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.hasPrefix("USAGE:") }
        for line in beforeUsage {
            #expect(line.count <= 80, "a help line wider than the terminal: \(line)")
        }
        if !command.isEmpty {
            #expect(run.stdout.contains("Examples:\n  cookiejar \(command[0]) "), "the help shows examples")
        }
    }
}
