import ArgumentParser
import Cookies
import Foundation

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run conformance scenario files on fresh jars and print each request's Cookie header.",
        discussion: """
            Each case runs on a fresh jar whose clock is set by each step's "at". Without --check the \
            Cookie header of every request step is printed; with --check each is compared with \
            "expect", every failure is printed with its case id, and the last line counts the cases. \
            A case passes when it checked something and every check passed: a request without \
            "expect", or a case with no request that has one and no "jar_content", fails.

            Examples:
              cookiejar replay scenarios.json
              cookiejar replay --check --psl public_suffix_list.dat suite1.json suite2.json
              cookiejar replay --check \\
                  --known-failures Tests/conformance-known-failures.txt *.json

            Exit status: 0 all well, 1 with --check a case not as expected (or no case run), 2 usage, \
            3 unreadable or malformed scenario or ratchet file, 4 unwritable output.
            """
    )

    @Argument(help: "Scenario files (JSON, the conformance FORMAT.md format, or PSL vectors; '-': standard input).", completion: .file())
    var files: [String]

    @Flag(help: "Compare with the expected values; exit 1 on any unexpected result.")
    var check = false

    @Option(help: "A ratchet file of case ids known to fail, with reasons; they are counted apart.", completion: .file())
    var knownFailures: String?

    @Option(help: "A public_suffix_list.dat to use instead of the default list (see `cookiejar psl --info`).", completion: .file())
    var psl: String?

    @Flag(help: "With --check, also print each passing case.")
    var verbose = false

    func run() throws {
        let list: any PublicSuffixList
        var known = KnownFailures()
        var suites: [(String, ScenarioSuite)] = []
        do {
            list = try publicSuffixList(file: psl)
            if let knownFailures { known = try KnownFailures.load(knownFailures) }
            for file in files { suites.append((file, try ScenarioSuite.load(file))) }
        } catch let error as InputError {
            printError(error.description)
            throw ToolExit.unreadableInput
        }

        let runner = ScenarioRunner(publicSuffixList: list)
        var passed = 0
        var failed = 0
        var knownCount = 0
        var skipped = 0
        var unexpectedPasses: [String] = []
        var seen = Set<String>()
        for (_, suite) in suites {
            for scenario in suite.cases {
                seen.insert(scenario.id)
                if let reason = scenario.skip {
                    skipped += 1
                    if verbose { StandardOutput.printShowingControls("SKIP \(scenario.id): \(reason)") }
                    continue
                }
                var outcome = runner.run(scenario)
                if !check {
                    for (step, header) in outcome.headers { StandardOutput.printShowingControls("\(scenario.id) #\(step): \(header)") }
                    for failure in outcome.failures where !failure.contains("expected") { printError("\(scenario.id): \(failure)") }
                    continue
                }
                outcome.failures += outcome.unchecked.map { "step \($0): a request without \"expect\": nothing to check" }
                if outcome.checks == 0, outcome.unchecked.isEmpty {
                    outcome.failures.append("no request step with \"expect\" and no jar_content step: nothing was checked")
                }
                let isKnown = known.reasons[scenario.id] != nil
                if outcome.passed {
                    passed += 1
                    if isKnown { unexpectedPasses.append(scenario.id) }
                    if verbose { StandardOutput.printShowingControls("PASS \(scenario.id)") }
                } else if isKnown {
                    knownCount += 1
                    if verbose { StandardOutput.printShowingControls("KNOWN \(scenario.id): \(known.reasons[scenario.id]!)") }
                } else {
                    failed += 1
                    for failure in outcome.failures { StandardOutput.printShowingControls("FAIL \(scenario.id): \(failure)") }
                }
            }
        }
        guard check else { return }
        for id in unexpectedPasses { StandardOutput.printShowingControls("PASSES NOW \(id): remove it from the known failures") }
        let stale = known.reasons.keys.filter { !seen.contains($0) }.sorted()
        for id in stale { printError("warning: known failure \(id) is in none of the files replayed") }
        var summary = "\(passed) passed, \(failed) failed"
        if skipped > 0 { summary += ", \(skipped) skipped" }
        if knownFailures != nil { summary += ", \(knownCount) known" }
        StandardOutput.print(summary)
        // A check that ran no case checked nothing: no success.
        let ran = passed + failed + knownCount
        if ran == 0 { printError("no case was checked: the files hold none that is not skipped") }
        if failed > 0 || !unexpectedPasses.isEmpty || ran == 0 { throw ToolExit.checksFailed }
    }

    func validate() throws {
        if !check, knownFailures != nil { throw ValidationError("--known-failures needs --check") }
        if !check, verbose { throw ValidationError("--verbose needs --check") }
        if (files + [knownFailures].compactMap { $0 }).filter({ $0 == InputBytes.standardInputArgument }).count > 1 {
            throw ValidationError("standard input ('-') can be read only once: give it to one scenario file or to --known-failures")
        }
    }
}
