
/// The SQLite file behind a persistent `CookieJar` (`CookieJar(contentsOf:)`): the `CookieJarStore`
/// that writes each batch of the jar's changes in one transaction. A `Set-Cookie` rewrites one row,
/// never the file.
///
/// Two jars (in one process or two) may share a file: SQLite's locks and the busy timeout serialise
/// their transactions, and since each writes only the rows it changed (upserts and deletes by
/// identity), their writes merge — for one cookie, the last flush wins. A jar does not see another's
/// changes until it is reopened. Opening deletes the session cookies the opening jar does not keep and
/// the cookies over its limits, so the jars sharing a file must agree on both.
final class CookieJarFile: CookieJarStore {
    let path: String
    let options: CookieJarFileOptions
    /// The open file; nil once closed.
    private let database: CookieLock<CookieDatabase?>

    private init(path: String, options: CookieJarFileOptions, database: sending CookieDatabase) {
        self.path = path
        self.options = options
        self.database = CookieLock(database)
    }

    /// Opens the file at `path` and reads its cookies into the empty `store`, for the jar that
    /// `CookieJarPersistence.attach(to:)` then follows.
    static func open(
        _ path: String, options: CookieJarFileOptions, now: CookieTime, into store: CookieStore
    ) throws(CookieFileError) -> (CookieJarFile, CookieStore, notLoaded: [CookieNotLoaded]) {
        let (database, loaded, notLoaded) = try CookieDatabase.open(path, options: options, now: now, into: store)
        return (CookieJarFile(path: path, options: options, database: database), loaded, notLoaded)
    }

    /// Writes the changes and the last-access times in one transaction. When it throws, the file keeps
    /// its last good state.
    func write(_ changes: CookieJarChanges) throws(CookieFileError) -> Int {
        let result: Result<Int, CookieFileError> = database.withLock { database in
            guard let database else { return .success(0) }
            return Result { () throws(CookieFileError) in
                try database.write(changes.writes.values, lastAccess: changes.lastAccess)
            }
        }
        return try result.get()
    }

    func close() {
        database.withLock { $0 = nil }
    }
}
