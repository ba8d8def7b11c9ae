/// Why a cookie file could not be read or written, and where.
///
/// One struct for every format: a stable `code` to branch on, the position (line for the text formats,
/// byte offset for the binary one; JSON gives both) and a one-line reason. The reason names fields and
/// positions, never a cookie's name or value.
public struct CookieFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The file could not be opened or read (missing, a directory, no permission, too large).
        case unreadable
        /// The content is none of the formats of `CookieFileFormat`.
        case unknownFormat
        /// The content is a format read elsewhere (an SQLite database).
        case unsupportedFormat
        /// Text that is not well-formed UTF-8.
        case invalidUTF8
        /// cookies.txt: a line without the 7 TAB-separated fields.
        case fieldCount
        /// cookies.txt: an include-subdomains or secure field that is neither TRUE nor FALSE.
        case invalidFlag
        /// An expiry, creation or last-access time that cannot be read.
        case invalidTime
        /// A domain that is no valid host.
        case invalidDomain
        /// A path that does not start with "/" or holds a control character or ";".
        case invalidPath
        /// A name or value no `Set-Cookie` could have produced (control characters, ";", "=" in the
        /// name, or both empty).
        case invalidCookie
        /// JSON that does not follow RFC 8259.
        case jsonSyntax
        /// JSON that is not a swift-cookiejar document (no or another "format" member).
        case notCookieJSON
        /// A swift-cookiejar JSON document of a version this library does not read.
        case unsupportedVersion
        /// A required JSON member is absent.
        case missingMember
        /// A JSON member has the wrong type or an impossible value.
        case invalidMember
        /// binarycookies: a magic number, page tag or footer that is not the expected one.
        case badSignature
        /// binarycookies: the file ends inside a structure.
        case truncated
        /// binarycookies: a size or offset that points outside its page or cookie.
        case invalidOffset
        /// binarycookies: the checksum does not match the pages.
        case checksumMismatch
        /// Export: a cookie the format cannot hold (e.g. a TAB in a cookies.txt field).
        case unrepresentable
    }

    public var code: Code
    /// The file's path as the caller gave it; nil for bytes parsed in memory.
    public var file: String?
    /// The 1-based line, for text formats.
    public var line: Int?
    /// The 0-based byte offset from the start of the input.
    public var offset: Int?
    /// What is wrong, in one line; never contains a cookie's name or value.
    public var reason: String

    public init(code: Code, file: String? = nil, line: Int? = nil, offset: Int? = nil, reason: String) {
        self.code = code
        self.file = file
        self.line = line
        self.offset = offset
        self.reason = reason
    }

    /// `FILE:LINE: reason`, `FILE at byte N: reason` or `FILE: reason`; `<input>` for bytes in memory.
    public var description: String {
        var text = file ?? "<input>"
        if let line { text += ":\(line)" }
        if let offset { text += line == nil ? " at byte \(offset)" : " (byte \(offset))" }
        return text + ": " + reason
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
        error.file = path
        return error
    }
}
