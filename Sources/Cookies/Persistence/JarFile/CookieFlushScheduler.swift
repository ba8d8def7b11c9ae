import Dispatch

/// Runs a jar's background writes: `schedule` calls `work` once, `delay` from now, on any thread.
/// Injected so that tests run the writes when they choose instead of waiting.
public protocol CookieFlushScheduler: Sendable {
    /// Calls `work` once, `delay` from now, on any thread.
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void)
}

/// Runs background writes on a Dispatch global queue (file I/O blocks, so not on the Swift
/// concurrency pool).
public struct DispatchCookieFlushScheduler: CookieFlushScheduler {
    /// The scheduler every jar uses unless its `CookieJarFileOptions` name another.
    public init() {}

    /// Calls `work` once, `delay` from now, on a global queue of utility quality of service.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = delay.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let nanoseconds = overflow ? Int.max : Int(clamping: whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: work)
    }
}
