import CSQLite

// The one file that calls SQLite (https://sqlite.org/c3ref/intro.html): a small typed wrapper over a
// connection and its prepared statements. Everything else in the package speaks to these types.

/// A failed SQLite call: the extended result code, SQLite's message, and the `errno` of the system call
/// that failed under it. SQLite's messages name tables, columns and constraints, never the values bound to
/// a statement, so they never contain a cookie value.
struct SQLiteError: Error, Sendable {
    /// The extended result code (https://sqlite.org/rescode.html).
    let code: Int32
    let message: String
    /// For an I/O error (SQLITE_IOERR and its extended codes, SQLITE_CANTOPEN), the `errno` of the system call
    /// that failed (`sqlite3_system_errno`, https://sqlite.org/c3ref/system_errno.html); 0 when unknown. SQLite
    /// sets it only for those codes: for any other, the value is a leftover and is not read.
    let systemErrno: Int32

    init(code: Int32, message: String, systemErrno: Int32 = 0) {
        self.code = code
        self.message = message
        self.systemErrno = systemErrno
    }

    /// The primary result code (the low byte of the extended code).
    var primaryCode: Int32 { code & 0xff }

    /// The `errno` of the system call under an I/O error or a file SQLite could not open (`systemErrno`);
    /// nil for any other error, or when SQLite recorded none. A short read and the extended cannot-open
    /// codes (no temporary directory, a directory, a path it could not make whole) come from no failed
    /// system call: their `errno` would be a leftover of an earlier one.
    var systemCallErrno: Int32? {
        let fromASystemCall = (primaryCode == SQLITE_IOERR && code != csqlite_ioerr_short_read) || code == SQLITE_CANTOPEN
        return fromASystemCall && systemErrno != 0 ? systemErrno : nil
    }

    var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT }
    var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }
    /// No room on the disk: SQLITE_FULL (a write to the file or its `-wal` fell short, or the file reached its
    /// `max_page_count`), or an I/O error whose system call failed with ENOSPC or EDQUOT (a full disk or quota
    /// met while SQLite grows its `-shm`, SQLITE_IOERR_SHMSIZE, or writes its journal).
    var isFull: Bool { primaryCode == SQLITE_FULL || isIOErrorOfFullDisk }
    /// An I/O error whose system call failed with ENOSPC or EDQUOT: SQLite's message says "disk I/O error".
    var isIOErrorOfFullDisk: Bool {
        primaryCode == SQLITE_IOERR && (systemCallErrno == csqlite_enospc || systemCallErrno == csqlite_edquot)
    }
    var isReadOnly: Bool { primaryCode == SQLITE_READONLY || primaryCode == SQLITE_PERM }
    /// A statement would break a NOT NULL, CHECK or UNIQUE constraint of the schema.
    var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }
    /// A connection for reading only found a hot journal beside a database in rollback-journal mode, which
    /// only a connection that may write rolls back (https://sqlite.org/rescode.html#readonly_rollback).
    var isHotJournal: Bool { code == csqlite_readonly_rollback }
}

/// How to open a database file (the `SQLITE_OPEN_*` flags of `sqlite3_open_v2`).
struct SQLiteOpenFlags: OptionSet, Sendable {
    let rawValue: Int32

    static let readOnly = SQLiteOpenFlags(rawValue: SQLITE_OPEN_READONLY)
    static let readWrite = SQLiteOpenFlags(rawValue: SQLITE_OPEN_READWRITE)
    static let create = SQLiteOpenFlags(rawValue: SQLITE_OPEN_CREATE)
    /// The path is a `file:` URI (https://sqlite.org/uri.html), e.g. with `immutable=1`.
    static let uri = SQLiteOpenFlags(rawValue: SQLITE_OPEN_URI)
    /// The connection is used by one thread at a time (its owner holds a lock around it).
    static let noMutex = SQLiteOpenFlags(rawValue: SQLITE_OPEN_NOMUTEX)
}

