import Foundation

/// Output styling: ANSI colour only when standard output is a terminal and `NO_COLOR` is not set
/// (https://no-color.org).
struct Terminal {
    /// Whether the output is a terminal (`isatty`).
    let isTerminal: Bool
    let colors: Bool

    static let standardOutput = Terminal(isTerminal: isatty(STDOUT_FILENO) == 1)

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
        colors = isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    func bold(_ text: String) -> String { styled(text, "1") }
    func dim(_ text: String) -> String { styled(text, "2") }
    func red(_ text: String) -> String { styled(text, "31") }
    func green(_ text: String) -> String { styled(text, "32") }
    func yellow(_ text: String) -> String { styled(text, "33") }

    private func styled(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
