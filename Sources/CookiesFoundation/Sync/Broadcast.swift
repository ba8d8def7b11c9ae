import Cookies

/// Hands every element yielded to each stream made so far (a stream ends its subscription when its
/// consumer stops): the sync's reports, a store's change signals.
final class Broadcast<Element: Sendable>: Sendable {
    private let subscribers = CookieLock<(next: Int, continuations: [Int: AsyncStream<Element>.Continuation])>((0, [:]))
    private let bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy

    /// A broadcast whose streams buffer as `bufferingPolicy` says (`.bufferingNewest(1)` coalesces signals).
    init(bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded) {
        self.bufferingPolicy = bufferingPolicy
    }

    /// A new stream of the elements yielded from now on.
    func makeStream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        let id = subscribers.withLock { subscribers in
            defer { subscribers.next += 1 }
            subscribers.continuations[subscribers.next] = continuation
            return subscribers.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `element` to every open stream.
    func yield(_ element: Element) {
        for continuation in subscribers.withLock({ Array($0.continuations.values) }) { continuation.yield(element) }
    }

    /// How many streams are open.
    var subscriberCount: Int { subscribers.withLock { $0.continuations.count } }
}
