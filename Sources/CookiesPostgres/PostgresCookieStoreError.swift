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

        /// The server cannot be reached, or the connection was lost: a failure of the network or the
        /// connection, or the server going away (SQLSTATE class 08; 57P0x: shut down, crashed, starting up,
        /// the database dropped, the session timed out). The changes stay pending, and the next call
        /// reconnects.
        public static let unreachable = Code(base: .unreachable)
        /// The database holds a jar schema of a newer version than this library writes.
        public static let newerSchema = Code(base: .newerSchema)
        /// The store's tables exist but are not a cookie jar schema this library made.
        public static let foreign = Code(base: .foreign)
        /// The server refused a statement or a connection for a reason neither of the network nor of the
        /// configuration (a timeout, too many connections, a constraint; `sqlState`). The changes stay
        /// pending.
        public static let server = Code(base: .server)
        /// The jars were shut down.
        public static let closed = Code(base: .closed)
        /// A setting of `PostgresCookieJars.Configuration` is not usable: refused before connecting, or by
        /// the server, which turned the connection down for its credentials (SQLSTATE class 28: a wrong
        /// password, an unknown role, a client `pg_hba.conf` does not admit; or an authentication method
        /// that needs a password none was given for, or that PostgresNIO does not support), its database
        /// (3D000: it does not exist), or its TLS (the server has none). Trying again does not help until
        /// the configuration, or the server's, changes; the changes stay pending meanwhile.
        public static let invalidConfiguration = Code(base: .invalidConfiguration)

        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// What the store was doing, e.g. "cannot write jar user-17".
    public var action: String
    /// The cause: PostgreSQL's SQLSTATE and message, or the connection's failure.
    public var detail: String
    /// PostgreSQL's SQLSTATE when the server reported the failure (e.g. "3D000", "28P01", "55P03"; see
    /// https://www.postgresql.org/docs/current/errcodes-appendix.html), nil when it did not.
    public var sqlState: String?

    public init(_ code: Code, action: String, detail: String, sqlState: String? = nil) {
        self.code = code
        self.action = action
        self.detail = detail
        self.sqlState = sqlState
    }

    /// `error` (a PostgresNIO failure) while doing `action`.
    init(_ error: any Error, action: String) {
        if let error = error as? PostgresCookieStoreError {
            self = PostgresCookieStoreError(error.code, action: action, detail: error.detail, sqlState: error.sqlState)
        } else if let error = error as? PSQLError, let info = error.serverInfo {
            let state = info[.sqlState] ?? "?"
            self.init(Self.code(ofSQLState: state), action: action, detail: "SQLSTATE \(state): \(info[.message] ?? "")", sqlState: info[.sqlState])
        } else if let error = error as? PSQLError {
            let cause = error.underlying.map { ": \($0)" } ?? ""
            // Refused by the client for the configuration: the server asks for a password none was given
            // for, or for an authentication method (or TLS) PostgresNIO cannot use; anything else is the
            // connection's failure.
            let isConfiguration = [.authMechanismRequiresPassword, .unsupportedAuthMechanism, .saslError, .sslUnsupported].contains(error.code)
            self.init(isConfiguration ? .invalidConfiguration : .unreachable, action: action, detail: "\(error.code)\(cause)")
        } else {
            self.init(.unreachable, action: action, detail: "\(error)")
        }
    }

    /// The code of a failure the server reported with SQLSTATE `state`
    /// (https://www.postgresql.org/docs/current/errcodes-appendix.html): the server going away (class 08,
    /// connection exception; 57P01–57P05: admin or crash shutdown, cannot connect now, database dropped,
    /// idle session timeout) is an outage like a lost connection; a refusal of the connection's credentials (class 28,
    /// invalid authorization specification) or database (3D000, invalid catalog name) is the
    /// configuration's; anything else, the server's.
    private static func code(ofSQLState state: String) -> Code {
        if state.hasPrefix("08") || state.hasPrefix("57P0") { return .unreachable }
        if state.hasPrefix("28") || state == "3D000" { return .invalidConfiguration }
        return .server
    }

    public var description: String { "\(action): \(detail) (\(code))" }
}
#endif