/// One connection to a database file. Not thread-safe: its owner serialises every use.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private let fileLocking: FileLocking

    /// How the connection's descriptor of its database file bears on this process's POSIX locks on the file
    /// (`SQLiteLockedFiles`).
    private enum FileLocking {
        /// A connection of the unix VFS to a file, which locks it as it reads and writes: counted in
        /// `SQLiteLockedFiles` from its opening to its closing.
        case locks(CookieFileSystem.FileIdentity)
        /// A connection over the `unix-none` VFS, which takes no lock but closes its descriptor at once: closed
        /// only once no connection of this process locks the file.
        case closesAtOnce(CookieFileSystem.FileIdentity?)
        /// Neither: a database in memory, or a file opened `immutable=1`, which takes no lock and whose descriptor
        /// SQLite's unix VFS keeps open while another connection of the process locks the file.
        case neither
    }

    /// Opens `path`: a database file, locked as it is read and written, or ":memory:". The corresponding C
    /// function is `sqlite3_open_v2`.
    convenience init(path: String, flags: SQLiteOpenFlags) throws(SQLiteError) {
        try self.init(name: path, flags: flags, file: path == ":memory:" ? nil : path, locksFile: true)
    }

    /// Opens `name` (a path or a `file:` URI) for the database file at `file`, which the connection locks
    /// (`locksFile`) or reads without a lock; nil for a database in memory or a file opened `immutable=1`
    /// (`FileLocking.neither`).
    private init(name: String, flags: SQLiteOpenFlags, file: String?, locksFile: Bool) throws(SQLiteError) {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(name, &handle, flags.union(.noMutex).rawValue, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            let systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(handle)
            throw SQLiteError(code: status, message: message, systemErrno: systemErrno)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        guard let file else {
            fileLocking = .neither
            return
        }
        // The file at the path once SQLite has opened it (and created it, if it was missing). Opening reads no
        // page and takes no lock, the first statement does: the file is counted before its first lock.
        let identity = CookieFileSystem.identity(file)
        if !locksFile {
            fileLocking = .closesAtOnce(identity)
        } else if let identity {
            fileLocking = .locks(identity)
            SQLiteLockedFiles.add(identity)
        } else {
            // Deleted or replaced already: left uncounted.
            fileLocking = .neither
        }
    }

    deinit {
        switch fileLocking {
        case .locks(let file):
            sqlite3_close_v2(handle)
            SQLiteLockedFiles.remove(file)
        case .closesAtOnce(let file):
            nonisolated(unsafe) let handle = handle
            SQLiteLockedFiles.whenUnlocked(file) { sqlite3_close_v2(handle) }
        case .neither:
            sqlite3_close_v2(handle)
        }
    }

    private func error(_ status: Int32) -> SQLiteError {
        SQLiteError(
            code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
            systemErrno: sqlite3_system_errno(handle))
    }

    /// Runs one or more statements that return no rows. The corresponding C function is `sqlite3_exec`.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// Compiles one statement. The corresponding C function is `sqlite3_prepare_v2`.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        return SQLiteStatement(statement, connection: self)
    }

    /// The single integer a query returns (e.g. a `PRAGMA`), or nil when it returns no row.
    func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    /// How long a statement waits for another connection's lock before failing with SQLITE_BUSY: SQLite's
    /// busy handler sleeps and retries until then (whole milliseconds, at most a day). It also waits out
    /// another connection's rebuilding of a WAL file's index, which fails a read with
    /// SQLITE_BUSY_RECOVERY meanwhile (https://sqlite.org/rescode.html#busy_recovery). The corresponding
    /// C function is `sqlite3_busy_timeout`.
    func setBusyTimeout(_ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        sqlite3_busy_timeout(handle, Int32(clamping: min(seconds, 86_400) * 1000 + attoseconds / 1_000_000_000_000_000))
    }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// True when the file this connection has open is no longer at its path: deleted, or replaced by another
    /// (`SQLITE_FCNTL_HAS_MOVED`). SQLite goes on writing to the file it has open, which no one reads again.
    var fileHasMoved: Bool {
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }

    /// True when the file could only be opened for reading (SQLite falls back to read-only when the
    /// file is not writable).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Whether closing the last connection checkpoints the WAL into the database file. Off while the
    /// file is not known to be ours, so that looking at a foreign file never writes to it.
    func setCheckpointsOnClose(_ enabled: Bool) {
        _ = csqlite_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1)
    }

    /// Runs `body` in an IMMEDIATE transaction (the write lock is taken at BEGIN, so a busy database
    /// waits in the busy handler there rather than failing at COMMIT); rolls back when it throws.
    /// With `immediate` false, a DEFERRED one for reading: every read in `body` sees the same state of
    /// the file, another connection's commit landing before or after all of them.
    func transaction<R>(immediate: Bool = true, _ body: () throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// A copy of the database in memory, to change without writing to the file (an old jar migrated
    /// for reading). The corresponding C functions are `sqlite3_backup_init`, `_step` and `_finish`.
    func copyInMemory() throws(SQLiteError) -> SQLiteConnection {
        let copy = try SQLiteConnection(path: ":memory:", flags: [.readWrite, .create])
        guard let backup = sqlite3_backup_init(copy.handle, "main", handle, "main") else { throw copy.error(SQLITE_ERROR) }
        let status = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE else { throw copy.error(status) }
        return copy
    }

    fileprivate func statementError(_ status: Int32) -> SQLiteError { error(status) }
}

