#if CookiesPostgres
import Dispatch
import PostgresNIO
import Cookies
import Synchronization

/// A fixed number of connections to one server, lent one at a time to blocking callers. A connection
/// found closed (the server restarted, the network broke) is replaced by a new one at its next loan, so
/// that a flush after an outage reconnects.
final class PostgresConnections: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    /// The connections not lent now.
    private let idle = CookieLock<[PostgresConnection]>([])
    /// Counts the connections that may still be lent.
    private let slots: DispatchSemaphore
    private let nextID = Atomic<Int>(0)
    private let isShutDown = Atomic<Bool>(false)
    /// Where the server is, for errors.
    let serverName: String

    /// The server-side timeouts of every connection (`PostgresCookieJars.Configuration.timeout`), in
    /// milliseconds, as `set_config` takes them.
    private let timeoutSetting: String
    /// The longest a loan may wait for a connection, and then last (`withConnection`): four times the
    /// timeout. Each statement of a loan is bounded by the server's timeouts while the server answers
    /// (a write is a lock wait and a statement or two); a server or network that stopped answering (a
    /// failover without a reset, a firewall that dropped the connection's state) would otherwise hold the
    /// caller until TCP gives up, a quarter of an hour on Linux.
    private let loanLimit: TimeAmount

    init(configuration: PostgresConnection.Configuration, size: Int, timeout: Duration, serverName: String, logger: Logger) {
        var configuration = configuration
        let milliseconds = max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        configuration.options.connectTimeout = .milliseconds(milliseconds)
        self.configuration = configuration
        timeoutSetting = "\(milliseconds)ms"
        loanLimit = .milliseconds(4 * milliseconds)
        self.logger = logger
        self.serverName = serverName
        slots = DispatchSemaphore(value: max(1, size))
    }

    /// Runs `body` with a connection of its own (waiting for one when all are lent), connecting first
    /// when needed. A connection that `body` left closed is dropped. Past `loanLimit`, the wait for a
    /// connection throws `.unreachable`, and a loan's connection is closed, which fails the query it waits
    /// for (`.unreachable` too).
    func withConnection<Result>(
        doing action: @autoclosure () -> String, _ body: (PostgresConnection) throws -> Result
    ) throws(PostgresCookieStoreError) -> Result {
        guard !isShutDown.load(ordering: .relaxed) else {
            throw PostgresCookieStoreError(.closed, action: action(), detail: "the jars were shut down")
        }
        guard slots.wait(timeout: .now() + .nanoseconds(Int(loanLimit.nanoseconds))) == .success else {
            throw PostgresCookieStoreError(
                .unreachable, action: action(),
                detail: "no connection to PostgreSQL at \(serverName) came free in \(loanLimit.nanoseconds / 1_000_000) ms")
        }
        defer { slots.signal() }
        // Shut down while this call waited for a slot.
        guard !isShutDown.load(ordering: .relaxed) else {
            throw PostgresCookieStoreError(.closed, action: action(), detail: "the jars were shut down")
        }
        var connection = idle.withLock { $0.popLast() }
        if let open = connection, open.isClosed { connection = nil }
        let deadline = NIODeadline.now() + loanLimit
        do {
            let lent = try connection ?? connect(by: deadline)
            defer { giveBack(lent) }
            let watchdog = lent.eventLoop.scheduleTask(deadline: deadline) { let _: EventLoopFuture<Void> = lent.close() }
            defer { watchdog.cancel() }
            do {
                return try body(lent)
            } catch where NIODeadline.now() >= deadline {
                throw PostgresCookieStoreError(
                    .unreachable, action: "",
                    detail: "PostgreSQL at \(serverName) did not answer in \(loanLimit.nanoseconds / 1_000_000) ms: \(PostgresCookieStoreError(error, action: "").detail)")
            }
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

    /// A new connection, its timeouts set (one round trip), by `deadline`: a server that accepts the
    /// connection and then never answers (or a frozen network on the way) is given up at it. A failure
    /// keeps the code of its cause (`PostgresCookieStoreError.init(_:action:)`): a network that fails, or
    /// a server going away, is `.unreachable`; credentials or a database the server refuses are
    /// `.invalidConfiguration`, never retried as an outage.
    private func connect(by deadline: NIODeadline) throws -> PostgresConnection {
        do {
            let connection = try Self.wait(
                for: PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                    id: nextID.wrappingAdd(1, ordering: .relaxed).oldValue, logger: logger),
                until: deadline, failingWith: ChannelError.connectTimeout(loanLimit),
                abandoning: { let _: EventLoopFuture<Void> = $0.close() })
            let watchdog = connection.eventLoop.scheduleTask(deadline: deadline) { let _: EventLoopFuture<Void> = connection.close() }
            defer { watchdog.cancel() }
            var binds = PostgresBindings()
            binds.append(timeoutSetting)
            do {
                _ = try connection.run(
                    """
                    SELECT set_config('statement_timeout', $1, false), set_config('lock_timeout', $1, false),
                        set_config('idle_in_transaction_session_timeout', $1, false),
                        set_config('client_encoding', 'UTF8', false)
                    """,
                    binding: binds, logger: logger)
            } catch {
                try? connection.close().wait()
                throw error
            }
            return connection
        } catch {
            let cause = PostgresCookieStoreError(error, action: "")
            throw PostgresCookieStoreError(
                cause.code, action: "", detail: "cannot connect to PostgreSQL at \(serverName): \(cause.detail)", sqlState: cause.sqlState)
        }
    }

    /// The value of `future`, waited for until `deadline`; past it, throws `error`, and the value, should it
    /// come later, goes to `abandon` (a connection to close).
    private static func wait<Value: Sendable>(
        for future: EventLoopFuture<Value>, until deadline: NIODeadline, failingWith error: ChannelError,
        abandoning abandon: @escaping @Sendable (Value) -> Void
    ) throws -> Value {
        let eventLoop = future.eventLoop
        let promise = eventLoop.makePromise(of: Value.self)
        // Whichever comes first completes the promise; a value that comes after the deadline is abandoned.
        let settled = Atomic<Bool>(false)
        let timer = eventLoop.scheduleTask(deadline: deadline) {
            if !settled.exchange(true, ordering: .acquiringAndReleasing) { promise.fail(error) }
        }
        future.whenComplete { result in
            timer.cancel()
            if !settled.exchange(true, ordering: .acquiringAndReleasing) {
                promise.completeWith(result)
            } else if case .success(let value) = result {
                abandon(value)
            }
        }
        return try promise.futureResult.wait()
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
