import AsyncHTTPClient
import Cookies
import CookiesAsyncHTTPClient
import Logging
import Synchronization
import TestBackend
import Testing

/// `JarHTTPClient.execute(_:timeout:context:logger:)` over real HTTP: the logger reaches AsyncHTTPClient
/// on every hop and gets the jar's entry a hop, with the names of the cookies and never their values.
@Suite("JarHTTPClient: logging")
struct JarHTTPClientLoggingTests {
    /// What a `RecordingLogHandler` was given.
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    /// The entries logged, from any thread.
    final class LogEntries: Sendable {
        let entries = Mutex<[Entry]>([])
    }

    /// A log handler that keeps every entry, the logger's metadata merged into each.
    struct RecordingLogHandler: LogHandler {
        let log: LogEntries
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let entry = Entry(
                level: event.level, message: event.message.description,
                metadata: metadata.merging(event.metadata ?? [:]) { $1 })
            log.entries.withLock { $0.append(entry) }
        }
    }

    /// The strings of a metadata array (nil: no such key, or not an array).
    static func strings(_ value: Logger.Metadata.Value?) -> [String]? {
        guard case .array(let values)? = value else { return nil }
        return values.map(\.description)
    }

    /// The sign-in chain (`POST /sign-in?code=…` → 302 + Set-Cookie → `GET /home`) logged at trace level:
    /// one jar entry a hop, at debug level, with the hop (its URL without the query), its status, how many
    /// cookies it carried and the names of those its response set, and no cookie value; AsyncHTTPClient's
    /// own entries for both hops.
    @Test("a logger gets AsyncHTTPClient's entries and one entry a hop, with cookie names only")
    func logsEachHop() async throws {
        try await Backend.withRunningServer { baseURL in
            let log = LogEntries()
            let logger = Logger(label: "JarHTTPClientLoggingTests") { _ in RecordingLogHandler(log: log) }
            let jar = CookieJar()
            let response = try await JarHTTPClient(jar: jar).execute(
                JarHTTPClientRedirectTests.signIn(baseURL + "/sign-in?code=one-time-code"), timeout: .seconds(30), logger: logger)
            _ = try await response.body.collect(upTo: 1 << 20)
            let logged = log.entries.withLock { $0 }

            let hops = logged.filter { $0.message == "Cookie jar hop" }
            #expect(hops.map(\.level) == [.debug, .debug])
            #expect(hops.map { $0.metadata["cookiejar-request"]?.description } == ["POST \(baseURL)/sign-in", "GET \(baseURL)/home"])
            #expect(hops.map { $0.metadata["cookiejar-status"]?.description } == ["302", "200"])
            #expect(hops.map { $0.metadata["cookiejar-sent"]?.description } == ["0", "2"])
            #expect(hops.map { Self.strings($0.metadata["cookiejar-set"]) } == [["remember_me", "session"], []])
            // AsyncHTTPClient logged each hop with the logger given: its connection handler's entry for a
            // request written on a connection (AsyncHTTPClient 1.37, HTTP1ClientChannelHandler), with the
            // connection's id.
            let scheduled = logged.filter { $0.message == "Request was scheduled on connection" }
            #expect(scheduled.count == 2)
            #expect(scheduled.allSatisfy { $0.metadata["ahc-connection-id"] != nil })
            // The URL without its query: no one-time code in the jar's entries.
            #expect(!hops.contains { "\($0.metadata)".contains("one-time-code") })
            // Names only: none of the jar's values is in its entries. (AsyncHTTPClient's trace entries carry
            // each response part, Set-Cookie fields included: the README says so.)
            let values = jar.allCookies().map(\.value)
            #expect(values.count == 2)
            #expect(!hops.contains { entry in values.contains { "\(entry.message) \(entry.metadata)".contains($0) } })
        }
    }
}