/// A prepared statement: bind parameters (1-based), step through rows, read columns (0-based), reset.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection

    fileprivate init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Clears the bindings and rewinds the statement for its next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        let status = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        guard status == SQLITE_OK else { throw connection.statementError(status) }
    }

    func bind(_ value: Bool, at index: Int32) throws(SQLiteError) {
        try bind(value ? 1 : 0, at: index)
    }

    func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        // Cookie names and values never contain NUL (rfc6265bis-22 §5.6 rejects control characters).
        let status = value.withCString { text in
            csqlite_bind_text_transient(handle, index, text, Int32(clamping: value.utf8.count))
        }
        guard status == SQLITE_OK else { throw connection.statementError(status) }
    }

    /// Advances to the next row: true when a row is available, false when the statement is done.
    /// The corresponding C function is `sqlite3_step`.
    func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw connection.statementError(status)
        }
    }

    /// Steps a statement that returns no rows, then resets it.
    func run() throws(SQLiteError) {
        defer { reset() }
        _ = try step()
    }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column as UTF-8 text (NULL reads as the empty string).
    func string(at column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column of the current row with its type, read in place: text is SQLite's own buffer, valid
    /// until the next `step()` or `reset()`. One `sqlite3_column_value` per column, then the cheap
    /// `sqlite3_value_*` reads: the value is "unprotected" (https://sqlite.org/c3ref/value.html), which
    /// only matters to a connection shared by threads, and ours is used by one thread at a time.
    @inline(__always)
    func column(_ column: Int32) -> SQLiteColumn {
        let value = sqlite3_column_value(handle, column)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_value_int64(value))
        case SQLITE_TEXT:
            // UTF-8 whatever the file's encoding (converted in place from UTF-16, which a jar never is);
            // the byte count is asked after the text, so that it counts the UTF-8 form.
            let text = sqlite3_value_text(value)
            return .text(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
        case SQLITE_NULL:
            return .null
        default:
            return .other
        }
    }
}

/// A column of a row, read in place (`SQLiteStatement.column(_:)`).
enum SQLiteColumn {
    case null
    case integer(Int64)
    /// UTF-8 bytes, SQLite's own: valid until the statement steps again.
    case text(UnsafeBufferPointer<UInt8>)
    /// A REAL or a BLOB.
    case other

    var integer: Int64? {
        guard case .integer(let value) = self else { return nil }
        return value
    }

    var text: UnsafeBufferPointer<UInt8>? {
        guard case .text(let bytes) = self else { return nil }
        return bytes
    }

    /// The integer, nil for NULL; nil itself (no value) for any other type.
    var integerOrNull: Int64?? {
        switch self {
        case .null: .some(nil)
        case .integer(let value): .some(value)
        default: nil
        }
    }
}

extension SQLiteConnection {
    /// Opens the database at `path` read-only and `immutable=1` (https://sqlite.org/uri.html#uriimmutable):
    /// no lock is taken and no file is created or written — not even a `-wal` or `-shm` beside it.
    convenience init(immutableFileAt path: String) throws(SQLiteError) {
        try self.init(name: Self.uri(path) + "?immutable=1", flags: [.readOnly, .uri], file: nil, locksFile: false)
    }

    /// Opens the database at `path` read-only with its WAL read into an index in this connection's own
    /// memory instead of the shared `-shm` file: EXCLUSIVE locking mode set before the first read
    /// (https://sqlite.org/wal.html#noshm), over the `unix-none` VFS, whose locks are no-ops
    /// (https://sqlite.org/vfs.html#standard_unix_vfses), since a read-only file descriptor cannot take
    /// SQLite's exclusive lock. Nothing is created beside the file, and every transaction committed to the
    /// WAL is read. Correct only while no other connection has the file: one opening it meanwhile is not
    /// locked out (`CookieDatabase.snapshot` reads again when the file, its `-wal` or the absent `-shm`
    /// changed meanwhile, `UnlockedReading`). `unix-none` closes its descriptor at once, which would drop the
    /// POSIX locks of a connection of this process that opened the file meanwhile: the connection is closed
    /// only once none locks it (`SQLiteLockedFiles`).
    convenience init(privateWALIndexFileAt path: String) throws(SQLiteError) {
        try self.init(name: Self.uri(path) + "?vfs=unix-none", flags: [.readOnly, .uri], file: path, locksFile: false)
        try execute("PRAGMA locking_mode = EXCLUSIVE")
    }

    /// `path` as a `file:` URI: every byte outside the unreserved set and "/" percent-encoded.
    private static func uri(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                uri += byte < 16 ? "%0\(hex)" : "%\(hex)"
            }
        }
        return uri
    }
}
