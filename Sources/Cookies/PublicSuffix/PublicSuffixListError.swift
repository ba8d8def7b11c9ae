/// Why a public suffix list file could not be loaded.
public struct PublicSuffixListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public enum Code: String, Sendable, Equatable {
        /// The file could not be opened or read (missing, unreadable, a directory, or not a list libpsl can parse).
        case unreadable
        /// The file was read but holds no rules (empty, or only comments and blank lines).
        case empty
        /// The file was read but is no complete list: a line is neither a rule, a comment nor blank (an
        /// error page or another file saved in its place), or a section it begins does not end (a download
        /// cut short). `reason` says which.
        case notAList
    }

    /// Why the file could not be loaded.
    public let code: Code
    /// The path of the file, as given by the caller.
    public let path: String
    /// Why an `.unreadable` file could not be read, as the system says it ("No such file or directory",
    /// "Is a directory", "Permission denied"; nil when that is not known: libpsl tells no reason), or why a
    /// `.notAList` file is none (its first line that is no rule, or the section that does not end).
    public let reason: String?

    /// The error `code` for the file at `path`, for `reason` when known.
    public init(code: Code, path: String, reason: String? = nil) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch code {
        case .unreadable: "cannot read public suffix list file '\(path)'" + (reason.map { ": " + $0 } ?? "")
        case .empty: "public suffix list file '\(path)' contains no rules"
        case .notAList: "'\(path)' is no complete public suffix list" + (reason.map { ": " + $0 } ?? "")
        }
    }
}
