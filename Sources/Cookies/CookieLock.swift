#if canImport(Glibc) || canImport(Musl)
#if canImport(Glibc)
import Glibc
#else
import Musl
#endif
import Synchronization

/// The lock of every shared state of the libraries (`Cookies`, `CookiesFoundation`, `CookiesPostgres`).
/// On Linux it is a pthread reader-writer lock, not `Synchronization.Mutex`, for three reasons:
/// - Lookups share it. Most lookups of a jar change nothing (`CookieJar.cookieHeader(for:)`: a host and
///   site already known, last-access times recent enough, nothing expired), so they hold the lock shared
///   and run side by side on every core (`withSharedLock`); a call that changes the jar holds it alone.
///   A lookup that finds a thread waiting to change the jar lets it go first, and glibc's lock, asked to
///   prefer writers, keeps new lookups from starting while a thread sleeps on it to change the jar, so
///   lookups on every core never starve a receipt. Eight threads looking up in one 50,000-cookie jar took
///   0.70×, 0.80× and 0.65× one thread's time on 2 cores (p50, package benchmark
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
/// Letting a running thread take the lock again is unfair to a thread that waits for it: a thread receiving
/// line after line released the jar and took it back before a waiting lookup had it, and a lookup saw
/// 47 receipts begin and end while it waited (p50, package benchmark `Jar:Lookups-while-one-receives`; 5
/// when the receipts go to another jar). So turns are handed over: a thread that takes the lock again and
/// again asks for it `afterWaiters`, which lets one of the threads already waiting have it first, and a
/// lookup lets a thread waiting to change the jar go first; a waiting thread spins rather than sleeps, so
/// it takes its turn as soon as the lock is free. In that benchmark a lookup then sees 1, 0 and 2 receipts
/// (p50 of three runs, 2026-11-26; 4, 9 and 6 when the receipts go to another jar) and the 1,000 receipts
/// take 2.2 ms (37 ms when lookups slept on the lock; 1.3 ms into another jar).
/// It has `Mutex`'s `withLock`, so the code is the same on every platform.
package struct CookieLock<Value: ~Copyable>: ~Copyable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private let turns: UnsafeMutablePointer<Turns>
    private let value: UnsafeMutablePointer<Value>

    /// Who waits for the lock, and how many times a waiter took it.
    private struct Turns: ~Copyable {
        /// The threads waiting for the lock: spinning on it or asleep in `pthread_rwlock_wrlock` or
        /// `pthread_rwlock_rdlock`.
        let waiting = Atomic<Int>(0)
        /// How many of them wait to hold it alone.
        let waitingToChange = Atomic<Int>(0)
        /// How many times a thread that waited took the lock.
        let grants = Atomic<Int>(0)
    }

    package init(_ initialValue: consuming sending Value) {
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

    /// Runs `body` on the value with the lock held alone. As `Mutex`'s, the value and the result cross
    /// threads only as `sending`, so that what is not `Sendable` is never reached from two threads.
    package borrowing func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        if pthread_rwlock_trywrlock(lock) != 0 { waitFor(pthread_rwlock_trywrlock, else: pthread_rwlock_wrlock, toChange: true) }
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value.pointee)
    }

    /// Runs `body` on the value with the lock held alone; `afterWaiters`: taken only after one of the
    /// threads waiting for it, when some are, had it, for a thread that takes the lock again and again,
    /// so that it does not keep the others from it.
    package borrowing func withLock<Result, Failure: Error>(
        afterWaiters: Bool, _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        if afterWaiters { waitForAWaiter() }
        return try withLock(body)
    }

    /// Runs `body` on the value with the lock shared: other threads may read the value at the same time,
    /// none changes it. A thread waiting to change the value goes first. Only for a `Sendable` value:
    /// threads that share the lock borrow the one value together, which `sending` (what makes `withLock`
    /// safe for any value) does not cover.
    package borrowing func withSharedLock<Result: Sendable, Failure: Error>(
        _ body: (borrowing Value) throws(Failure) -> Result
    ) throws(Failure) -> Result where Value: Sendable {
        if turns.pointee.waitingToChange.load(ordering: .relaxed) != 0 || pthread_rwlock_tryrdlock(lock) != 0 {
            waitFor(pthread_rwlock_tryrdlock, else: pthread_rwlock_rdlock, toChange: false)
        }
        defer { pthread_rwlock_unlock(lock) }
        return try body(value.pointee)
    }

    /// Takes the lock for a thread that did not get it at once, counted among its waiters meanwhile: tries
    /// `tryTake` 512 times a few dozen nanoseconds apart, then 512 times between yields of its core, and
    /// only then sleeps in `take` (which blocks). A thread that shares the lock lets the threads waiting to
    /// hold it alone go first.
    ///
    /// Why so long a spin: the jar's lock is held for a microsecond or two, and a thread asleep on it
    /// waits for the kernel to wake it, tens of microseconds on a busy machine, long after the lock was
    /// free again (glibc's reader-writer lock does not spin at all); a spinning waiter takes the lock a few
    /// dozen nanoseconds after it is free, when `waitForAWaiter` gives it its turn.
    private borrowing func waitFor(
        _ tryTake: (UnsafeMutablePointer<pthread_rwlock_t>) -> Int32,
        else take: (UnsafeMutablePointer<pthread_rwlock_t>) -> Int32, toChange: Bool
    ) {
        let turns = turns
        turns.pointee.waiting.add(1, ordering: .relaxed)
        if toChange { turns.pointee.waitingToChange.add(1, ordering: .relaxed) }
        var tries = 0
        while true {
            if toChange || turns.pointee.waitingToChange.load(ordering: .relaxed) == 0, tryTake(lock) == 0 { break }
            tries += 1
            if tries < 512 {
                // A pause that reads without writing (the count of waiters is never negative), so that the
                // lock's memory stays shared between the cores meanwhile.
                var spins = 32
                while spins > 0, turns.pointee.waiting.load(ordering: .relaxed) >= 0 { spins -= 1 }
            } else if tries < 1024 {
                sched_yield()
            } else {
                // Fails only when this thread holds the lock already (glibc's EDEADLK): a call back into
                // the jar from under its lock, which must stop here rather than run unlocked. (musl's lock
                // does not know its owner: there such a call waits for ever.)
                let taken = take(lock)
                precondition(taken == 0, "CookieLock taken again by the thread that holds it")
                break
            }
        }
        if toChange { turns.pointee.waitingToChange.subtract(1, ordering: .relaxed) }
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

// As `Mutex`: the value crosses threads only as `sending` under the lock held alone, and is borrowed by
// several threads at once only when it is `Sendable` (`withSharedLock`).
extension CookieLock: @unchecked Sendable where Value: ~Copyable {}
#else
import Synchronization

/// The lock of every shared state of the libraries: `Synchronization.Mutex` (an `os_unfair_lock` on Apple's
/// platforms, which lets a running thread take a lock just released), which lookups hold alone too. On
/// Linux it is a pthread reader-writer lock (see that definition for why).
package typealias CookieLock<Value: ~Copyable> = Mutex<Value>

extension Mutex where Value: ~Copyable {
    /// `withLock(_:)`, for the calls that the Linux lock makes wait for its waiters.
    package borrowing func withLock<Result, Failure: Error>(
        afterWaiters: Bool, _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try withLock(body)
    }

    /// `withLock(_:)`, for the calls that the Linux lock lets share it: here they hold it alone.
    package borrowing func withSharedLock<Result: Sendable, Failure: Error>(
        _ body: (borrowing Value) throws(Failure) -> Result
    ) throws(Failure) -> Result where Value: Sendable {
        try withLock { value throws(Failure) -> Result in try body(value) }
    }
}
#endif
