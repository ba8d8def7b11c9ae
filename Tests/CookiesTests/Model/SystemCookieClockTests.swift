import Testing

@testable import Cookies

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `SystemCookieClock` is the wall clock: on Linux the coarse one (`CLOCK_REALTIME_COARSE`, clock_gettime(2):
/// "a faster but less precise version of CLOCK_REALTIME"), never ahead of `CLOCK_REALTIME` and behind it by
/// no more than its resolution (one kernel tick; two are allowed, for a tick that is late).
struct SystemCookieClockTests {
    @Test func readsTheWallClockToWithinATick() {
        func precise() -> Int64 { SystemCookieClock.time(of: CLOCK_REALTIME).microsecondsSinceEpoch }
        var resolution = timespec()
        clock_getres(SystemCookieClock.clockID, &resolution)
        let tick = max(1, SystemCookieClock.microseconds(resolution))
        for _ in 0..<1_000 {
            let before = precise()
            let now = SystemCookieClock().now().microsecondsSinceEpoch
            let after = precise()
            #expect(now <= after, "never ahead of CLOCK_REALTIME")
            #expect(now >= before - 2 * tick, "behind it by at most a tick (\(tick) µs)")
        }
    }
}
