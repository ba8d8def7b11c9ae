#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Why a cookie file could not be opened, read or written, and where: the jar's SQLite file or an
/// interchange file (cookies.txt, JSON, binarycookies).
///
/// One struct for every format: a stable `code` to branch on, the file, the position (line for the text
/// formats, byte offset for the binary one; JSON gives both) and a one-line detail (SQLite's message
/// where SQLite failed). It names fields and positions, never a cookie's value.
public struct CookieFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. A struct over a private enum, so that new codes do not break callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String {
            case notADatabase, corrupt, foreign, newerSchema, readOnly, full, busy, io
            case unknownFormat, unsupportedFormat, invalidUTF8, fieldCount, invalidFlag, invalidTime, invalidDomain
            case invalidPath, invalidCookie, jsonSyntax, notCookieJSON, unsupportedVersion, missingMember
            case invalidMember, badSignature, truncated, invalidOffset, checksumMismatch, unrepresentable
        }
        private let base: Base

        // The jar's SQLite file.

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
        /// Any other failure to open, read or write the file (missing, a directory, no permission, too large).
        public static let io = Code(base: .io)

        // Interchange files (`CookieImportFile`, `CookiesTxt`, `CookieJSON`, `BinaryCookies`).

        /// The content is none of the formats of `CookieFileFormat`.
        public static let unknownFormat = Code(base: .unknownFormat)
        /// The content is a format read elsewhere (an SQLite database).
        public static let unsupportedFormat = Code(base: .unsupportedFormat)
        /// Text that is not well-formed UTF-8.
        public static let invalidUTF8 = Code(base: .invalidUTF8)
        /// cookies.txt: a line without the 7 TAB-separated fields.
        public static let fieldCount = Code(base: .fieldCount)
        /// cookies.txt: an include-subdomains or secure field that is neither TRUE nor FALSE.
        public static let invalidFlag = Code(base: .invalidFlag)
        /// An expiry, creation or last-access time that cannot be read.
        public static let invalidTime = Code(base: .invalidTime)
        /// A domain that is no valid host.
        public static let invalidDomain = Code(base: .invalidDomain)
        /// A path that does not start with "/" or holds a control character.
        public static let invalidPath = Code(base: .invalidPath)
        /// A name or value no `Set-Cookie` could have produced (control characters, ";", "=" in the name,
        /// or both empty).
        public static let invalidCookie = Code(base: .invalidCookie)
        /// JSON that does not follow RFC 8259.
        public static let jsonSyntax = Code(base: .jsonSyntax)
        /// JSON that is not a swift-cookiejar document (no or another "format" member).
        public static let notCookieJSON = Code(base: .notCookieJSON)
        /// A swift-cookiejar JSON document of a version this library does not read.
        public static let unsupportedVersion = Code(base: .unsupportedVersion)
        /// A required JSON member is absent.
        public static let missingMember = Code(base: .missingMember)
        /// A JSON member has the wrong type or an impossible value.
        public static let invalidMember = Code(base: .invalidMember)
        /// binarycookies: a magic number, page tag or footer that is not the expected one.
        public static let badSignature = Code(base: .badSignature)
        /// binarycookies: the file ends inside a structure.
        public static let truncated = Code(base: .truncated)
        /// binarycookies: a size or offset that points outside its page or cookie.
        public static let invalidOffset = Code(base: .invalidOffset)
        /// binarycookies: the checksum does not match the pages.
        public static let checksumMismatch = Code(base: .checksumMismatch)
        /// Export: a cookie the format cannot hold (e.g. a TAB in a cookies.txt field).
        public static let unrepresentable = Code(base: .unrepresentable)

        public var description: String { base.rawValue }
    }

    /// What went wrong, stable across versions (`Code`).
    public private(set) var code: Code
    /// The file's path as the caller gave it; nil for bytes parsed in memory.
    public private(set) var path: String?
    /// The 1-based line, for text formats.
    public private(set) var line: Int?
    /// The 0-based byte offset from the start of the input.
    public private(set) var offset: Int?
    /// One line saying what happened; never contains a cookie's value.
    public private(set) var detail: String

    /// An error of `code` in the file at `path` (nil for bytes in memory), at `line` or byte `offset`
    /// when known; `detail` says what happened and must not contain a cookie's value.
    public init(_ code: Code, path: String? = nil, line: Int? = nil, offset: Int? = nil, detail: String) {
        self.code = code
        self.path = path
        self.line = line
        self.offset = offset
        self.detail = detail
    }

    /// `PATH: detail`, `PATH:LINE: detail`, `PATH:LINE (byte N): detail` or `PATH at byte N: detail`;
    /// `<input>` for bytes in memory.
    public var description: String {
        var text = path ?? "<input>"
        if let line { text += ":\(line)" }
        if let offset { text += line == nil ? " at byte \(offset)" : " (byte \(offset))" }
        return text + ": " + detail
    }

    /// This error at `line` and/or `offset`.
    func at(line: Int? = nil, offset: Int? = nil) -> CookieFileError {
        var error = self
        error.line = line
        error.offset = offset
        return error
    }

    /// This error, attributed to the file at `path`.
    func inFile(_ path: String) -> CookieFileError {
        var error = self
        error.path = path
        return error
    }
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
        let cause =
            if code == .busy { "in use: another connection held its lock beyond the busy timeout; " }
            else if error.isIOErrorOfFullDisk { "no space left on the disk; " }
            else { "" }
        // SQLite's message for a failed system call names no reason ("unable to open database file", "disk
        // I/O error"): the system's is added, as "Too many open files" when the process ran out of
        // descriptors (a full disk is said above).
        let systemReason = error.systemCallErrno.map { error.isIOErrorOfFullDisk ? "" : ": " + String(cString: strerror($0)) } ?? ""
        self.init(code, path: path, detail: "\(action): \(cause)\(error.message)\(systemReason) (SQLite code \(error.code))")
    }
}
