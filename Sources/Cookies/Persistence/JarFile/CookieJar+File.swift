extension CookieJar {
    /// A jar kept in the SQLite file at `path`: opens it (creating it, readable by its owner only, if
    /// missing), loads its cookies, and from then on writes every change to it incrementally (see
    /// `CookieJarFileOptions` for when). Call `close()` before the app ends, or `flush()` whenever a change
    /// must be on disk.
    ///
    /// Expired cookies are not loaded and are purged from the file (on a full disk, by the next write);
    /// session cookies are neither
    /// loaded nor written unless `options.persistsSessionCookies`. A row holding a cookie no jar may hold
    /// (one `insert(_:)` refuses, such as a value with a CR LF) is not loaded, nor deleted: it is listed in
    /// `cookiesNotLoaded`. An empty file is a new jar. A file that
    /// is not a cookie jar (not SQLite, damaged, truncated, another application's database, an empty or
    /// missing file whose `-wal` holds bytes: a jar whose file was truncated, deleted or lost in a copy)
    /// throws and is left untouched, nothing created, unless `options.unreadableFile` is `.moveAside`; a file
    /// of a newer schema always throws `.newerSchema`. Nothing is left beside a file refused, but for one
    /// found with only one of its `-wal` and `-shm`: it keeps the other, which SQLite made (a WAL found there
    /// is never checkpointed into a refused file, and SQLite removes the two only at such a checkpoint). A
    /// file that cannot be written (nor its directory, where SQLite makes the file's `-wal` and `-shm` when
    /// they are missing) throws `.readOnly` before anything is read, and is left as it is:
    /// `CookieImportFile.read(path:now:lenient:)` reads it without writing. For a symbolic link, that
    /// directory is the link target's, where SQLite keeps the `-wal` and `-shm`. A full disk (or disk quota)
    /// throws `.full` where opening must write: the `-shm` of a file closed cleanly, which has none (SQLite
    /// makes it at the first read; the file is left as it is), the schema of a new jar, the migration of an
    /// older one. The purge of expired and session rows is no such write: with no room for it, the jar opens
    /// with what it loaded, and the rows stay in the file until its next write that finds room. Another jar (in this or
    /// another process) may share the file: each writes only what it changed, so their changes merge. Jars
    /// sharing a file must be opened with the same `options.persistsSessionCookies` and `limits`: opening
    /// deletes the session cookies this jar does not keep and the cookies over its limits
    /// (`evictedAtLoading`), whichever jar wrote them.
    public convenience init(
        contentsOf path: String, options: CookieJarFileOptions = CookieJarFileOptions(),
        publicSuffixList: any PublicSuffixList = SystemPublicSuffixList.shared, limits: CookieLimits = .default,
        clock: any CookieClock = SystemCookieClock()
    ) throws(CookieFileError) {
        let now = clock.now()
        let (file, store, notLoaded) = try CookieJarFile.open(
            path, options: options, now: now, into: CookieStore(publicSuffixList: publicSuffixList, limits: limits))
        let persistence = CookieJarPersistence(store: file, options: options.writeOptions, now: now, notLoaded: notLoaded)
        self.init(store: store, clock: clock, persistence: persistence)
        persistence.attach(to: self)
    }

    /// The jar's file, if it is kept in one.
    private var file: CookieJarFile? { persistence?.store as? CookieJarFile }

    /// The path of the file the jar is kept in; nil for an in-memory jar.
    public var filePath: String? { file?.path }

    /// Writes every change not yet written, in one transaction, and returns how many rows changed.
    /// When it returns, the changes survive a crash of the process (and a power loss with
    /// `CookieJarFileOptions.Durability.powerLoss`). When it throws (disk full, read-only file, file
    /// locked past the busy timeout), the jar keeps working in memory, the file keeps its last good
    /// state, and the changes stay pending for the next flush. The first flush that writes also makes the
    /// purge of expired and session rows that the opening found no room for, in the same transaction. Does nothing for an in-memory jar, or one
    /// kept in another store (which `flush(to:)` writes).
    @discardableResult
    public func flush() throws(CookieFileError) -> Int {
        guard let file else { return 0 }
        return try flush(to: file)
    }

    /// Writes what is pending (last-access times included) and closes the file. The jar keeps its
    /// cookies in memory, but later changes are not written. When it throws, the file stays open. Does
    /// nothing for an in-memory jar, or one kept in another store (which `close(_:)` closes).
    public func close() throws(CookieFileError) {
        guard let file else { return }
        try close(file)
    }
}
