import Synchronization

/// Delivers a jar's changes to its observers in the order the store applied them.
///
/// Changes are queued while the store's lock is held, so the queue order is the store's order. After the
/// lock is released, the calling thread drains the queue unless another thread is draining already, in
/// which case that thread delivers them too. So observers see every change exactly once, in order, one
/// at a time, and may call the jar from inside a callback (that call's changes are delivered after the
/// current one). A change can be delivered on another thread, shortly after the call that made it returns.
///
/// Recorders (the jar's persistence) hear each change at once instead, while the store's lock is held:
/// what a call changed is recorded before the call returns, so a flush after it writes it, however long
/// another thread takes to deliver the changes before it to the observers. A recorder must be quick and
/// must not call the jar.
final class ChangeDispatcher: Sendable {
    typealias Observer = @Sendable (CookieChange) -> Void

    private struct State {
        var queue: [CookieChange] = []
        var draining = false
        var observers: [Int: Observer] = [:]
        /// In the order they were added (their tokens increase), so that each change reaches them in it.
        var recorders: [(token: Int, record: Observer)] = []
        var nextToken = 0
    }

    private let state = CookieLock(State())
    /// True while any observer is registered: the store records changes only then.
    let isObserved = Atomic<Bool>(false)

    func addObserver(_ observer: @escaping Observer) -> Int {
        add { $0.observers[$1] = observer }
    }

    /// Calls `recorder` with every change from now on, while the store's lock is held.
    func addRecorder(_ recorder: @escaping Observer) -> Int {
        add { $0.recorders.append(($1, recorder)) }
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

    /// Removes the observer or the recorder of `token`.
    func removeObserver(_ token: Int) {
        state.withLock { state in
            state.observers[token] = nil
            state.recorders.removeAll { $0.token == token }
            if state.observers.isEmpty && state.recorders.isEmpty { isObserved.store(false, ordering: .releasing) }
        }
    }

    /// Hands changes to the recorders and queues them for the observers; called with the store's lock held.
    func enqueue(_ changes: [CookieChange]) {
        guard !changes.isEmpty else { return }
        let recorders = state.withLock { state in
            if !state.observers.isEmpty { state.queue.append(contentsOf: changes) }
            return state.recorders
        }
        for change in changes {
            for recorder in recorders { recorder.record(change) }
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
        while true {
            let next: ([CookieChange], [Observer])? = state.withLock { state in
                if state.queue.isEmpty {
                    state.draining = false
                    return nil
                }
                let batch = state.queue
                state.queue.removeAll(keepingCapacity: true)
                return (batch, state.observers.sorted { $0.key < $1.key }.map(\.value))
            }
            guard let (batch, observers) = next else { return }
            for change in batch {
                for observer in observers { observer(change) }
            }
        }
    }
}
