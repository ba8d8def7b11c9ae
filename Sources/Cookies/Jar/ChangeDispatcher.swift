import Synchronization

/// Delivers a jar's changes to its observers in the order the store applied them.
///
/// Changes are queued while the store's lock is held, so the queue order is the store's order, and
/// numbered as they are queued. After the lock is released, the calling thread drains the queue unless
/// another thread is draining already, in which case that thread delivers them too. So observers see every
/// change exactly once, in order, one at a time, and may call the jar from inside a callback (that call's
/// changes are delivered after the current one). An observer is given the changes numbered from the next
/// one when it was added: none queued before, even one that another thread delivers after it was added.
///
/// Who delivers: a call that changes the jar delivers the queued changes, other threads' included, before
/// it returns, unless another thread is delivering; then it returns at once, and its changes are delivered
/// on that thread, shortly after. A slow observer therefore holds whichever caller is delivering, for as
/// long as changes keep coming from the other threads. Observers must be quick, and hand slow work to a
/// queue of their own. (Delivery stays on a caller's thread: the web view sync, `CookieStoreSync`, knows a
/// deletion's event as its own echo because it is delivered before `delete` returns when no other thread
/// is delivering.)
///
/// The recorder (the jar's persistence) hears each change at once instead, while the store's lock is held:
/// what a call changed is recorded before the call returns, so a flush after it writes it, however long
/// another thread takes to deliver the changes before it to the observers. It must be quick and must not
/// call the jar. It has no token: no removal of an observer removes it (`removeRecorder()` does).
///
/// The streams of changes (`addStream`) are observers too; the jar owns its dispatcher, and when the jar
/// goes, the dispatcher finishes them.
final class ChangeDispatcher: Sendable {
    typealias Callback = @Sendable (CookieChange) -> Void
    /// A recorder, given each change and the time of the call that made it (nil for a call that reads
    /// none).
    typealias Recorder = @Sendable (CookieChange, CookieTime?) -> Void

    /// An observer, and the number of the first change it is given.
    private struct Observer {
        let token: Int
        /// `State.queued` when it was added: the number of the next change queued.
        let first: Int
        let call: Callback
        /// Set when it is removed: a batch being delivered holds a copy of the observers, and gives no
        /// further change to one removed meanwhile (by itself or another observer, from inside a callback).
        let removal = Removal()
    }

    /// Whether an observer was removed, read by the thread delivering a batch before each call.
    private final class Removal: Sendable {
        let isDone = Atomic<Bool>(false)
    }

    private struct State {
        /// The changes not delivered yet, in the store's order, numbered up to `queued - 1`.
        var queue: [CookieChange] = []
        /// How many changes were ever queued: the number of the next one.
        var queued = 0
        var draining = false
        /// In the order they were added (their tokens increase), so that each change reaches them in it.
        var observers: [Observer] = []
        /// The jar's persistence, while it records the changes (`setRecorder(_:)`).
        var recorder: Recorder?
        /// The continuations of the streams (`addStream`), by the token of the observer that yields to each.
        var streams: [Int: AsyncStream<CookieChange>.Continuation] = [:]
        var nextToken = 0

        /// True when no observer and no recorder is registered.
        var isUnobserved: Bool { observers.isEmpty && recorder == nil }

        /// Adds the observer of `token`, given the changes from the next one queued.
        mutating func addObserver(_ token: Int, _ call: @escaping Callback) {
            observers.append(Observer(token: token, first: queued, call: call))
        }
    }

    /// The largest buffer of a delivered batch that the queue takes back for the next changes: a call makes
    /// a few changes (a receipt one, or a few more with the cookies it evicts), so the queue of a jar whose
    /// calls come one at a time allocates none; a larger batch is a backlog, and its buffer is freed. (A
    /// receipt into an observed jar made 3 allocations here, a copy of the queue and two lists of the
    /// observers, and none since; 9,100 instructions a receipt then, 7,500 since: callgrind, release build.)
    private static let keptCapacity = 16

    private let state = CookieLock(State())
    /// True while any observer or the recorder is registered: the store records changes only then.
    let isObserved = Atomic<Bool>(false)

