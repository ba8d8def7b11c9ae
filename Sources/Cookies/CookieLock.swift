#if canImport(Glibc) || canImport(Musl)
#if canImport(Glibc)
import Glibc
#else
import Musl
#endif
import Synchronization

/// The lock of every shared state of the module. On Linux it is a pthread reader-writer lock, not
/// `Synchronization.Mutex`, for three reasons:
/// - Lookups share it. Most lookups of a jar change nothing (`CookieJar.cookieHeader(for:)`: a host and
///   site already known, last-access times recent enough, nothing expired), so they hold the lock shared
///   and run side by side on every core (`withSharedLock`); a call that changes the jar holds it alone.
///   With glibc, writers are preferred (a thread that waits to change the jar keeps new lookups from
///   starting), so lookups on every core never starve a receipt; musl's lock has no such option, and
///   there a thread that changes the jar waits until no lookup holds the lock. Eight threads looking up in one 50,000-cookie jar
///   took 0.62×, 0.81× and 0.66× one thread's time on 2 cores (p50, package benchmark
///   `Jar:Lookup-8000-eight-threads`, three runs, 2026-11-26), against 1.4–1.9× with one exclusive mutex.
/// - Speed under contention. `Mutex` on Linux is a priority-inheriting futex: a thread that finds it held
///   always sleeps in the kernel and the lock is handed over in order, so threads that share one jar convoy.
///   Eight threads each taking a lock around 0.4 µs of work, 400,000 times in all on 2 cores, took
///   48–71 µs per lock with `Mutex` and 0.46–0.66 µs with a pthread mutex, against 0.43–0.76 µs for one
///   thread alone (2026-11-25). glibc's locks let a running thread take a lock just released, so the lock
///   stays on the cores that are running.
/// - ThreadSanitizer sees pthread locks; it does not see `Mutex` (a futex in the uninstrumented standard
///   library) and would report every access made under it as a race.
///
/// Letting a running thread take the lock again is unfair to a thread asleep on it: a thread receiving
/// line after line released the jar and took it back while a waiting lookup was still waking, and a
/// lookup saw 47 receipts begin and end while it waited (p50, package benchmark
/// `Jar:Lookups-while-one-receives`; 5 when the receipts go to another jar). So a thread that takes the
/// lock again and again asks for it `afterWaiters`, which lets one of the threads already waiting have it
/// first (14 receipts in the same benchmark then; 5, 6 and 7 with this lock, against 4, 6 and 3 for
/// receipts into another jar, 2026-11-26); lookups still take it as soon as it is free.
/// It has `Mutex`'s `withLock`, so the code is the same on every platform.
struct CookieLock<Value: ~Copyable>: ~Copyable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private let turns: UnsafeMutablePointer<Turns>
    private let value: UnsafeMutablePointer<Value>

    /// Who waits for the lock, and how many times a waiter took it.
    private struct Turns: ~Copyable {
        /// The threads asleep in `pthread_rwlock_wrlock` or `pthread_rwlock_rdlock`.
        let waiting = Atomic<Int>(0)
        /// How many times a thread that waited took the lock.
        let grants = Atomic<Int>(0)
    }

    init(_ initialValue: consuming Value) {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        #if canImport(Glibc)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
        #else
        pthread_rwlock_init(lock, nil)
        #endif
        turns = .allocate(capacity: 1)
        turns.initialize(to: Turns())
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
        turns.deinitialize(count: 1)
        turns.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` on the value with the lock held alone.
    borrowing func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        if !tryRepeatedly(pthread_rwlock_trywrlock) { waitFor(pthread_rwlock_wrlock) }
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value.pointee)
    }

    /// Runs `body` on the value with the lock held alone; `afterWaiters`: taken only after one of the
    /// threads waiting for it, when some are, had it, for a thread that takes the lock again and again,
    /// so that it does not keep the others from it.
    borrowing func withLock<Result, Failure: Error>(
        afterWaiters: Bool, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if afterWaiters { waitForAWaiter() }
        return try withLock(body)
    }

    /// Runs `body` on the value with the lock shared: other threads may read the value at the same time,
    /// none changes it.
    borrowing func withSharedLock<Result, Failure: Error>(_ body: (borrowing Value) throws(Failure) -> Result) throws(Failure) -> Result {
        if !tryRepeatedly(pthread_rwlock_tryrdlock) { waitFor(pthread_rwlock_rdlock) }
        defer { pthread_rwlock_unlock(lock) }
        return try body(value.pointee)
    }

    /// Tries to take the lock with `tryTake` a few times, twice as far apart each time (a few
    /// microseconds in all), before the caller sleeps on it: the jar's lock is held for a microsecond or
    /// two, and a thread asleep on it waits for the kernel to wake it, tens of microseconds on a busy
    /// machine, long after the lock was free again. glibc's adaptive mutex spins so; its reader-writer lock
    /// does not. One thread receiving line after line while another looked up took 77 ms for 1,000 lines
    /// with a tenth of this spin and 39 ms with it (p50, package benchmark `Jar:Lookups-while-one-receives`,
    /// 2026-11-26; 1.3 ms when the lines go to another jar).
    @inline(__always)
    private borrowing func tryRepeatedly(_ tryTake: (UnsafeMutablePointer<pthread_rwlock_t>) -> Int32) -> Bool {
        if tryTake(lock) == 0 { return true }
        for round in 0..<10 {
            // A pause that reads without writing (the count of waiters is never negative), so that the
            // lock's memory stays shared between the cores meanwhile.
            var spins = 4 << round
            while spins > 0, turns.pointee.waiting.load(ordering: .relaxed) >= 0 { spins -= 1 }
            if tryTake(lock) == 0 { return true }
        }
        return false
    }

    /// Takes the lock with `take` (which blocks), counted among its waiters meanwhile.
    private borrowing func waitFor(_ take: (UnsafeMutablePointer<pthread_rwlock_t>) -> Int32) {
        turns.pointee.waiting.add(1, ordering: .relaxed)
        // Fails only when this thread holds the lock already (EDEADLK): a call back into the jar from
        // under its lock, which must stop here rather than run unlocked.
        let taken = take(lock)
        precondition(taken == 0, "CookieLock taken again by the thread that holds it")
        turns.pointee.waiting.subtract(1, ordering: .relaxed)
        turns.pointee.grants.add(1, ordering: .releasing)
    }

    /// Returns once one of the threads waiting for the lock took it, or none waits: spins a little,
    /// then yields its core, which the waiter may need to wake on.
    private borrowing func waitForAWaiter() {
        let grants = turns.pointee.grants.load(ordering: .acquiring)
        var rounds = 0
        while turns.pointee.waiting.load(ordering: .relaxed) != 0, turns.pointee.grants.load(ordering: .relaxed) == grants {
            rounds += 1
            if rounds > 64 { sched_yield() }
        }
    }
}

extension CookieLock: @unchecked Sendable where Value: ~Copyable {}
#else
import Synchronization

/// The lock of every shared state of the module: `Synchronization.Mutex` (an `os_unfair_lock` on Apple's
/// platforms, which lets a running thread take a lock just released), which lookups hold alone too. On
/// Linux it is a pthread reader-writer lock (see that definition for why).
typealias CookieLock<Value: ~Copyable> = Mutex<Value>

extension Mutex where Value: ~Copyable {
    /// `withLock(_:)`, for the calls that the Linux lock makes wait for its waiters.
    borrowing func withLock<Result, Failure: Error>(
        afterWaiters: Bool, _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try withLock(body)
    }

    /// `withLock(_:)`, for the calls that the Linux lock lets share it: here they hold it alone.
    borrowing func withSharedLock<Result: Sendable, Failure: Error>(
        _ body: (borrowing Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withLock { value throws(Failure) -> Result in try body(value) }
    }
}
#endif
