import Cookies
import CookiesPostgres
import Foundation
import PostgresNIO
import Testing

extension PostgresServerTests {
    /// Deleting a jar (`deleteJar`) and purging a fleet's garbage (`purge(jarsIdleFor:)`): this project's
    /// contract, documented on `PostgresCookieJars+Deleting.swift`.
    @Suite struct DeletingJarsTests {
        @Test func aDeletedJarIsGoneForEveryInstance() throws {
            let db = TestDatabase("delete")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            try a.jar("u").receive("sid=1; Max-Age=600", from: url("example.com"))
            try a.jar("u").receive("pref=1; Max-Age=600", from: url("example.com"))
            try a.jar("v").receive("keep=1; Max-Age=600", from: url("example.com"))
            try a.flushAll()
            #expect(try b.jar("u").count == 2)
            #expect(try a.deleteJar("u") == 2)
            #expect(try db.rows(of: "u").isEmpty)
            #expect(try db.jarIDs() == ["v"])
            #expect(try a.jar("u").count == 0)
            #expect(try b.jar("u").count == 0, "b's copy is read anew: the jar has no row, version 0")
            #expect(try b.jar("v").allCookies().map(\.name) == ["keep"])
        }

        // The copy a request holds keeps its cookies in memory for that request, but writes nothing more.
        @Test func aCopyHeldByARequestWritesNothingAfterTheJarIsDeleted() throws {
            let db = TestDatabase("held")
            defer { db.drop() }
            let jars = try db.instance()
            do {
                let held = try jars.jar("u")
                held.receive("before=1; Max-Age=600", from: url("example.com"))
                try jars.deleteJar("u")
                held.receive("after=1; Max-Age=600", from: url("example.com"))
                try jars.flush("u")
                #expect(held.count == 2)
            }
            // The held jar is gone: a jar dropped unclosed writes its pending changes, unless its store is closed.
            #expect(try db.rows(of: "u").isEmpty)
            #expect(try db.jarIDs().isEmpty)
            #expect(try jars.jar("u").count == 0)
        }

        // A jar made anew after a deletion starts at the server's clock (PostgresCookieSchema.firstVersion),
        // above every version of the jar before it: were it to start at 1 again, its second write would
        // bring it to the version instance a last read, and a would keep the deleted cookies.
        @Test func aJarMadeAnewIsNotTakenForTheOneDeleted() throws {
            let db = TestDatabase("anew")
            defer { db.drop() }
            let (a, b, c) = (try db.instance(), try db.instance(), try db.instance())
            try a.jar("u").receive("old1=1; Max-Age=600", from: url("example.com"))
            try a.flush("u")
            try a.jar("u").receive("old2=1; Max-Age=600", from: url("example.com"))
            try a.flush("u")
            try b.deleteJar("u")
            try c.jar("u").receive("new1=1; Max-Age=600", from: url("example.com"))
            try c.flush("u")
            try c.jar("u").receive("new2=1; Max-Age=600", from: url("example.com"))
            try c.flush("u")
            #expect(Set(try a.jar("u").allCookies().map(\.name)) == ["new1", "new2"])
        }

        // The write that makes a jar's row follows the version 0 the jar was read at: the jar stays current
        // and the next request gets the same jar, not one read anew.
        @Test func theWriteThatMakesAJarKeepsItCurrent() throws {
            let db = TestDatabase("first")
            defer { db.drop() }
            let jars = try db.instance()
            let jar = try jars.jar("u")
            jar.receive("sid=1; Max-Age=600", from: url("example.com"))
            try jars.flush("u")
            #expect(try jars.jar("u") === jar)
        }

        // §5.7: a cookie whose expiry passed is evicted; the purge does it in the database for every jar,
        // opened by an instance or not, and keeps the jars themselves when no idle time is given.
        @Test func purgeDeletesTheExpiredCookiesOfEveryJar() throws {
            let db = TestDatabase("expired")
            defer { db.drop() }
            let jars = try db.instance()
            try jars.jar("u").receive("short=1; Max-Age=10", from: url("example.com"))
            try jars.jar("u").receive("long=1; Max-Age=1000", from: url("example.com"))
            try jars.jar("v").receive("short=1; Max-Age=10", from: url("example.com"))
            try jars.flushAll()
            db.clock.advance(seconds: 20)
            #expect(try db.instance().purge() == PostgresPurgeReport(expiredCookies: 2, idleJars: 0))
            #expect(try db.rows(of: "u") == ["long": "1"])
            #expect(try db.rows(of: "v").isEmpty)
            #expect(try db.jarIDs() == ["u", "v"])
        }

