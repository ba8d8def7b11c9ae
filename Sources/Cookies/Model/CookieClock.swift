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

/// The wall clock (`CLOCK_REALTIME`).
public struct SystemCookieClock: CookieClock {
    /// The wall clock.
    public init() {}

    /// The current time of `CLOCK_REALTIME`, to the microsecond.
    public func now() -> CookieTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return CookieTime(microsecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000)
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
