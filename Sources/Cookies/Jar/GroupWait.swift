import Dispatch

/// An async wait for a `DispatchGroup` that a task's cancellation ends: `CookieJarRegistry`'s requests
/// wait so for their key's jar to be made or closed, and a request whose task is cancelled (its client
/// went away) stops waiting at once.
final class GroupWait: Sendable {
    private enum State {
        /// Not suspended yet; `cancelled` when the task was cancelled meanwhile.
        case notStarted(cancelled: Bool)
        case waiting(CheckedContinuation<Void, any Error>)
        case finished
    }

    private let state = CookieLock(State.notStarted(cancelled: false))

    /// Suspends until `group` is left; throws `CancellationError` when the task is cancelled first.
    static func wait(for group: DispatchGroup) async throws {
        let wait = GroupWait()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                wait.start(continuation)
                group.notify(queue: .global()) { wait.finish(cancelled: false) }
            }
        } onCancel: {
            wait.finish(cancelled: true)
        }
    }

    private func start(_ continuation: CheckedContinuation<Void, any Error>) {
        let cancelledAlready = state.withLock { state in
            guard case .notStarted(let cancelled) = state else { return false }
            state = cancelled ? .finished : .waiting(continuation)
            return cancelled
        }
        if cancelledAlready { continuation.resume(throwing: CancellationError()) }
    }

    /// Resumes the waiting task once: with `CancellationError` when `cancelled`.
    private func finish(cancelled: Bool) {
        let waiting: CheckedContinuation<Void, any Error>? = state.withLock { state in
            switch state {
            case .notStarted:
                if cancelled { state = .notStarted(cancelled: true) }
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .finished:
                return nil
            }
        }
        if cancelled { waiting?.resume(throwing: CancellationError()) } else { waiting?.resume() }
    }
}