        // Jars none of whose cookies was set or sent within the idle time, and jars holding no cookie, are
        // deleted. A jar in use is kept: its requests only send its cookie, and `jar(_:)` at each writes the
        // last-access times once a minute (no flush needed), so the database knows it was used.
        @Test(.timeLimit(.minutes(1))) func purgeDeletesIdleJarsAndKeepsJarsInUse() throws {
            let db = TestDatabase("idle")
            defer { db.drop() }
            let jars = try db.instance(persistsSessionCookies: true)
            for id in ["today", "dayFive", "idle"] {
                try jars.jar(id).receive("sid=1; Max-Age=34560000", from: url("example.com"))
            }
            try jars.jar("session").receive("sid=1", from: url("example.com"))
            try jars.jar("emptied").receive("sid=1; Max-Age=600", from: url("example.com"))
            try jars.flushAll()
            try jars.jar("emptied").receive("sid=; Max-Age=0", from: url("example.com"))
            try jars.flush("emptied")
            /// Two requests of jar `id` a minute apart, each only sending its cookies.
            func use(_ id: String) throws {
                for _ in 0..<2 {
                    #expect(try jars.jar(id).cookieHeader(for: url("example.com")) == "sid=1")
                    db.clock.advance(seconds: 61)
                }
                _ = try jars.jar(id)
            }
            db.clock.advance(seconds: 5 * 86_400)
            try use("dayFive")
            db.clock.advance(seconds: 5 * 86_400)
            try use("today")
            let other = try db.instance()
            #expect(try other.jar("idle").count == 1)
            let report = try other.purge(jarsIdleFor: .seconds(7 * 86_400))
            #expect(report == PostgresPurgeReport(expiredCookies: 0, idleJars: 3))
            #expect(try db.jarIDs() == ["dayFive", "today"])
            #expect(try other.jar("idle").count == 0, "the copy in memory is read anew")
        }

        // The jars are gone through in batches of 500, each its own transaction, in the order of their ids:
        // jars kept in one batch (here the first 600, in use) do not stop the purge of the ones after.
        @Test(.timeLimit(.minutes(1))) func purgeGoesThroughEveryBatchOfJars() throws {
            let db = TestDatabase("batches")
            defer { db.drop() }
            let jars = try db.instance()
            let now = db.clock.now().microsecondsSinceEpoch
            _ = try TestDatabase.query(
                "INSERT INTO \(db.schema).cookiejar_jars SELECT 'j' || lpad(g::text, 4, '0'), 1 FROM generate_series(1, 1834) g")
            _ = try TestDatabase.query(
                """
                INSERT INTO \(db.schema).cookiejar_cookies
                SELECT 'j' || lpad(g::text, 4, '0'), 'sid', '1', 'example.com', true, '/', '', NULL, \(now), \(now),
                    true, false, 0, true, NULL, 1, sha256(convert_to('3:sid11:example.com11:/0:', 'UTF8'))
                FROM generate_series(1, 600) g
                """)
            #expect(try jars.purge(jarsIdleFor: .seconds(3_600)).idleJars == 1234)
            #expect(try db.jarIDs().count == 600)
            #expect(try db.jarIDs().last == "j0600")
        }

        // A jar whose row a write holds (an instance inside a write) is passed over, not waited for; the
        // next purge deletes it.
        @Test(.timeLimit(.minutes(1))) func purgePassesOverAJarAWriteHolds() throws {
            let db = TestDatabase("locked")
            defer { db.drop() }
            let jars = try db.instance()
            for id in ["locked", "free"] { try jars.jar(id).receive("sid=1; Max-Age=34560000", from: url("example.com")) }
            try jars.flushAll()
            db.clock.advance(seconds: 86_400)
            let holder = try db.connectionLockingJar("locked")
            #expect(try jars.purge(jarsIdleFor: .seconds(3_600)).idleJars == 1)
            #expect(try db.jarIDs() == ["locked"])
            _ = try holder.query("ROLLBACK", logger: Logger(label: "tests")).wait()
            try holder.close().wait()
            #expect(try jars.purge(jarsIdleFor: .seconds(3_600)).idleJars == 1)
            #expect(try db.jarIDs().isEmpty)
        }

        @Test func aNegativeIdleTimeIsRefused() throws {
            let db = TestDatabase("negative")
            defer { db.drop() }
            let jars = try db.instance()
            try jars.jar("u").receive("sid=1; Max-Age=600", from: url("example.com"))
            try jars.flush("u")
            #expect(throws: PostgresCookieStoreError.self) { try jars.purge(jarsIdleFor: .seconds(-1)) }
            #expect(try db.jarIDs() == ["u"])
        }
    }
}
