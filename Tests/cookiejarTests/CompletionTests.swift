import Foundation
import Testing

/// The bash completion script the README tells how to install (argument-parser's
/// `--generate-completion-script`): sourced into bash, it registers a completion for `cookiejar` that
/// completes subcommands and option values. (zsh and fish scripts come from the same generator; the
/// README's steps for them were tried by hand: `cookiejar ins<TAB>` gives `cookiejar inspect`.)
struct CompletionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var words: [String]
        var expected: [String]
        var testDescription: String { words.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(words: ["cookiejar", "ins"], expected: ["inspect"]),
        Case(words: ["cookiejar", "e"], expected: ["explain", "export"]),
        Case(words: ["cookiejar", "export", "jar.sqlite", "--format", ""], expected: ["cookies.txt", "json"]),
    ]

    @Test(arguments: cases)
    func bashCompletes(_ row: Case) throws {
        let script = try Tool.run(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        // The words as bash hands them to a completion function: COMP_WORDS, COMP_CWORD (the last word),
        // and the function's arguments (command, word being completed, word before it).
        let words = row.words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source /dev/stdin
            complete -p cookiejar >/dev/null || exit 2
            function=$(complete -p cookiejar | sed -E 's/.* -F ([^ ]+) .*/\\1/')
            COMP_WORDS=(\(words)); COMP_CWORD=\(row.words.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            "$function" cookiejar "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", program]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Tool.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        bash.environment = environment
        let input = Pipe()
        let output = Pipe()
        bash.standardInput = input
        bash.standardOutput = output
        try bash.run()
        try input.fileHandleForWriting.write(contentsOf: Data(script.stdout.utf8))
        try input.fileHandleForWriting.close()
        let replies = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0)
        #expect(replies.split(separator: "\n").map(String.init).sorted() == row.expected)
    }
}
