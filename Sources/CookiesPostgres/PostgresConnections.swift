#if CookiesPostgres
import Dispatch
import PostgresNIO
import Synchronization

/// A fixed number of connections to one server, lent one at a time to blocking callers. A connection
/// found closed (the server restarted, the network broke) is replaced by a new one at its next loan, so
/// that a flush after an outage reconnects.
final class PostgresConnections: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    /// The connections not lent now.
    private let idle = Mutex<[PostgresConnection]>([])
    /// Counts the connections that may still be lent.
    private let slots: DispatchSemaphore
    private let nextID = Atomic<Int>(0)
    private let isShutDown = Atomic<Bool>(false)
    /// Where the server is, for errors.
    let serverName: String

    /// The server-side timeouts of every connection (`PostgresCookieJars.Configuration.timeout`), in
    /// milliseconds, as `set_config` takes them.
    private let timeoutSetting: String

    init(configuration: PostgresConnection.Configuration, size: Int, timeout: Duration, serverName: String, logger: Logger) {
        var configuration = configuration
        let milliseconds = max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        configuration.options.connectTimeout = .milliseconds(milliseconds)
        self.configuration = configuration
        timeoutSetting = "\(milliseconds)ms"
        self.logger = logger
        self.serverName = serverName
        slots = DispatchSemaphore(value: max(1, size))
    }

    /// Runs `body` with a connection of its own (waiting for one when all are lent), connecting first
    /// when needed. A connection that `body` left closed is dropped.
    func withConnection<Result>(
        doing action: @autoclosure () -> String, _ body: (PostgresConnection) throws -> Result
    ) throws(PostgresCookieStoreError) -> Result {
        guard !isShutDown.load(ordering: .relaxed) else {
            throw PostgresCookieStoreError(.closed, action: action(), detail: "the jars were shut down")
        }
        slots.wait()
        defer { slots.signal() }
        // Shut down while this call waited for a slot.
        guard !isShutDown.load(ordering: .relaxed) else {
            throw PostgresCookieStoreError(.closed, action: action(), detail: "the jars were shut down")
        }
        var connection = idle.withLock { $0.popLast() }
        if let open = connection, open.isClosed { connection = nil }
        do {
            let lent = try connection ?? connect()
            defer { giveBack(lent) }
            return try body(lent)
        } catch {
            throw PostgresCookieStoreError(error, action: action())
        }
    }

    /// Puts a lent connection back among the idle ones; closes it instead once shut down (a loan made
    /// before `shutDown()` ends after it).
    private func giveBack(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        if isShutDown.load(ordering: .relaxed) {
            try? connection.close().wait()
        } else {
            idle.withLock { $0.append(connection) }
            // A shut-down between the check and the append closes what it finds idle after it.
            if isShutDown.load(ordering: .relaxed) { closeIdle() }
        }
    }

    /// A new connection, its timeouts set (one round trip).
    private func connect() throws -> PostgresConnection {
        do {
            let connection = try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                id: nextID.wrappingAdd(1, ordering: .relaxed).oldValue, logger: logger
            ).wait()
            var binds = PostgresBindings()
            binds.append(timeoutSetting)
            do {
                _ = try connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT set_config('statement_timeout', $1, false), set_config('lock_timeout', $1, false),
                                set_config('idle_in_transaction_session_timeout', $1, false)
                            """,
                        binds: binds),
                    logger: logger
                ).wait()
            } catch {
                try? connection.close().wait()
                throw error
            }
            return connection
        } catch {
            let cause = PostgresCookieStoreError(error, action: "")
            throw PostgresCookieStoreError(
                .unreachable, action: "", detail: "cannot connect to PostgreSQL at \(serverName): \(cause.detail)")
        }
    }

    /// Closes every idle connection; later loans fail with `.closed`.
    func shutDown() {
        isShutDown.store(true, ordering: .relaxed)
        closeIdle()
    }

    private func closeIdle() {
        for connection in idle.withLock({ idle in defer { idle.removeAll() }; return idle }) {
            try? connection.close().wait()
        }
    }

    /// Jars dropped without `shutDown()` close their connections too.
    deinit {
        closeIdle()
    }
}
#endif
