import Cookies

/// Runs one call on a platform store with a deadline: the result, or `CookieSyncError.timedOut` once
/// `timeout` has passed. A call whose completion never comes (WKHTTPCookieStore's `setCookie` has been
/// seen to) is left running and its late result dropped: the caller is not held hostage by it. Its task
/// is cancelled then: a platform call under way cannot be taken back, but an adapter that makes one call
/// per cookie makes no further one (`Task.isCancelled`), where a late completion would otherwise resume
/// it, and its deletions and sets would land after the syncs that followed (deleting the session a new
/// sign-in set meanwhile).
func withTimeout<T: Sendable>(
    _ timeout: Duration, call: CookieSyncError.PlatformCall, _ body: @escaping @Sendable () async throws -> T
) async throws(CookieSyncError) -> T {
    let outcome: Result<T, CookieSyncError> = await withCheckedContinuation { continuation in
        let once = ResumeOnce(continuation)
        @Sendable func finish(_ result: Result<T, CookieSyncError>) { once.resume(returning: result) }
        let work = CookieLock<Task<Void, Never>?>(nil)
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            finish(.failure(.timedOut(call: call, after: timeout)))
            work.withLock { $0?.cancel() }
        }
        work.withLock { $0 = Task {
            defer { timer.cancel() }
            do {
                finish(.success(try await body()))
            } catch let error as CookieSyncError {
                finish(.failure(error))
            } catch {
                finish(.failure(.storeFailed(call: call, reason: String(describing: error))))
            }
        } }
    }
    return try outcome.get()
}

/// A continuation resumed by the first of several racers; the others' results are dropped.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: CookieLock<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = CookieLock(continuation) }

    func resume(returning value: T) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
