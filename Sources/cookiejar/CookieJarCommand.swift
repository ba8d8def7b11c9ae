import ArgumentParser
import Foundation

@main
struct CookieJarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cookiejar",
        abstract: "Inspect, explain and replay HTTP cookies (RFC 6265bis).",
        discussion: "Exit status: 0 all well, 1 checks failed, 2 usage error, 3 unreadable input, 4 unwritable output.",
        subcommands: [Inspect.self, Explain.self, Replay.self, Import.self, Export.self, PSL.self]
    )

    /// Runs the command line; usage errors exit with 2 (ArgumentParser's own code would be 64), an
    /// argument that is not UTF-8 among them (`ArgumentBytes`), and a command whose output was lost with 4
    /// (`StandardOutput.finish()`), help and completion scripts included (ArgumentParser prints those
    /// without looking at the write).
    static func main() {
        // A reader that closed its pipe (`cookiejar inspect big.txt | head -1`) makes the next write fail
        // with EPIPE, which `StandardOutput` records and `finish()` turns into exit 4 without a word,
        // rather than SIGPIPE killing the process (exit status 141, which no help text names).
        signal(SIGPIPE, SIG_IGN)
        if let message = ArgumentBytes.firstNonUTF8Argument() {
            printError(message)
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
            StandardOutput.finish()
        } catch {
            // Printed here rather than by ArgumentParser, which writes the user's text (an option's value)
            // as it is and the help without looking at the write.
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                StandardOutput.print(message)
                StandardOutput.finish()
                Foundation.exit(0)
            }
            if !message.isEmpty { printUsageError(message) }
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}
