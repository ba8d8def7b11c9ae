#if canImport(Glibc) || canImport(Musl)
#if canImport(Glibc)
import Glibc
#else
import Musl
#endif

/// The lock of every shared state of the module. On Linux it is a pthread mutex, not
/// `Synchronization.Mutex`, for two reasons:
/// - Speed under contention. `Mutex` on Linux is a priority-inheriting futex: a thread that finds it held
///   always sleeps in the kernel and the lock is handed over in order, so threads that share one jar convoy.
///   Eight threads each taking a lock around 0.4 µs of work, 400,000 times in all on 2 cores, took
///   48–71 µs per lock with `Mutex` and 0.46–0.66 µs with a pthread mutex, against 0.43–0.76 µs for one
///   thread alone. glibc's default mutex lets a running thread take a lock just released, so the lock
///   stays on the cores that are running. glibc's adaptive kind also spins a little before it sleeps,
///   which suits locks held for about a microsecond: eight threads sharing one 50,000-cookie jar for
///   8,000 lookups took 1.04× one thread's time (p50; 1.05× p0) against 1.08× (1.2× p0) with the default
///   kind (package benchmark `Jar`, one run of each, 2 cores).
/// - ThreadSanitizer sees pthread mutexes; it does not see `Mutex` (a futex in the uninstrumented standard
///   library) and would report every access made under it as a race.
/// It has `Mutex`'s `withLock`, so the code is the same on every platform.
struct CookieLock<Value: ~Copyable>: ~Copyable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    init(_ initialValue: consuming Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        #if canImport(Glibc)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #else
        pthread_mutex_init(mutex, nil)
        #endif
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` on the value with the mutex held.
    borrowing func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}

extension CookieLock: @unchecked Sendable where Value: ~Copyable {}
#else
import Synchronization

/// The lock of every shared state of the module: `Synchronization.Mutex` (an `os_unfair_lock` on Apple's
/// platforms, which lets a running thread take a lock just released). On Linux it is a pthread mutex
/// (see that definition for why).
typealias CookieLock<Value: ~Copyable> = Mutex<Value>
#endif
