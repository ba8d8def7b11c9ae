import Foundation

@testable import Cookies

/// What SQLite left beside a closed jar file (https://sqlite.org/walformat.html).
enum JarFileCompanions: CaseIterable {
    /// Nothing: the last connection checkpointed the WAL into the file and removed the `-wal` and `-shm`.
    case none
    /// A `-wal` holding a committed change, without its `-shm` index: a process that ended without
    /// checkpointing, or a copy of the two files.
    case wal
    /// A `-wal` holding a committed change, and its `-shm` index: a jar in use, or copied with both.
    case walAndShm

    /// The cookies a reader finds in a jar of `makeJarFile`: 50 in the file, one of them deleted in the WAL.
    var cookieCount: Int { self == .none ? 50 : 49 }
}

/// A closed jar of 50 cookies (c0 to c49) at `path`, with `companions` beside it.
func makeJarFile(at path: String, leaving companions: JarFileCompanions) throws {
    let jar = try openTestJar(path)
    for index in 0..<50 {
        jar.setCookie("c\(index)=\(index); Max-Age=3600", from: url("https://example.com/"))
    }
    try jar.close()
    try leave(companions, beside: path)
}

/// Leaves `companions` beside the closed jar file at `path`: the deletion of its cookie c0 committed to the
/// WAL and left there, as by a process that ended without closing, with the WAL's `-shm` index or without.
func leave(_ companions: JarFileCompanions, beside path: String) throws {
    guard companions != .none else { return }
    try commitWithoutCheckpoint(
        "DELETE FROM cookies WHERE name = 'c0'", to: path, keepingIndex: companions == .walAndShm)
}

/// Runs `sql` on the jar file at `path` as a process that ends without closing it: what it commits stays in
/// the WAL, and the `-shm` index it made stays beside it when `keepingIndex`, or is removed (as from a copy of
/// the file and its WAL only).
func commitWithoutCheckpoint(_ sql: String, to path: String, keepingIndex: Bool) throws {
    do {
        let connection = try SQLiteConnection(path: path, flags: .readWrite)
        try connection.execute("PRAGMA wal_autocheckpoint = 0; " + sql)
        connection.setCheckpointsOnClose(false)
    }
    if !keepingIndex { try FileManager.default.removeItem(atPath: path + "-shm") }
}
