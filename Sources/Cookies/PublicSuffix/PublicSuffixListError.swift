/// Why a public suffix list file could not be loaded.
public struct PublicSuffixListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public enum Code: String, Sendable, Equatable {
        /// The file could not be opened or read (missing, unreadable, a directory, or not a list libpsl can parse).
        case unreadable
        /// The file was read but holds no rules (empty, or only comments and blank lines).
        case empty
    }

    /// Why the file could not be loaded.
    public let code: Code
    /// The path of the file, as given by the caller.
    public let path: String

    /// The error `code` for the file at `path`.
    public init(code: Code, path: String) {
        self.code = code
        self.path = path
    }

    public var description: String {
        switch code {
        case .unreadable: "cannot read public suffix list file '\(path)'"
        case .empty: "public suffix list file '\(path)' contains no rules"
        }
    }
}
