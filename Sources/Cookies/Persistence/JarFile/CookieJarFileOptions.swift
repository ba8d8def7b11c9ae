/// How a jar keeps its file: what is written, when, and what happens to a file it cannot read.
public struct CookieJarFileOptions: Sendable {
    /// What to do with a file that is not a readable cookie jar (not SQLite, corrupt, truncated or
    /// another application's database).
    public enum UnreadableFile: Sendable, Hashable {
        /// Throw a `CookieFileError` naming the file; the file is left exactly as it is.
        case fail
        /// Rename a damaged file (not SQLite, corrupt or truncated; and its `-wal`/`-shm`/`-journal`
        /// companions) to `<name>.corrupt-<seconds since 1970>` (`-2`, `-3`, … appended while that name is
        /// taken: no existing file is ever replaced) and start an empty jar in its place. A missing file whose
        /// `-wal` holds bytes has its companions renamed so, the WAL's frames kept. Another application's
        /// database (`.foreign`) and a jar of a newer schema (`.newerSchema`) are not damaged: they throw as
        /// with `fail`, left exactly as they are.
        case moveAside
    }

    /// How far an acknowledged write survives.
    public enum Durability: Sendable, Hashable {
        /// WAL with `synchronous=NORMAL`: every change `flush()` acknowledged survives a crash or
        /// `kill -9` of the process (the WAL frames are in the operating system's cache when COMMIT
        /// returns), but the last few may be lost if the machine loses power. Never corrupts the file.
        case processCrash
        /// WAL with `synchronous=FULL`: the WAL is synced to disk at every commit, so acknowledged
        /// changes also survive a power loss, at the price of one fsync per flush.
        case powerLoss
    }

    /// Write session cookies too, for an app that is suspended rather than ended (default false:
    /// session cookies end with the process, rfc6265bis-22 §5.7: a store removes the non-persistent cookies
    /// of step 6 when the session is over).
    public var persistsSessionCookies = false
    /// What to do with a file that is not a readable cookie jar (default `.fail`).
    public var unreadableFile = UnreadableFile.fail
    /// Durability of acknowledged writes (default `.processCrash`).
    public var durability = Durability.processCrash
    /// How long after a change the jar writes it in the background, coalescing every change made in
    /// the meantime into one transaction; nil writes only on `flush()` and `close()`. Default 1 s.
    public var flushDelay: Duration? = .seconds(1)
    /// Runs the background writes (default: `DispatchCookieFlushScheduler`).
    public var scheduler: any CookieFlushScheduler = DispatchCookieFlushScheduler()
    /// Hears of each background write that failed (`.busy`, `.full`, ...). Its changes stay pending and
    /// are written again after a pause that doubles from `flushDelay` (from 100 ms when it is zero) up to a
    /// minute, until a write succeeds or the jar is closed (`flush()` and `close()` throw their own errors).
    /// The changes made meanwhile wait for that write: the pauses double however many are made.
    public var backgroundWriteFailed: (@Sendable (CookieFileError) -> Void)?
    /// How long to wait for another process's lock on the file before failing with `.busy`
    /// (default 5 s).
    public var busyTimeout: Duration = .seconds(5)
    /// The most pages the file may grow to (SQLite's `max_page_count`), for tests of a full disk.
    var maximumPageCount: Int?

    /// The default options: session cookies not written, unreadable files not touched, durable
    /// across a crash of the process, written a second after a change, a busy timeout of 5 s.
    public init() {}
}
