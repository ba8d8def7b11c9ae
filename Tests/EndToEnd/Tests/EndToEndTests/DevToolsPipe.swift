import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A headless Chromium driven over the DevTools protocol through `--remote-debugging-pipe`: the
/// browser reads commands on its fd 3 and writes replies and events on its fd 4, each a JSON object
/// followed by a NUL byte (no WebSocket needed). Commands to a page name its session (`flatten` mode).
final class DevToolsPipe: Sendable {
    /// A failed command, with the protocol's message.
    struct CommandError: Error, CustomStringConvertible {
        let description: String
    }

    private struct State {
        var nextID = 0
        var replies: [Int: CheckedContinuation<Data, Never>] = [:]
        /// How many events of each method arrived.
        var eventCounts: [String: Int] = [:]
        /// True once `close()` ran: a second call must not close the descriptor number again, which by
        /// then may be another test's file (a pipe of a process it reads).
        var isClosed = false
    }

    private let state = Mutex(State())
    /// How long a command may wait for its reply.
    static let replyTimeout = Duration.seconds(15)
    private let commands: Int32
    private let replies: Int32
    let pid: pid_t

    /// Starts `chromium` headless on the profile folder `profile` (cookies persist there across starts).
    init(profile: String) throws {
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        // A write to a browser that has exited fails with EPIPE rather than ending the test process.
        signal(SIGPIPE, SIG_IGN)
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
            throw CommandError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Only the dup2'd fds 3 and 4 reach the browser.
        for fd in toBrowser + fromBrowser { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [
            "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
            "--user-data-dir=" + profile, "about:blank",
        ]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "chromium", &actions, nil, argv, environ)
        Glibc.close(toBrowser[0])
        Glibc.close(fromBrowser[1])
        guard spawned == 0 else {
            Glibc.close(toBrowser[1])
            Glibc.close(fromBrowser[0])
            throw CommandError(description: "chromium did not start: \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        self.commands = toBrowser[1]
        self.replies = fromBrowser[0]
        let reader = Thread { [self] in readReplies() }
        reader.start()
    }

    /// Sends `method` with `params` (to the page of `session`, if given); returns the reply's `result`.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil) async throws -> [String: Any] {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        let bytes = try Self.frame(message)
        let data = await withCheckedContinuation { continuation in
            state.withLock { $0.replies[id] = continuation }
            Task { [self] in
                try? await Task.sleep(for: Self.replyTimeout)
                let late = Data(#"{"error":{"message":"no reply within 15 s"}}"#.utf8)
                state.withLock { $0.replies.removeValue(forKey: id) }?.resume(returning: late)
            }
            write(bytes)
        }
        let reply = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        if let error = reply["error"] as? [String: Any] {
            throw CommandError(description: "\(method): \(error["message"] ?? error)")
        }
        return reply["result"] as? [String: Any] ?? [:]
    }

    /// Runs `body`, then waits (up to 15 s) for an event `method` that arrived after it began (e.g.
    /// `Page.loadEventFired`).
    func awaitingEvent(_ method: String, after body: () async throws -> Void) async throws {
        let before = state.withLock { $0.eventCounts[method, default: 0] }
        try await body()
        for _ in 0..<750 {
            if state.withLock({ $0.eventCounts[method, default: 0] }) > before { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CommandError(description: "no \(method) within 15 s")
    }

    /// Asks the browser to close (it writes its cookies to the profile) without waiting for a reply it
    /// may not send, then waits up to 5 s for it to exit before killing it. Once: later calls do nothing.
    func close() async {
        guard state.withLock({ state in defer { state.isClosed = true }; return !state.isClosed }) else { return }
        if let bytes = try? Self.frame(["id": 0, "method": "Browser.close", "params": [String: Any]()]) { write(bytes) }
        var status: Int32 = 0
        for _ in 0..<100 where waitpid(pid, &status, WNOHANG) == 0 {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        Glibc.close(commands)
    }

    /// A message as the pipe carries it: JSON, then a NUL byte.
    private static func frame(_ message: [String: Any]) throws -> Data {
        var bytes = try JSONSerialization.data(withJSONObject: message)
        bytes.append(0)
        return bytes
    }

    private func write(_ bytes: Data) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(commands, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// The reader thread: splits the browser's output on NUL bytes and hands each reply to its waiter.
    private func readReplies() {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(replies, &buffer, buffer.count)
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            while let end = pending.firstIndex(of: 0) {
                let message = pending[pending.startIndex..<end]
                pending = Data(pending[(end + 1)...])
                dispatch(Data(message))
            }
        }
        Glibc.close(replies)
        // The browser is gone: every command still waiting gets an error reply.
        let exited = Data(#"{"error":{"message":"the browser exited"}}"#.utf8)
        for waiter in state.withLock({ state in defer { state.replies = [:] }; return Array(state.replies.values) }) {
            waiter.resume(returning: exited)
        }
    }

    private func dispatch(_ message: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any] else { return }
        if let id = object["id"] as? Int {
            state.withLock { $0.replies.removeValue(forKey: id) }?.resume(returning: message)
        } else if let method = object["method"] as? String {
            state.withLock { $0.eventCounts[method, default: 0] += 1 }
        }
    }
}
