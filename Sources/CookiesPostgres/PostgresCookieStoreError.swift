#if CookiesPostgres
import PostgresNIO

/// Why the PostgreSQL store could not connect, read or write. It names the server, the jar and what was
/// being done, and PostgreSQL's SQLSTATE and message, never a cookie's value (PostgreSQL's DETAIL field,
/// which can quote a row, is left out).
public struct PostgresCookieStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. A struct over a private enum, so that new codes do not break callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String { case unreachable, newerSchema, foreign, server, closed, invalidConfiguration }
        private let base: Base

        /// The server cannot be reached, or the connection was lost (the changes stay pending).
        public static let unreachable = Code(base: .unreachable)
        /// The database holds a jar schema of a newer version than this library writes.
        public static let newerSchema = Code(base: .newerSchema)
        /// The store's tables exist but are not a cookie jar schema this library made.
        public static let foreign = Code(base: .foreign)
        /// The server refused a statement (SQLSTATE in `detail`).
        public static let server = Code(base: .server)
        /// The jars were shut down.
        public static let closed = Code(base: .closed)
        /// A setting of `PostgresCookieJars.Configuration` is not usable.
        public static let invalidConfiguration = Code(base: .invalidConfiguration)

        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// What the store was doing, e.g. "cannot write jar user-17".
    public var action: String
    /// The cause: PostgreSQL's SQLSTATE and message, or the connection's failure.
    public var detail: String

    public init(_ code: Code, action: String, detail: String) {
        self.code = code
        self.action = action
        self.detail = detail
    }

    /// `error` (a PostgresNIO failure) while doing `action`.
    init(_ error: any Error, action: String) {
        if let error = error as? PostgresCookieStoreError {
            self = PostgresCookieStoreError(error.code, action: action, detail: error.detail)
        } else if let error = error as? PSQLError, let info = error.serverInfo {
            let state = info[.sqlState] ?? "?"
            // The server going away (class 57P0: admin or crash shutdown, a restart; class 08: the
            // connection) is an outage like a lost connection: the changes stay pending and the next flush
            // reconnects.
            let isOutage = state.hasPrefix("57P0") || state.hasPrefix("08")
            self.init(isOutage ? .unreachable : .server, action: action, detail: "SQLSTATE \(state): \(info[.message] ?? "")")
        } else if let error = error as? PSQLError {
            let cause = error.underlying.map { ": \($0)" } ?? ""
            self.init(.unreachable, action: action, detail: "\(error.code)\(cause)")
        } else {
            self.init(.unreachable, action: action, detail: "\(error)")
        }
    }

    public var description: String { "\(action): \(detail) (\(code))" }
}
#endif
