#if canImport(Glibc) || canImport(Musl)
#if canImport(Glibc)
import Glibc
#else
import Musl
#endif
import Synchronization

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
///   kind (package benchmark `Jar`, one run of each, 2 cores, 2026-11-25; the README has the later runs).
/// - ThreadSanitizer sees pthread mutexes; it does not see `Mutex` (a futex in the uninstrumented standard
///   library) and would report every access made under it as a race.
///
/// Letting a running thread take the lock again is unfair to a thread asleep on it: a thread receiving
/// line after line released the jar and took it back while a waiting lookup was still waking, and a
/// lookup saw 47 receipts begin and end while it waited (p50, package benchmark
/// `Jar:Lookups-while-one-receives`; 5 when the receipts go to another jar). So a thread that takes the
/// lock again and again asks for it `afterWaiters`, which lets one of the threads already waiting have it
/// first (14 receipts in the same benchmark); lookups still take it as soon as it is free, among
/// themselves, and eight of them lose nothing to it.
/// It has `Mutex`'s `withLock`, so the code is the same on every platform.
struct CookieLock<Value: ~Copyable>: ~Copyable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let turns: UnsafeMutablePointer<Turns>
    private let value: UnsafeMutablePointer<Value>

    /// Who waits for the mutex, and how many times a waiter took it.
    private struct Turns: ~Copyable {
        /// The threads asleep or spinning in `pthread_mutex_lock`.
        let waiting = Atomic<Int>(0)
        /// How many times a thread took the mutex in `pthread_mutex_lock`.
        let grants = Atomic<Int>(0)
    }

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
        turns = .allocate(capacity: 1)
        turns.initialize(to: Turns())
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        turns.deinitialize(count: 1)
        turns.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` on the value with the mutex held.
    borrowing func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// Runs `body` on the value with the mutex held; `afterWaiters`: taken only after one of the threads
    /// waiting for it, when some are, had it, for a thread that takes the lock again and again, so that
    /// it does not keep the others from it.
    borrowing func withLock<Result, Failure: Error>(
        afterWaiters: Bool, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if afterWaiters { waitForAWaiter() }
        return try withLock(body)
    }

    /// Returns once one of the threads waiting for the mutex took it, or none waits: spins a little,
    /// then yields its core, which the waiter may need to wake on.
    private borrowing func waitForAWaiter() {
        let grants = turns.pointee.grants.load(ordering: .acquiring)
        var rounds = 0
        while turns.pointee.waiting.load(ordering: .relaxed) != 0, turns.pointee.grants.load(ordering: .relaxed) == grants {
            rounds += 1
            if rounds > 64 { sched_yield() }
        }
    }

    /// Takes the mutex: at once when it is free, else counted among its waiters.
    @inline(__always)
    private borrowing func lock() {
        guard pthread_mutex_trylock(mutex) != 0 else { return }
        turns.pointee.waiting.add(1, ordering: .relaxed)
        pthread_mutex_lock(mutex)
        turns.pointee.waiting.subtract(1, ordering: .relaxed)
        turns.pointee.grants.add(1, ordering: .releasing)
    }
}

extension CookieLock: @unchecked Sendable where Value: ~Copyable {}
#else
import Synchronization

/// The lock of every shared state of the module: `Synchronization.Mutex` (an `os_unfair_lock` on Apple's
/// platforms, which lets a running thread take a lock just released). On Linux it is a pthread mutex
/// (see that definition for why).
typealias CookieLock<Value: ~Copyable> = Mutex<Value>

extension Mutex where Value: ~Copyable {
    /// `withLock(_:)`, for the calls that the Linux lock makes wait for its waiters.
    borrowing func withLock<Result, Failure: Error>(
        afterWaiters: Bool, _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try withLock(body)
    }
}
#endif
