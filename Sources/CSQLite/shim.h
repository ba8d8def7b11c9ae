#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <errno.h>
#include <sqlite3.h>

/// `sqlite3_db_config` is variadic, which Swift cannot call: this sets one boolean option.
static inline int csqlite_db_config_flag(sqlite3 *db, int option, int value) {
    return sqlite3_db_config(db, option, value, (int *)0);
}

/// SQLITE_TRANSIENT is a cast macro Swift does not import: bound text is copied by SQLite.
static inline int csqlite_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int bytes) {
    return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}
/// SQLITE_READONLY_ROLLBACK and SQLITE_IOERR_SHORT_READ are expressions of another macro, which Swift does not
/// import.
static const int csqlite_readonly_rollback = SQLITE_READONLY_ROLLBACK;
static const int csqlite_ioerr_short_read = SQLITE_IOERR_SHORT_READ;

/// The `errno` values of a full disk and of a full disk quota, as `sqlite3_system_errno` reports them: the C
/// library's, whichever it is (Glibc, Musl, Darwin), without importing it.
static const int csqlite_enospc = ENOSPC;
static const int csqlite_edquot = EDQUOT;
#endif
