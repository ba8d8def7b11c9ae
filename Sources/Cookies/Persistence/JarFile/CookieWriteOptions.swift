/// What a jar records for its store, and when it writes (`CookieJar(loading:into:options:…)`; the SQLite
/// jar file takes these from `CookieJarFileOptions`).
public struct CookieWriteOptions: Sendable {
    /// Keep session cookies in the store too (default false: session cookies end with the process,
    /// rfc6265bis-22 §5.7: a store removes the non-persistent cookies of step 6 when the session is over).
    public var persistsSessionCookies = false
    /// How long after a change the jar writes it in the background, coalescing every change made in the
    /// meantime into one write; nil writes only on flush and close. Default 1 s.
    public var flushDelay: Duration? = .seconds(1)
    /// Runs the background writes (default: `DispatchCookieFlushScheduler`).
    public var scheduler: any CookieFlushScheduler = DispatchCookieFlushScheduler()
    /// Hears of each background write that failed, with the store's error. Its changes stay pending and
    /// are written again after a pause that doubles from `flushDelay` (from 100 ms when it is zero) up to a
    /// minute, until a write succeeds or the jar is closed (`flush` and `close` throw their own errors).
    /// The changes made meanwhile wait for that write: the pauses double however many are made.
    public var backgroundWriteFailed: (@Sendable (any Error) -> Void)?

    public init() {}
}

extension CookieJarFileOptions {
    /// The options of the jar's bookkeeping for its file.
    var writeOptions: CookieWriteOptions {
        var options = CookieWriteOptions()
        options.persistsSessionCookies = persistsSessionCookies
        options.flushDelay = flushDelay
        options.scheduler = scheduler
        if let heard = backgroundWriteFailed {
            options.backgroundWriteFailed = { @Sendable (error: any Error) in
                if let error = error as? CookieFileError { heard(error) }
            }
        }
        return options
    }
}
