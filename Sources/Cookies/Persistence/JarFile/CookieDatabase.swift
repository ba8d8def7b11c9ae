/// A jar file, opened and checked: the connection, and the statements that write single rows.
///
/// Opening never writes to a file before it is known to be a cookie jar of a version this library reads (a hot
/// journal beside another application's database is not rolled back into it, `checkHeader`), and loading reads
/// every row before anything else is written (so damage anywhere in the table is found
/// while the file is still untouched). A file that is not SQLite, is damaged, or is another application's
/// database raises `CookieFileError` and keeps its bytes. An empty or missing file is a new jar, but for one
/// whose `-wal` holds bytes, what is left of a database whose file was truncated or lost: it raises `.corrupt`
/// before SQLite opens it, or a missing one is created, as SQLite would take it for a new database and delete
/// the `-wal` (`checkFileNotLost`). Its directory is left as it was found when neither a `-wal` nor a `-shm`
/// was beside the file: those SQLite made go with the connection. When either was, both stay, the one SQLite
/// made for the missing one included: the WAL found there is not checkpointed into a refused file, and
/// SQLite removes the two only at such a checkpoint. A file that cannot be written raises `.readOnly`
/// before anything is read, leaving it and its directory as they are. The `-wal` and `-shm` of a file
/// reached through a symbolic link are beside the link's target, where SQLite keeps them, and every check
/// of them, or of the directory that takes them, is made there.
///
/// Not thread-safe: `CookieJarFile` serialises every use.
final class CookieDatabase {
    let path: String
    private let connection: SQLiteConnection
    private let upsert: SQLiteStatement
    private let delete: SQLiteStatement
    /// Deletes a row only while it holds the value and expiry bound (`CookieWrite.deleteIfUnchanged`).
    private let deleteIfUnchanged: SQLiteStatement
    private let touch: SQLiteStatement
    /// The instant of the opening whose purge (`purge(_:at:keepingSessionCookies:)`) found no room on the disk:
    /// the next write makes it, in its own transaction, then clears it.
    private var purgeDue: CookieTime?
    private let persistsSessionCookies: Bool
    /// The file: `path` resolved, beside which its `-wal` and `-shm` are.
    private let file: String
    /// The `-wal` and `-shm` this connection has open, by path: SQLite opens them (making them if missing)
    /// at the first transaction in WAL mode, and keeps them open until the connection closes. Those of a
    /// file in WAL mode already are known from the opening on, those it makes after the first write
    /// (`noteCompanions`).
    private var companions: [String: CookieFileSystem.FileIdentity] = [:]

    /// Opens the jar file at `path` (creating it, 0600, if missing; a missing or empty one is a new jar, unless
    /// its `-wal` holds bytes, `checkFileNotLost`), migrates an older schema, reads
    /// every unexpired cookie (session cookies too when `options.persistsSessionCookies`) into the empty
    /// `store`, then purges the expired and ended-session rows from the file (with no room on the disk for
    /// it, the next write does: `purgeDue`). Returns the database, the
    /// store filled (limits not yet enforced: `CookieStore.Loader`) and the cookies of the rows read that no
    /// jar may hold, left in the file as they are.
    static func open(
        _ path: String, options: CookieJarFileOptions, now: CookieTime, into store: CookieStore
    ) throws(CookieFileError) -> (CookieDatabase, CookieStore, notLoaded: [CookieNotLoaded]) {
        // SQLite opens the target of a symbolic link, and makes the -wal and -shm beside it.
        let file = CookieFileSystem.resolvedPath(path)
        let found = CookieFileSystem.jarFiles(at: file)
        do {
            return try openChecked(path, file: file, found: found, options: options, now: now, into: store)
        } catch where options.unreadableFile == .moveAside && error.isUnreadableFile {
            // Only the file found unreadable is moved aside, or for a file found missing the -wal and -shm it
            // left: another process may have moved them and made a new jar at the path since, which is opened
            // instead.
            _ = try CookieFileSystem.moveAside(path, ifStill: found, seconds: now.secondsSinceEpoch)
            let file = CookieFileSystem.resolvedPath(path)
            return try openChecked(
                path, file: file, found: CookieFileSystem.jarFiles(at: file), options: options, now: now, into: store)
        }
    }

