import Foundation
import TestSupport
import Testing

@testable import Cookies

/// A database in rollback-journal mode left with a hot journal: a `-journal` beside it from a writer that ended
/// inside a transaction, some of whose pages were written to the file already. The first connection that may write
/// rolls it back at its first read, writing the original pages back and deleting the journal
/// (https://sqlite.org/atomiccommit.html, "Hot Rollback Journals"). Another application's database is refused
/// untouched, journal and all (this project's contract: a foreign file is left as it was found); a jar is opened
/// and rolled back, as any SQLite database is after a crash.
@Suite struct HotJournalTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// Leaves at `path` the database at `source` (in rollback-journal mode) as a writer killed during `sql`
    /// leaves it: a copy of the file and its `-journal` taken in the middle of the transaction, once its changes,
    /// more than the connection's cache of 2 pages holds, were partly written to the file. The source is rolled
    /// back.
    func leaveCrashedTransaction(_ sql: String, of source: String) throws {
        let before = fileBytes(source)
        let connection = try SQLiteConnection(path: source, flags: .readWrite)
        try connection.execute("PRAGMA cache_size = 2; BEGIN IMMEDIATE; " + sql)
        try FileManager.default.copyItem(atPath: source, toPath: path)
        try FileManager.default.copyItem(atPath: source + "-journal", toPath: path + "-journal")
        try connection.execute("ROLLBACK")
        #expect(fileBytes(path) != before, "the transaction wrote to the file before it ended")
    }

    /// A transaction that rewrites `table`'s rows and adds 500 pages.
    static func bigTransaction(rewriting table: String, column: String) -> String {
        """
        UPDATE \(table) SET \(column) = 'changed';
        CREATE TABLE filler (x);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
        INSERT INTO filler SELECT zeroblob(4000) FROM n;
        """
    }

    /// Another application's database, with an application id of its own (Fossil's, from SQLite's magic.txt
    /// list of application ids) or none: opening it as a jar throws `.foreign` and leaves the file and its
    /// journal as they were, to the byte.
    @Test(arguments: [0x0F05_5112, 0])
    func foreignDatabaseWithAHotJournalIsLeftUntouched(applicationID: Int) throws {
        let source = directory.file("notes.db")
        try runSQL(
            """
            PRAGMA application_id = \(applicationID);
            CREATE TABLE notes (body TEXT);
            INSERT INTO notes VALUES ('hello');
            """, on: source)
        try leaveCrashedTransaction(Self.bigTransaction(rewriting: "notes", column: "body"), of: source)
        let (file, journal) = (fileBytes(path), fileBytes(path + "-journal"))
        #expect { try openTestJar(path) } throws: { ($0 as? CookieFileError)?.code == .foreign }
        #expect(fileBytes(path) == file)
        #expect(fileBytes(path + "-journal") == journal)
    }

    /// A jar in rollback-journal mode (a jar file whose mode was changed, or one made by a version before WAL)
    /// with a hot journal opens with its cookies as they were before the transaction: the journal is rolled back.
    @Test func jarWithAHotJournalIsRolledBack() throws {
        let source = directory.file("source.sqlite")
        let jar = try openTestJar(source)
        for index in 0..<50 { jar.setCookie("c\(index)=\(index); Max-Age=3600", from: url("https://example.com/")) }
        try jar.close()
        try runSQL("PRAGMA journal_mode = DELETE", on: source)
        try leaveCrashedTransaction(Self.bigTransaction(rewriting: "cookies", column: "value"), of: source)
        let reopened = try openTestJar(path)
        #expect(reopened.allCookies().count == 50)
        #expect(reopened.allCookies().allSatisfy { $0.value == $0.name.dropFirst() })
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        try reopened.close()
    }
}
