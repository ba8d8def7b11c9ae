/// Why a jar file could not be opened, read or written: a stable `code`, the file, and a one-line
/// detail (SQLite's message where SQLite failed). Never contains a cookie value.
public struct CookieFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. A struct over a private enum, so that new codes do not break callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String {
            case notADatabase, corrupt, foreign, newerSchema, readOnly, full, busy, io
        }
        private let base: Base

        /// The file is not an SQLite database (or is too short to be one).
        public static let notADatabase = Code(base: .notADatabase)
        /// The file is an SQLite database whose pages or rows are damaged.
        public static let corrupt = Code(base: .corrupt)
        /// The file is an SQLite database, but not a cookie jar (another application's file).
        public static let foreign = Code(base: .foreign)
        /// The file was written by a newer version of this library, with a schema this one does not know.
        public static let newerSchema = Code(base: .newerSchema)
        /// The file or its directory cannot be written.
        public static let readOnly = Code(base: .readOnly)
        /// The disk (or the file's size limit) is full.
        public static let full = Code(base: .full)
        /// Another connection held the file's lock for longer than the busy timeout.
        public static let busy = Code(base: .busy)
        /// Any other failure to open, read or write the file.
        public static let io = Code(base: .io)

        public var description: String { base.rawValue }
    }

    public let code: Code
    /// The jar file's path.
    public let path: String
    /// One line saying what happened.
    public let detail: String

    public init(_ code: Code, path: String, detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    /// `<path>: <detail>`.
    public var description: String { "\(path): \(detail)" }
}

extension CookieFileError {
    /// The error for a failed SQLite call on the file at `path`, classified by SQLite's result code.
    init(_ error: SQLiteError, path: String, doing action: String) {
        let code: Code =
            if error.isNotADatabase { .notADatabase }
            else if error.isCorrupt { .corrupt }
            else if error.isFull { .full }
            else if error.isReadOnly { .readOnly }
            else if error.isBusy { .busy }
            else { .io }
        self.init(code, path: path, detail: "\(action): \(error.message) (SQLite code \(error.code))")
    }
}
