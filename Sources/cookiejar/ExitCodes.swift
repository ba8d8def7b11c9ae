import ArgumentParser

/// The tool's exit codes: 0 all well, 1 checks failed, 2 usage (ArgumentParser's own), 3 unreadable input,
/// 4 an output file that cannot be written.
enum ToolExit {
    static let checksFailed = ExitCode(1)
    static let unreadableInput = ExitCode(3)
    static let unwritableOutput = ExitCode(4)
}

/// An input the tool cannot read: reported as one line on stderr, exit code 3.
struct InputError: Error, CustomStringConvertible {
    var description: String
}