    /// How many changes the queue's buffer holds (for tests: a backlog's buffer is not kept).
    var queueCapacity: Int { state.withLock { $0.queue.capacity } }

    deinit {
        // The jar is gone and no change will come: each stream ends after the changes it holds.
        for stream in state.withLock({ Array($0.streams.values) }) { stream.finish() }
    }

    /// Calls `observer` with every change queued from now on.
    func addObserver(_ observer: @escaping Callback) -> Int {
        add { $0.addObserver($1, observer) }
    }

    /// Every change queued from now on, buffered until read. The stream's observer is removed when the
    /// stream terminates (its reader's task is cancelled, or the stream is dropped); the stream finishes
    /// when this dispatcher goes.
    func addStream() -> AsyncStream<CookieChange> {
        let (stream, continuation) = AsyncStream<CookieChange>.makeStream()
        let token = add { state, token in
            state.addObserver(token) { continuation.yield($0) }
            state.streams[token] = continuation
        }
        continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        return stream
    }

    /// Calls `recorder` with every change from now on, while the store's lock is held, until
    /// `removeRecorder()`.
    func setRecorder(_ recorder: @escaping Recorder) {
        state.withLock { state in
            state.recorder = recorder
            isObserved.store(true, ordering: .releasing)
        }
    }

    /// Stops calling the recorder.
    func removeRecorder() {
        state.withLock { state in
            state.recorder = nil
            if state.isUnobserved { isObserved.store(false, ordering: .releasing) }
        }
    }

    /// Registers with `register` (given the state and a new token) and returns the token.
    private func add(_ register: (inout State, Int) -> Void) -> Int {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            register(&state, token)
            isObserved.store(true, ordering: .releasing)
            return token
        }
    }

    /// Removes the observer or the stream of `token`; a token that names neither (one removed already,
    /// another jar's) is ignored.
    func removeObserver(_ token: Int) {
        state.withLock { state in
            for observer in state.observers where observer.token == token { observer.removal.isDone.store(true, ordering: .releasing) }
            state.observers.removeAll { $0.token == token }
            state.streams[token] = nil
            if state.isUnobserved { isObserved.store(false, ordering: .releasing) }
        }
    }

    /// Hands changes, made by a call at `now`, to the recorder and queues them for the observers; called
    /// with the store's lock held.
    func enqueue(_ changes: [CookieChange], at now: CookieTime?) {
        guard !changes.isEmpty else { return }
        let recorder = state.withLock { state in
            if !state.observers.isEmpty {
                state.queue.append(contentsOf: changes)
                state.queued += changes.count
            }
            return state.recorder
        }
        if let recorder {
            for change in changes { recorder(change, now) }
        }
    }

    /// Delivers queued changes, unless another thread is doing so already.
    func drain() {
        let claimed = state.withLock { state in
            if state.draining || state.queue.isEmpty { return false }
            state.draining = true
            return true
        }
        guard claimed else { return }
        // The buffer of the batch delivered last, emptied, for the queue when it has none (`keptCapacity`).
        var spent: [CookieChange] = []
        while true {
            // The batch is moved out of the queue, which starts again from the spent buffer or none: a copy
            // emptied in place (`removeAll(keepingCapacity:)` of a shared buffer) allocated one as large as
            // the batch, so the queue kept the largest backlog's capacity for good.
            let next: (changes: [CookieChange], first: Int, observers: [Observer])? = state.withLock { state in
                if state.queue.capacity == 0 && spent.capacity <= Self.keptCapacity { swap(&state.queue, &spent) }
                if state.queue.isEmpty {
                    state.draining = false
                    return nil
                }
                let batch = (state.queue, state.queued - state.queue.count, state.observers)
                state.queue = []
                return batch
            }
            guard case (var changes, let first, let observers)? = consume next else { return }
            for (offset, change) in changes.enumerated() {
                for observer in observers where observer.first <= first + offset && !observer.removal.isDone.load(ordering: .acquiring) {
                    observer.call(change)
                }
            }
            changes.removeAll(keepingCapacity: true)
            spent = consume changes
        }
    }
}
