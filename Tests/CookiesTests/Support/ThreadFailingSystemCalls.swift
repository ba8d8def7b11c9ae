#if canImport(CSystemCallFilter)
import CSystemCallFilter
import Cookies
import Foundation

/// What `body` returns or throws, run on a thread of its own on which each system call of `calls` fails with
/// its errno without being made, as in a container whose seccomp profile refuses it: the filters go with the
/// thread (and the threads it starts), and no other thread of the tests has them. Throws the errno of a
/// filter's setting when one cannot be set.
func onThreadFailing<R: Sendable>(
    _ calls: [(number: Int, errno: Int32)], _ body: @escaping @Sendable () throws -> R
) throws -> R {
    let outcome = ThreadOutcome<R>()
    let thread = Thread {
        let refused = calls.allSatisfy { csystemcallfilter_fail_on_this_thread($0.number, $0.errno) == 0 }
        outcome.finish(refused ? Result { try body() } : .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)))
    }
    thread.start()
    return try outcome.wait().get()
}

/// The result of a body run on another thread, handed to the thread waiting for it.
private final class ThreadOutcome<R: Sendable>: Sendable {
    private let result = CookieLock<Result<R, any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    func finish(_ result: Result<R, any Error>) {
        self.result.withLock { $0 = result }
        finished.signal()
    }

    func wait() -> Result<R, any Error> {
        finished.wait()
        return result.withLock { $0! }
    }
}
#endif