    /// `open` on the jar file `file` (`path` resolved) whose files are as `found`.
    private static func openChecked(
        _ path: String, file: String, found: CookieFileSystem.JarFiles, options: CookieJarFileOptions,
        now: CookieTime, into store: CookieStore
    ) throws(CookieFileError) -> (CookieDatabase, CookieStore, notLoaded: [CookieNotLoaded]) {
        try checkFileNotLost(found, path: path)
        if found.file == nil {
            try CookieFileSystem.createPrivateFile(file, path: path)
        } else {
            if found.wal == nil { try checkHeader(file, path: path, busyTimeout: options.busyTimeout) }
            if found.wal == nil || found.shm == nil {
                try CookieFileSystem.checkDirectoryTakesCompanions(of: file, path: path)
            }
        }
        // Whether the -wal and -shm of the file in WAL mode are this opening's to make, and so to remove.
        let makesCompanions = found.wal == nil && found.shm == nil
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: file, flags: .readWrite)
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot open the jar file")
        }
        // SQLite opens a file it cannot write for reading only: refused before the first read, which would
        // make a -wal and -shm beside a file in WAL mode that a connection unable to write never removes.
        guard !connection.isReadOnly else {
            throw CookieFileError(
                .readOnly, path: path, detail: "cannot open the jar file for writing: the file is read-only")
        }
        // Until the file is known to be ours, closing must not checkpoint a foreign WAL into it.
        connection.setCheckpointsOnClose(false)
        connection.setBusyTimeout(options.busyTimeout)

        do {
            let version = try checkSchema(connection, path: path)
            var store = store
            var loader = CookieStore.Loader(filling: store, now: now)
            // An older jar is read from a copy in memory migrated first, and the file migrated only once every
            // row was read: a row that is no cookie is found while the file is untouched.
            let isOlder = version < CookieDatabaseSchema.version
            let source = isOlder ? try migratedCopy(of: connection, from: version, path: path) : connection
            let rowsRead = try readCookies(
                source, path: path, .unexpired(at: now, includingSessionCookies: options.persistsSessionCookies)
            ) { loader.append($0, to: &store) }
            if isOlder { try migrate(connection, from: version, path: path) }
            store.finishLoading()
            let database = try CookieDatabase(
                path: path, file: file, connection: connection, options: options, now: now, rowsRead: rowsRead)
            connection.setCheckpointsOnClose(true)
            return (database, store, loader.notLoaded)
        } catch {
            // Refused (or failed to open), a file found without a -wal and -shm is left without them. SQLite
            // removes the two when the last connection to the file closes, after checkpointing the WAL under
            // the file's exclusive lock, so never while another connection uses them. This opening wrote
            // nothing before the file was known to be a jar: the checkpoint writes to a refused file only what
            // another connection committed meanwhile, as that connection's closing would. When either was
            // there already, both stay, the one SQLite made for the missing one too: a WAL found there may
            // hold transactions that must not go into a refused file, and a -shm found there is not this
            // opening's to remove.
            if makesCompanions { connection.setCheckpointsOnClose(true) }
            throw error
        }
    }

    /// Refuses a file found empty or missing while its `-wal` holds bytes
    /// (`CookieFileSystem.JarFiles.walSizeBesideLostFile`): the file of a database in WAL mode, truncated or
    /// lost, which SQLite would take for a new database (a missing one once created), deleting the `-wal` at
    /// its first read. Checked from the files as `found`, before a connection is made or a file created:
    /// another process making a new jar at the same moment creates the file, then writes its header, in
    /// rollback mode, before its first WAL frame exists (`checkSchema`), so a new jar is never found so; and a
    /// `-wal` made after the check is that of a file no longer empty, which SQLite reads rather than deletes
    /// (it sizes the file under a shared lock, which the commit writing the header waits for).
    private static func checkFileNotLost(_ found: CookieFileSystem.JarFiles, path: String) throws(CookieFileError) {
        guard let walSize = found.walSizeBesideLostFile else { return }
        throw CookieFileError(
            .corrupt, path: path,
            detail: found.file == nil
                ? "the file is missing while its -wal holds \(walSize) bytes: the database's main file was lost"
                : "the file is empty while its -wal holds \(walSize) bytes: "
                    + "the database's main file was truncated or lost")
    }

    /// Refuses another application's SQLite database in WAL mode, or in rollback-journal mode beside a hot journal,
    /// or a jar of a newer schema, from the header of the file's first page
    /// (https://sqlite.org/fileformat2.html#the_database_header), read as bytes before a connection that may write
    /// is made: opened read-write, a database in WAL mode gets a `-wal` and a `-shm` file beside it, and one with a
    /// hot journal is rolled back, its pages written and the journal deleted (`hasHotJournal`). Everything else is
    /// left to `checkSchema`, which reads through SQLite and its locks (a file with a `-wal` beside it is in use,
    /// or was, and its header may be in the WAL: it is not read here). Only those headers are judged: the bytes are
    /// read without SQLite's lock, and a jar that another process is creating is written in rollback mode, whose
    /// header a read may catch half-written; a jar's switch to WAL mode rewrites its header with the same
    /// application id, and a hot journal's writer is gone. `file` is the file's resolved path, `path` the one the
    /// error names.
    private static func checkHeader(_ file: String, path: String, busyTimeout: Duration) throws(CookieFileError) {
        // Offsets 18 and 19: the read and write versions, 2 in WAL mode, 1 in rollback-journal mode.
        guard let header = try? FileBytes.contents(atPath: file, limit: 100, prefix: 100), header.count == 100,
            header.starts(with: CookieFileFormat.sqliteMagic),
            header[18] == 2 && header[19] == 2
                || header[18] == 1 && header[19] == 1 && hasHotJournal(file, busyTimeout: busyTimeout)
        else { return }
        func bigEndian(at offset: Int) -> Int64 {
            Int64(header[offset ..< offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        // Offsets 68, 60 and 40: the application id, the user version and the schema cookie (not 0 once
        // a table was made).
        let (applicationID, version, schemaCookie) = (bigEndian(at: 68), bigEndian(at: 60), bigEndian(at: 40))
        if applicationID == 0 && schemaCookie == 0 { return }
        try checkIsOurs(applicationID: applicationID, version: version, path: path)
    }

    /// Whether the database `file`, whose header says rollback-journal mode, has a hot journal beside it: a
    /// `-journal` left by a writer that ended inside a transaction, which the first connection that may write rolls
    /// back at its first read (https://sqlite.org/atomiccommit.html, "Hot Rollback Journals"), writing the original
    /// pages back to the file and deleting the journal. A connection for reading only tells: it refuses to read a
    /// file with a hot journal (`SQLiteError.isHotJournal`) rather than roll it back, and writes nothing (reading a
    /// file in WAL mode, it would make a `-wal` and a `-shm`: it is not asked about one). It waits out a writer
    /// holding the file's lock within `busyTimeout`; the journal of a transaction under way is not hot.
    private static func hasHotJournal(_ file: String, busyTimeout: Duration) -> Bool {
        guard CookieFileSystem.exists(file + "-journal") else { return false }
        do {
            let connection = try SQLiteConnection(path: file, flags: .readOnly)
            connection.setBusyTimeout(busyTimeout)
            _ = try connection.integer("PRAGMA application_id")
            return false
        } catch {
            return error.isHotJournal
        }
    }

    /// Refuses the file at `path` unless its header's `applicationID` is a jar's and its schema `version`
    /// one this library reads.
    private static func checkIsOurs(applicationID: Int64, version: Int64, path: String) throws(CookieFileError) {
        guard applicationID == CookieDatabaseSchema.applicationID else {
            throw CookieFileError(
                .foreign, path: path,
                detail: "an SQLite database, but not a cookie jar (application_id \(applicationID))")
        }
        guard version <= CookieDatabaseSchema.version else {
            throw CookieFileError(
                .newerSchema, path: path,
                detail: "written by a newer version (schema \(version); this version reads up to \(CookieDatabaseSchema.version))")
        }
    }

    /// Creates the schema in an empty file, refuses a foreign or newer one; returns the file's schema
    /// version (an older one is migrated by the caller, `migrate`).
    private static func checkSchema(_ connection: SQLiteConnection, path: String) throws(CookieFileError) -> Int64 {
        let action = "cannot read the jar file's header"
        let applicationID: Int64
        let version: Int64
        let objects: Int64
        do {
            // Read together: another process creating the file's schema commits before or after the
            // three reads, never between them (which would look like a foreign database).
            (applicationID, version, objects) = try connection.transaction(immediate: false) { () throws(SQLiteError) in
                (
                    try connection.integer("PRAGMA application_id") ?? 0, try connection.integer("PRAGMA user_version") ?? 0,
                    try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
                )
            }
        } catch {
            throw CookieFileError(error, path: path, doing: action)
        }
        if applicationID == 0 && version == 0 && objects == 0 {
            // An empty database (a new file): created in rollback-journal mode, so the application id
            // is in the main file before the first WAL frame exists. Another process opening the new
            // file at the same time may create it first: the write lock decides, and the loser checks
            // what the winner made.
            let created: Bool
            do {
                created = try connection.transaction { () throws(SQLiteError) in
                    guard try connection.integer("SELECT count(*) FROM sqlite_master") == 0 else { return false }
                    try connection.execute(CookieDatabaseSchema.create)
                    return true
                }
            } catch {
                throw CookieFileError(error, path: path, doing: "cannot create the jar file's schema")
            }
            return created ? CookieDatabaseSchema.version : try checkSchema(connection, path: path)
        }
        try checkIsOurs(applicationID: applicationID, version: version, path: path)
        return version
    }

    /// A copy in memory of the jar of schema `version` behind `connection`, moved to the current schema.
    private static func migratedCopy(
        of connection: SQLiteConnection, from version: Int64, path: String
    ) throws(CookieFileError) -> SQLiteConnection {
        let copy: SQLiteConnection
        do {
            copy = try connection.copyInMemory()
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot read the jar file")
        }
        try migrate(copy, from: version, path: path)
        return copy
    }

    /// Moves the jar of schema `version` behind `connection` to the current schema, in one transaction.
    /// The version is read again under the transaction's write lock: another process that opened the file
    /// at the same time may have migrated it since (an app and its extension after an upgrade), and only
    /// what is left is done.
    static func migrate(_ connection: SQLiteConnection, from version: Int64, path: String) throws(CookieFileError) {
        // The migrations from `version` on, each the one from `version + offset`.
        var migrations: [String] = []
        for from in version..<CookieDatabaseSchema.version {
            guard let migration = CookieDatabaseSchema.migration(from: from) else {
                throw CookieFileError(.corrupt, path: path, detail: "unknown schema version \(version)")
            }
            migrations.append(migration)
        }
        do {
            try connection.transaction { () throws(SQLiteError) in
                let current = try connection.integer("PRAGMA user_version") ?? 0
                for (offset, migration) in migrations.enumerated() where version + Int64(offset) >= current {
                    try connection.execute(migration)
                }
            }
        } catch where error.isConstraintViolation {
            // A row the older schema holds that the newer one's constraints refuse: one that is no cookie.
            throw CookieFileError(
                .corrupt, path: path,
                detail: "cannot migrate the jar file from schema \(version): a row is not a valid cookie: \(error.message)")
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot migrate the jar file from schema \(version)")
        }
    }

    /// Every row of the jar file at `path`, expired and session cookies included, read without writing
    /// anything or creating anything beside it, whether or not the file and its directory can be written
    /// (for tools: `cookiejar inspect`, `export`), cookies no jar may hold included (`LoadedCookie.rejection`:
    /// a tool says why a jar refuses them). A jar of an older schema is migrated in a copy in memory;
    /// the file stays as it is. An empty file whose `-wal` holds bytes throws `.corrupt` before SQLite opens
    /// it (`checkFileNotLost`): SQLite, even reading only, would take it for a new database and delete the `-wal`;
    /// a missing one throws `.corrupt` too, naming the lost file, where SQLite would fail to open it.
    /// A lock held by a writer, or another process rebuilding the WAL's index (the first to open a file
    /// whose `-wal` outlived its last connection), is waited for up to `busyTimeout`. A file without a `-wal`,
    /// or whose `-wal` has no `-shm`, is read without a lock (`UnlockedReading`): when another process opens
    /// it meanwhile and changes it, the reading is made again, and after `UnlockedReading.attempts` such
    /// readings throws `.busy`. `whileReadingUnlocked` runs in the middle of each such reading (after the
    /// header, before the rows): a test stands in there for that process.
    static func snapshot(
        _ path: String, busyTimeout: Duration = CookieJarFileOptions().busyTimeout,
        whileReadingUnlocked: () -> Void = {}
    ) throws(CookieFileError) -> [Cookie] {
        // SQLite opens the target of a symbolic link, and finds the -wal and -shm beside it.
        let file = CookieFileSystem.resolvedPath(path)
        // Only a -wal with its -shm is read through SQLite's locks; without a -shm, or without a -wal (the file
        // read immutable), another process may open the file, write and close it, checkpointing its WAL into
        // the file, during the reading. The reading stands only when the file, its -wal and its -shm are as they
        // were; otherwise it is made again, and finds the -shm of the process that has the file open, or no
        // -wal once it closed.
        let isUnlocked = { (found: CookieFileSystem.JarFiles) in found.wal == nil || found.shm == nil }
        return try UnlockedReading.read(
            path: path, doing: "cannot read the jar file", files: { CookieFileSystem.jarFiles(at: file) },
            isUnlocked: isUnlocked
        ) { found throws(CookieFileError) in
            try checkFileNotLost(found, path: path)
            let connection: SQLiteConnection
            do throws(SQLiteError) {
                // SQLite reads a WAL database it cannot write, or without making its -wal and -shm, only
                // when they exist or the file is opened immutable (https://sqlite.org/wal.html#readonly).
                connection =
                    if found.wal == nil {
                        // No connection has the file in WAL mode (each keeps the -wal while it has the file
                        // open): every committed transaction is in the file itself, read immutable.
                        try SQLiteConnection(immutableFileAt: file)
                    } else if found.shm != nil {
                        // A jar in use, or left with its WAL's index: read through that index, shared with
                        // the connections that write (SQLite reads it even where it cannot write to it).
                        try SQLiteConnection(path: file, flags: .readOnly)
                    } else {
                        // A WAL left by a process that ended without checkpointing, or copied without its
                        // index: no connection had the file (each keeps the -shm while it has the file
                        // open, and the last to close removes it), so an index of this connection's own
                        // is correct, and the WAL's transactions are read without making a -shm.
                        try SQLiteConnection(privateWALIndexFileAt: file)
                    }
            } catch {
                throw CookieFileError(error, path: path, doing: "cannot open the jar file")
            }
            return try allCookies(
                connection, path: path, busyTimeout: busyTimeout,
                afterHeader: isUnlocked(found) ? whileReadingUnlocked : {})
        }
    }

    /// Every row of the jar file behind `connection` (opened on `path` for reading), expired and session
    /// cookies included; a jar of an older schema is migrated in a copy in memory. `afterHeader` runs once
    /// the header is read, before the rows are.
    private static func allCookies(
        _ connection: SQLiteConnection, path: String, busyTimeout: Duration, afterHeader: () -> Void
    ) throws(CookieFileError) -> [Cookie] {
        var connection = connection
        connection.setCheckpointsOnClose(false)
        connection.setBusyTimeout(busyTimeout)
        let applicationID: Int64
        let version: Int64
        do {
            applicationID = try connection.integer("PRAGMA application_id") ?? 0
            version = try connection.integer("PRAGMA user_version") ?? 0
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot read the jar file's header")
        }
        afterHeader()
        try checkIsOurs(applicationID: applicationID, version: version, path: path)
        if version < CookieDatabaseSchema.version { connection = try migratedCopy(of: connection, from: version, path: path) }
        var cookies: [Cookie] = []
        // Room for every row, so that the array never grows by copying (counting reads the table's
        // pages, not its rows); a count that failed or changed since only costs that copying.
        if let rows = try? connection.integer("SELECT count(*) FROM cookies") { cookies.reserveCapacity(Int(clamping: rows)) }
        _ = try readCookies(connection, path: path, .all) { cookie in
            cookies.append(cookie.cookie(sharingStringsOf: cookies.last))
        }
        return cookies
    }

    /// Which rows of the table `readCookies` hands over.
    private enum RowSelection {
        /// Every row, whatever its expiry.
        case all
        /// The rows of cookies unexpired at an instant; session cookies only when asked.
        case unexpired(at: CookieTime, includingSessionCookies: Bool)
    }

    /// Hands `body` the cookie of every row of `selection`, row by row, and returns how many there were; a
    /// row that is not a complete cookie (a column of the wrong type, a value the schema's CHECKs forbid,
    /// text that is not UTF-8) is corruption, and ends the reading with an error naming the row (and the
    /// column, for text that is not UTF-8). A cookie no jar may hold is the caller's to refuse
    /// (`LoadedCookie.rejection`).
    private static func readCookies(
        _ connection: SQLiteConnection, path: String, _ selection: RowSelection, _ body: (LoadedCookie) -> Void
    ) throws(CookieFileError) -> Int {
        let invalidRow: (id: Int64, reason: InvalidRow)?
        var rowsRead = 0
        do {
            let select: SQLiteStatement
            switch selection {
            case .all:
                select = try connection.prepare("SELECT id, \(CookieDatabaseSchema.columns) FROM cookies")
            case .unexpired(let now, let includingSessionCookies):
                select = try connection.prepare(
                    "SELECT id, \(CookieDatabaseSchema.columns) FROM cookies WHERE expiry > ?1 OR (?2 AND expiry IS NULL)")
                try select.bind(now.microsecondsSinceEpoch, at: 1)
                try select.bind(includingSessionCookies, at: 2)
            }
            // The next row's cookie, nil after the last.
            let next = { () throws(RowFailure) -> LoadedCookie? in
                do throws(SQLiteError) {
                    guard try select.step() else { return nil }
                } catch {
                    throw .sqlite(error)
                }
                do throws(InvalidRow) {
                    return try self.cookie(in: select, offset: 1)
                } catch {
                    throw .invalid(id: select.int64(at: 0), reason: error)
                }
            }
            invalidRow = try { () throws(SQLiteError) -> (id: Int64, reason: InvalidRow)? in
                do throws(RowFailure) {
                    // Reads rows on this thread until `limit` were read; false after the last row (a
                    // statement stepped again after its last row starts over).
                    func readHere(until limit: Int) throws(RowFailure) -> Bool {
                        while rowsRead < limit {
                            guard let cookie = try next() else { return false }
                            body(cookie)
                            rowsRead += 1
                        }
                        return true
                    }
                    // A file of more rows than `rowsReadAlone` has the rest read ahead (`RowReadAhead`).
                    if try readHere(until: rowsReadAlone) {
                        if let readAhead = RowReadAhead.start(next: next) {
                            rowsRead += try readAhead.forEach(body)
                        } else {
                            _ = try readHere(until: .max)
                        }
                    }
                    return nil
                } catch {
                    switch error {
                    case .sqlite(let error): throw error
                    case .invalid(let id, let reason): return (id, reason)
                    }
                }
            }()
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot read the cookies")
        }
        if let invalidRow {
            throw CookieFileError(
                .corrupt, path: path,
                detail: "row \(invalidRow.id) of table cookies is not a valid cookie: \(invalidRow.reason.explanation)")
        }
        return rowsRead
    }

    /// How many rows of a file are read on the opening thread alone before the rest are read ahead on a
    /// thread of their own (`RowReadAhead`): a load of fewer rows is over before a thread would pay for
    /// itself (making one costs about as much as reading a hundred rows).
    static let rowsReadAlone = 512

    /// What ends a reading of the rows before the last: SQLite's error, or a row that is no cookie.
    private enum RowFailure: Error {
        case sqlite(SQLiteError)
        case invalid(id: Int64, reason: InvalidRow)
    }

    /// Why a row of table cookies holds no cookie (`cookie(in:offset:)`): which column, and what is wrong
    /// with it.
    private struct InvalidRow: Error {
        enum Problem: String {
            case notText = "is not text"
            case notInteger = "is not an integer"
            case notIntegerOrNull = "is neither an integer nor NULL"
            case notUTF8 = "is not valid UTF-8"
            case outOfRange = "holds a value the schema does not allow"
        }

        let column: StaticString
        let problem: Problem

        /// The reason, as the error's detail ends: "its same_site column holds a value …".
        var explanation: String { "its \(column) column \(problem.rawValue)" }
    }

    /// The cookie in the columns starting at `offset` (in `CookieDatabaseSchema.columns` order), read in
    /// place. Throws, naming the column, when a column has the wrong type or a value the schema's CHECKs
    /// forbid (a row written by hand or damaged), or when a text is not well-formed UTF-8 (a jar writes
    /// Strings, whose UTF-8 always is; a String made of other bytes would hold U+FFFD instead, a changed
    /// cookie that the next write would store).
    private static func cookie(in row: SQLiteStatement, offset: Int32) throws(InvalidRow) -> LoadedCookie {
        @inline(__always)
        func text(_ index: Int32, _ column: StaticString) throws(InvalidRow) -> UnsafeBufferPointer<UInt8> {
            guard let text = row.column(offset + index).text else { throw InvalidRow(column: column, problem: .notText) }
            guard text.isWellFormedUTF8 else { throw InvalidRow(column: column, problem: .notUTF8) }
            return text
        }
        @inline(__always)
        func integer(_ index: Int32, _ column: StaticString) throws(InvalidRow) -> Int64 {
            guard let integer = row.column(offset + index).integer else { throw InvalidRow(column: column, problem: .notInteger) }
            return integer
        }
        // A flag's CHECK: 0 or 1.
        @inline(__always)
        func flag(_ index: Int32, _ column: StaticString) throws(InvalidRow) -> Bool {
            switch try integer(index, column) {
            case 0: return false
            case 1: return true
            default: throw InvalidRow(column: column, problem: .outOfRange)
            }
        }
        @inline(__always)
        func integerOrNull(_ index: Int32, _ column: StaticString) throws(InvalidRow) -> Int64? {
            guard let integer = row.column(offset + index).integerOrNull else {
                throw InvalidRow(column: column, problem: .notIntegerOrNull)
            }
            return integer
        }
        let name = try text(0, "name"), value = try text(1, "value"), domain = try text(2, "domain")
        let isHostOnly = try flag(3, "host_only"), path = try text(4, "path"), partitionKey = try text(5, "partition_key")
        let expiry = try integerOrNull(6, "expiry"), creation = try integer(7, "creation")
        let lastAccess = try integer(8, "last_access"), isSecure = try flag(9, "secure"), isHTTPOnly = try flag(10, "http_only")
        // The CHECKs of same_site and source_port.
        guard let sameSite = CookieDatabaseSchema.sameSite(code: try integer(11, "same_site")) else {
            throw InvalidRow(column: "same_site", problem: .outOfRange)
        }
        let isSourceSecure = try flag(12, "source_secure"), sourcePort = try integerOrNull(13, "source_port")
        if let sourcePort, !(0...Int64(UInt16.max)).contains(sourcePort) {
            throw InvalidRow(column: "source_port", problem: .outOfRange)
        }
        return LoadedCookie(
            name: name, value: value, domain: domain, path: path, partitionKey: partitionKey.isEmpty ? nil : partitionKey,
            isHostOnly: isHostOnly, expiry: expiry.map(CookieTime.init(microsecondsSinceEpoch:)),
            creation: CookieTime(microsecondsSinceEpoch: creation), lastAccess: CookieTime(microsecondsSinceEpoch: lastAccess),
            isSecure: isSecure, isHTTPOnly: isHTTPOnly, sameSite: sameSite, isSourceSecure: isSourceSecure,
            sourcePort: sourcePort.map { Int(clamping: $0) })
    }

    /// Finishes opening a file whose cookies were read (`rowsRead` rows): purges what must not outlive
    /// the load (or, when the disk has no room for it, leaves it to the next write), turns on WAL, prepares
    /// the write statements.
    private init(
        path: String, file: String, connection: SQLiteConnection, options: CookieJarFileOptions, now: CookieTime,
        rowsRead: Int
    ) throws(CookieFileError) {
        self.path = path
        self.file = file
        self.connection = connection
        persistsSessionCookies = options.persistsSessionCookies
        let identity = "name = ?1 AND domain = ?2 AND host_only = ?3 AND path = ?4 AND partition_key = ?5"
        do {
            // When the table holds just the rows read, none is left to purge and the purge's scan of every
            // row is skipped (counting reads the table's pages, not its rows). Another connection's commit
            // since the read at worst leaves an expired row to the next purge.
            if try connection.integer("SELECT count(*) FROM cookies") != Int64(rowsRead) {
                do {
                    try Self.purge(connection, at: now, keepingSessionCookies: options.persistsSessionCookies)
                } catch where error.isFull {
                    // The rows purged were not loaded: they wait in the file for a write that has room, and
                    // the jar opens with what it read.
                    purgeDue = now
                }
            }
            // WAL (https://sqlite.org/wal.html): a commit appends to the -wal file, and a crash at any
            // point leaves the database as of the last commit.
            _ = try connection.prepare("PRAGMA journal_mode = WAL").step()
            let synchronous = options.durability == .powerLoss ? "FULL" : "NORMAL"
            try connection.execute("PRAGMA synchronous = \(synchronous)")
            if let pages = options.maximumPageCount { _ = try connection.integer("PRAGMA max_page_count = \(pages)") }
            upsert = try connection.prepare(
                """
                INSERT INTO cookies (\(CookieDatabaseSchema.columns))
                VALUES (?1, ?6, ?2, ?3, ?4, ?5, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
                ON CONFLICT (name, domain, host_only, path, partition_key) DO UPDATE SET
                    value = excluded.value, expiry = excluded.expiry, creation = excluded.creation,
                    last_access = excluded.last_access, secure = excluded.secure, http_only = excluded.http_only,
                    same_site = excluded.same_site, source_secure = excluded.source_secure,
                    source_port = excluded.source_port
                """)
            delete = try connection.prepare("DELETE FROM cookies WHERE \(identity)")
            deleteIfUnchanged = try connection.prepare("DELETE FROM cookies WHERE \(identity) AND value = ?6 AND expiry IS ?7")
            touch = try connection.prepare(
                "UPDATE cookies SET last_access = ?6 WHERE \(identity) AND last_access < ?6")
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot prepare the jar file for writing")
        }
        noteCompanions()
    }

    /// Deletes the rows that must not outlive a load at `now`: the cookies expired, and the session cookies
    /// unless `keepingSessionCookies`.
    private static func purge(
        _ connection: SQLiteConnection, at now: CookieTime, keepingSessionCookies: Bool
    ) throws(SQLiteError) {
        let purge = try connection.prepare("DELETE FROM cookies WHERE expiry <= ?1 OR (NOT ?2 AND expiry IS NULL)")
        try purge.bind(now.microsecondsSinceEpoch, at: 1)
        try purge.bind(keepingSessionCookies, at: 2)
        try purge.run()
    }

    /// Writes `rows` and the last-access times of `accessed` in one transaction: all of them or, when
    /// it throws, none. Returns how many rows changed. The purge that the opening left for lack of room
    /// (`purgeDue`) goes first, in the same transaction; its rows are not counted.
    ///
    /// Deletions go first, then the cookies grouped by site, each site's in send order (§5.8.3 step 2:
    /// longer paths first, then earlier creation; `JarFileRowOrder`): a new row takes the next row id, and
    /// the rows are read back in row-id order, so a file written in one go loads site by site and without
    /// sorting (`SiteCookies.restoreSendOrder`). A replaced row keeps its id and, for a received cookie, its
    /// place: the path is the identity's and the creation time the old cookie's (§5.7 step 23.3).
    func write(_ rows: some Collection<CookieWrite>, lastAccess accessed: [Cookie]) throws(CookieFileError) -> Int {
        // A single row, the usual flush, is in order as it is (and no array is made of it).
        guard rows.count > 1 else { return try write(inFileOrder: rows, lastAccess: accessed) }
        let ordered = rows.map { (order: JarFileRowOrder($0), row: $0) }.sorted { $0.order < $1.order }.map(\.row)
        return try write(inFileOrder: ordered, lastAccess: accessed)
    }

    /// `write(_:lastAccess:)` with `rows` in the order they go to the file.
    private func write(inFileOrder rows: some Collection<CookieWrite>, lastAccess accessed: [Cookie]) throws(CookieFileError) -> Int {
        if removeCompanionsIfMoved() {
            throw CookieFileError(
                .io, path: path,
                detail: "cannot write the cookies: the jar file was deleted or replaced since this jar opened it; nothing was written, and the changes stay pending (open the jar file again)")
        }
        do {
            let changed = try connection.transaction { () throws(SQLiteError) in
                if let purgeDue { try Self.purge(connection, at: purgeDue, keepingSessionCookies: persistsSessionCookies) }
                var changed = 0
                for row in rows {
                    switch row {
                    case .upsert(let cookie):
                        try bind(CookieIdentity(cookie), to: upsert)
                        try upsert.bind(cookie.value, at: 6)
                        try upsert.bind(cookie.expiry?.microsecondsSinceEpoch, at: 7)
                        try upsert.bind(cookie.creation.microsecondsSinceEpoch, at: 8)
                        try upsert.bind(cookie.lastAccess.microsecondsSinceEpoch, at: 9)
                        try upsert.bind(cookie.isSecure, at: 10)
                        try upsert.bind(cookie.isHTTPOnly, at: 11)
                        try upsert.bind(CookieDatabaseSchema.code(of: cookie.sameSite), at: 12)
                        try upsert.bind(cookie.isSourceSecure, at: 13)
                        try upsert.bind(cookie.sourcePort.map(Int64.init), at: 14)
                        try upsert.run()
                    case .delete(let identity):
                        try bind(identity, to: delete)
                        try delete.run()
                    case .deleteIfUnchanged(let cookie):
                        try bind(CookieIdentity(cookie), to: deleteIfUnchanged)
                        try deleteIfUnchanged.bind(cookie.value, at: 6)
                        try deleteIfUnchanged.bind(cookie.expiry?.microsecondsSinceEpoch, at: 7)
                        try deleteIfUnchanged.run()
                    }
                    changed += connection.changes
                }
                for cookie in accessed {
                    try bind(CookieIdentity(cookie), to: touch)
                    try touch.bind(cookie.lastAccess.microsecondsSinceEpoch, at: 6)
                    try touch.run()
                    changed += connection.changes
                }
                return changed
            }
            purgeDue = nil
            noteCompanions()
            return changed
        } catch {
            throw CookieFileError(error, path: path, doing: "cannot write the cookies")
        }
    }

    deinit {
        _ = removeCompanionsIfMoved()
    }

    /// Notes the identities of the `-wal` and `-shm` found beside the file, when either is not known yet.
    private func noteCompanions() {
        guard companions.count < 2 else { return }
        for companion in [file + "-wal", file + "-shm"] { companions[companion] = CookieFileSystem.identity(companion) }
    }

    /// When the file was deleted or replaced while this connection had it open, removes the `-wal` and
    /// `-shm` beside its path that are still this connection's own, and returns true. SQLite would leave
    /// them there, its last connection closing without a checkpoint: a `-wal` beside a missing file stops
    /// every later opening (`checkFileNotLost`: what is left of a lost file), and one beside a replacement
    /// would be replayed into it, its pages over the other file's.
    private func removeCompanionsIfMoved() -> Bool {
        guard connection.fileHasMoved else { return false }
        for (companion, identity) in companions { CookieFileSystem.remove(companion, ifStill: identity) }
        return true
    }

    private func bind(_ identity: CookieIdentity, to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(identity.name, at: 1)
        try statement.bind(identity.domain, at: 2)
        try statement.bind(identity.isHostOnly, at: 3)
        try statement.bind(identity.path, at: 4)
        try statement.bind(identity.partitionKey ?? "", at: 5)
    }
}

extension CookieFileError {
    /// True for the files `CookieJarFileOptions.UnreadableFile.moveAside` moves aside: damaged ones, not SQLite or
    /// corrupt. Another application's database (`.foreign`, which that application may have open) and a jar of a
    /// newer schema are healthy files of someone else's, left where they are.
    var isUnreadableFile: Bool { code == .notADatabase || code == .corrupt }
}
