#if CookiesPostgres
import Cookies
import PostgresNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PostgresCookieJars {
    /// Where the jars are and how they behave.
    public struct Configuration: Sendable {
        /// How to connect (PostgresNIO's configuration: host or Unix socket, user, password, database, TLS).
        public var connection: PostgresConnection.Configuration
        /// The server, as errors name it (e.g. "db.internal:5432").
        public var serverName: String
        /// The PostgreSQL schema (namespace) of the tables, created if missing (default "public"):
        /// lower-case letters, digits and _.
        public var schema = "public"
        /// How many connections an instance opens at most (default 4).
        public var connections = 4
        /// The longest the server lets a statement run, a write wait for the lock of a jar's row, or a
        /// transaction sit idle (PostgreSQL's `statement_timeout`, `lock_timeout` and
        /// `idle_in_transaction_session_timeout` of the instance's connections; default 30 s): an instance
        /// that froze or lost its network inside a write holds the jar's row no longer than that, and the
        /// writes of the other instances wait no longer than that for it (then throw `.server`, SQLSTATE
        /// 55P03 or 57014, their changes pending). Also the longest a connection attempt takes; and a call
        /// holds a connection, or waits for one, at most four times it: a server or network that stopped
        /// answering (a failover without a reset) ends the call with `.unreachable`, its changes pending.
        public var timeout = Duration.seconds(30)
        /// How many jars an instance keeps in memory (default 10,000).
        public var maximumOpenJars = 10_000
        /// What the jars keep and when they write (`CookieWriteOptions`). Session cookies are stored
        /// (`persistsSessionCookies`, unlike a SQLite jar's default): a shared jar's session is the
        /// jar's life, not one process's, and a session cookie kept out of the database would be seen by
        /// no other instance, and lost by this one at the jar's next reload (another instance's write,
        /// the jar let go to make room). Set it to false to keep them out all the same.
        public var writeOptions = {
            var options = CookieWriteOptions()
            options.persistsSessionCookies = true
            return options
        }()
        public var publicSuffixList: any PublicSuffixList = SystemPublicSuffixList.shared
        /// The limits of each jar, enforced across instances.
        public var limits = CookieLimits.default
        public var clock: any CookieClock = SystemCookieClock()
        /// The `PGSSLMODE` that `environment(from:)` found asking for TLS ("require", "verify-ca",
        /// "verify-full", or a mode libpq does not know), which it does not set up: `PostgresCookieJars`
        /// refuses to connect while `connection.tls` does not enforce TLS, rather than connect in plain text.
        var tlsModeAskedFor: String?
        /// Why `environment(from:)` could not use a variable (a `PGPORT` that is not a port number, a list of
        /// hosts or ports): `PostgresCookieJars` refuses the configuration (`.invalidConfiguration`) rather
        /// than connect to a server the variables do not name.
        var environmentProblem: String?

        /// The longest `timeout` can be: PostgreSQL takes its timeouts in milliseconds up to 2³¹ − 1
        /// (about 24.8 days).
        public static let longestTimeout = Duration.milliseconds(Int32.max)

        public init(connection: PostgresConnection.Configuration, serverName: String) {
            self.connection = connection
            self.serverName = serverName
        }

        /// The server named by libpq's environment variables of this process (`environment(from:)`).
        public static func environment() -> Configuration {
            var variables: [String: String] = [:]
            for name in ["PGHOST", "PGPORT", "PGUSER", "USER", "PGPASSWORD", "PGDATABASE", "PGSSLMODE"] {
                if let value = getenv(name) { variables[name] = String(cString: value) }
            }
            return environment(from: variables)
        }

        /// The server named by libpq's environment variables in `variables`: `PGHOST` (a host name, or a
        /// directory holding the server's Unix socket when it starts with "/"; default localhost), `PGPORT`
        /// (default 5432), `PGUSER` (default `USER`), `PGPASSWORD` and `PGDATABASE` (default the user).
        /// A `PGPORT` that libpq refuses (not a number from 1 to 65535, spaces around it aside) and a list
        /// of hosts or ports (libpq's comma-separated hosts to try in turn, which the jars do not take) make
        /// `PostgresCookieJars.init` throw `.invalidConfiguration`, rather than connect to another port.
        /// TLS is off: a `PGSSLMODE` over TCP that asks for it (`require`, `verify-ca`, `verify-full`, or a
        /// mode libpq does not know) makes `PostgresCookieJars.init` throw `.invalidConfiguration` until
        /// `connection.tls` enforces TLS (PostgresNIO's `.require(_:)`), rather than send the cookies in
        /// plain text; `disable`, `allow` and `prefer` connect without it.
        public static func environment(from variables: [String: String]) -> Configuration {
            func variable(_ name: String) -> String? {
                guard let value = variables[name], !value.isEmpty else { return nil }
                return value
            }
            let host = variable("PGHOST") ?? "localhost"
            let portText = variable("PGPORT")
            // As libpq reads it (fe-connect.c, parse_int_param): an integer, spaces around it allowed; then a
            // port from 1 to 65535.
            let parts = portText?.split(whereSeparator: \.isWhitespace) ?? []
            let readPort = portText == nil ? 5432 : parts.count == 1 ? Int(parts[0]).flatMap { (1...65535).contains($0) ? $0 : nil } : nil
            var problem: String?
            if host.contains(",") || portText?.contains(",") == true {
                problem = "PGHOST=\"\(host)\" PGPORT=\"\(portText ?? "")\" lists several servers, which the jars do not take: name one"
            } else if readPort == nil, let portText {
                problem = "PGPORT=\"\(portText)\" is not a port number from 1 to 65535"
            }
            let port = readPort ?? 5432
            let user = variable("PGUSER") ?? variable("USER") ?? "postgres"
            let database = variable("PGDATABASE") ?? user
            let password = variable("PGPASSWORD")
            let socket = "\(host)/.s.PGSQL.\(port)"
            var configuration = host.hasPrefix("/")
                ? Configuration(
                    connection: .init(unixSocketPath: socket, username: user, password: password, database: database),
                    serverName: socket)
                : Configuration(
                    connection: .init(host: host, port: port, username: user, password: password, database: database, tls: .disable),
                    serverName: "\(host):\(port)")
            configuration.environmentProblem = problem
            if !host.hasPrefix("/"), let mode = variable("PGSSLMODE"), !["disable", "allow", "prefer"].contains(mode) {
                configuration.tlsModeAskedFor = mode
            }
            return configuration
        }
    }
}
#endif
