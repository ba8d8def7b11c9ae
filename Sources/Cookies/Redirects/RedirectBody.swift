/// What a client that follows redirects itself reads of a redirect response's body before it sends the
/// next hop. The body is of no use (the next hop's response is the answer), but a connection carries
/// another request only once the body before it has been read to its end. So a short body that is there
/// at once is read to its end, and the connection may carry the next hop; any other body is dropped
/// unread, and its connection closed (a new one costs a handshake, not the body's bytes or the server's
/// pace): one of more than `maximumBytes` (Go's net/http reads at most 2 KiB, `maxBodySlurpSize`, of a
/// redirect's body before closing it), and one that has not ended within `maximumWait` (a body that
/// trickles would otherwise hold the chain for as long as the server keeps it going: a transport's
/// deadline covers a response until its head, not the body read after it).
public enum RedirectBody {
    /// The most of a redirect's body read before it is dropped: 2 KiB, as Go's net/http.
    public static let maximumBytes = 2048
    /// The longest a redirect's body is read before it is dropped.
    public static let maximumWait = Duration.seconds(1)

    /// Reads `body` to its end and drops what it read, or stops once more than `maximumBytes` came
    /// (`byteCount` of each element) or `wait` passed, whichever is first; a read error ends it too (the
    /// body is of no use either way). Stopping ends the iteration, and cancels the read under way, which is
    /// how a streamed body is let go (AsyncHTTPClient's response body then cancels its request and closes
    /// the connection). The wait holds only for a body whose iteration answers cancellation.
    package static func discard<Body: AsyncSequence & Sendable>(
        _ body: Body, waitingAtMost wait: Duration, byteCount: @escaping @Sendable (Body.Element) -> Int
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var read = 0
                do {
                    for try await part in body {
                        read += byteCount(part)
                        if read > maximumBytes { return }
                    }
                } catch {}
            }
            group.addTask { try? await Task.sleep(for: max(wait, .zero)) }
            await group.next()
            group.cancelAll()
        }
    }
}
