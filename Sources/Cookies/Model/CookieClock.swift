#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a jar reads the current time. Injected, so that tests never sleep.
public protocol CookieClock: Sendable {
    /// The current instant.
    func now() -> CookieTime
}

/// The wall clock: on Linux `CLOCK_REALTIME_COARSE`, elsewhere `CLOCK_REALTIME`.
///
/// Why the coarse clock on Linux: a jar reads the clock on every lookup and every receipt, and reading
/// `CLOCK_REALTIME` costs 22 ns there against 4 ns for `CLOCK_REALTIME_COARSE` (2-core x86-64 VM,
/// clocksource tsc, 2026-11-26), a twentieth of a lookup. The coarse clock is the time of the kernel's
/// last tick, at most one tick behind (`clock_getres`: 1-10 ms), while the times a jar compares are
/// seconds (Expires, Max-Age, the second between last-access updates) and cookies created within one
/// tick still get distinct creation times, in order (`CookieStore.creationTime(at:)`).
public struct SystemCookieClock: CookieClock {
    /// The wall clock.
    public init() {}

    /// The current time, to the microsecond (on Linux, as of the kernel's last tick).
    public func now() -> CookieTime {
        SystemCookieClock.time(of: SystemCookieClock.clockID)
    }

    /// The time the clock `clock` reads, to the microsecond.
    @inline(__always)
    static func time(of clock: clockid_t) -> CookieTime {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return CookieTime(microsecondsSinceEpoch: microseconds(spec))
    }

    /// `spec` in microseconds.
    @inline(__always)
    static func microseconds(_ spec: timespec) -> Int64 {
        Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }

    /// The clock `now()` reads.
    static var clockID: clockid_t {
        #if os(Linux)
        CLOCK_REALTIME_COARSE
        #else
        CLOCK_REALTIME
        #endif
    }
}

/// A clock that moves only when told to: for tests, replays and simulations.
public final class ManualCookieClock: CookieClock {
    private let current: CookieLock<CookieTime>

    /// A clock standing at `start`.
    public init(_ start: CookieTime) {
        current = CookieLock(start)
    }

    public func now() -> CookieTime {
        current.withLock { $0 }
    }

    /// Sets the clock to `time` (it may move backwards).
    public func set(_ time: CookieTime) {
        current.withLock { $0 = time }
    }

    /// Moves the clock forward by `seconds`.
    public func advance(seconds: Int64) {
        current.withLock { $0 = $0.adding(seconds: seconds) }
    }
}
