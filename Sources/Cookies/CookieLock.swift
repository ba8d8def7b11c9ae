#if COOKIES_PTHREAD_LOCKS
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock of every shared state of the module, built on a pthread mutex: the build for
/// ThreadSanitizer (`-Xswiftc -DCOOKIES_PTHREAD_LOCKS`, see the README) uses it because TSan on Linux does
/// not see `Synchronization.Mutex` (a futex it does not intercept) and would report every access it
/// guards as a race. It has `Mutex`'s `withLock`, so the code is the same in both builds.
struct CookieLock<Value: ~Copyable>: ~Copyable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    init(_ initialValue: consuming Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
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

/// The lock of every shared state of the module: `Synchronization.Mutex`, except in the build for
/// ThreadSanitizer (`-Xswiftc -DCOOKIES_PTHREAD_LOCKS`), where it is a pthread mutex TSan sees.
typealias CookieLock<Value: ~Copyable> = Mutex<Value>
#endif
