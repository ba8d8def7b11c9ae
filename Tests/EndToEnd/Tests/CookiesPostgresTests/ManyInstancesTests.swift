import Cookies
import CookiesPostgres
import Foundation
import PostgresNIO
import Synchronization
import Testing

extension PostgresServerTests {
    /// Two instances of a fleet (two PostgresCookieJars, each with its own connections) on one jar id: one
    /// truth, as the issue "Jars shared by a fleet of servers" asks.
    @Suite struct ManyInstancesTests {
        @Test func differentCookiesOfTwoInstancesAreBothKept() throws {
            let db = TestDatabase("both")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            let (jarA, jarB) = (try a.jar("u"), try b.jar("u"))
            jarA.receive("fromA=1; Max-Age=60", from: url("example.com"))
            jarB.receive("fromB=1; Max-Age=60", from: url("example.com"))
            try a.flush("u")
            try b.flush("u")
            #expect(try db.rows(of: "u") == ["fromA": "1", "fromB": "1"])
            #expect(Set(try a.jar("u").allCookies().map(\.name)) == ["fromA", "fromB"])
            #expect(Set(try b.jar("u").allCookies().map(\.name)) == ["fromA", "fromB"])
        }

        // §5.7 step 23 replaces a cookie of the same identity; across instances the later write (the jar's
        // version order) wins, and every instance then reads that one.
        @Test func laterWriteOfOneCookieWinsOnEveryInstance() throws {
            let db = TestDatabase("later")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            try a.jar("u").receive("sid=first; Max-Age=60", from: url("example.com"))
            try b.jar("u").receive("sid=second; Max-Age=60", from: url("example.com"))
            try a.flush("u")
            let first = try #require(try db.column("version", of: "sid", in: "u"))
            try b.flush("u")
            #expect(try a.jar("u").allCookies().map(\.value) == ["second"])
            #expect(try b.jar("u").allCookies().map(\.value) == ["second"])
            #expect(try db.column("version", of: "sid", in: "u") == first + 1)
        }

        // A cookie one instance replaces, stored by another after the first loaded the jar, keeps its
        // creation time: §5.7 step 23.3, "Update the creation-time of the newly-created cookie to match the
        // creation-time of the old-cookie", which orders the Cookie header (§5.8.3 step 2: "Among cookies
        // that have equal-length path fields, cookies with earlier creation-times are listed before cookies
        // with later creation-times"). A stored cookie that had expired is gone (§5.7: expired cookies are
        // evicted): the new one is created anew.
        @Test(arguments: [(expired: false, header: "sid=new; other=1"), (expired: true, header: "other=1; sid=new")])
        func aReplacedCookieKeepsTheCreationTimeAnotherInstanceStored(expired: Bool, header: String) throws {
            let db = TestDatabase("creation")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            let held = try a.jar("u")  // a request of a, under way
            let created = db.clock.now().microsecondsSinceEpoch
            try b.jar("u").receive("sid=old; Max-Age=\(expired ? 5 : 600)", from: url("example.com"))
            db.clock.advance(seconds: 1)
            try b.jar("u").receive("other=1; Max-Age=600", from: url("example.com"))
            try b.flush("u")
            db.clock.advance(seconds: 9)
            held.receive("sid=new; Max-Age=600", from: url("example.com"))
            try a.flush("u")
            #expect(try db.column("creation", of: "sid", in: "u") == (expired ? db.clock.now().microsecondsSinceEpoch : created))
            #expect(try a.jar("u").cookieHeader(for: url("example.com")) == header)
            #expect(try b.jar("u").cookieHeader(for: url("example.com")) == header)
        }

        // A cookie deleted (a server's Max-Age=0, a delete call) and set anew before the flush (a sign-out,
        // then a sign-in): the deletion removed it, so the new cookie replaces no old-cookie (§5.7 step 24)
        // and keeps its own creation time in the database, not the deleted cookie's (which §5.7 step 23.3
        // gives only a replacement): an instance that loads the jar (another, or this one relaunched) sends
        // it after a cookie set between the two, as this one does (§5.8.3 step 2: "cookies with earlier creation-times are listed before
        // cookies with later creation-times").
        @Test(arguments: [true, false])
        func aCookieSetAnewAfterADeletionKeepsItsOwnCreationTime(byMaxAgeZero: Bool) throws {
            let db = TestDatabase("anew")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            try a.jar("u").receive("sid=old; Max-Age=600", from: url("example.com"))
            try a.flush("u")
            db.clock.advance(seconds: 1)
            try a.jar("u").receive("other=1; Max-Age=600", from: url("example.com"))
            try a.flush("u")
            db.clock.advance(seconds: 1)
            let jar = try a.jar("u")
            if byMaxAgeZero {
                jar.receive("sid=; Max-Age=0", from: url("example.com"))
            } else {
                #expect(jar.delete(try #require(jar.allCookies().first { $0.name == "sid" })))
            }
            jar.receive("sid=new; Max-Age=600", from: url("example.com"))
            let new = try #require(jar.allCookies().first { $0.name == "sid" })
            #expect(jar.cookieHeader(for: url("example.com")) == "other=1; sid=new")
            try a.flush("u")
            #expect(try db.column("creation", of: "sid", in: "u") == new.creation.microsecondsSinceEpoch)
            #expect(try b.jar("u").cookieHeader(for: url("example.com")) == "other=1; sid=new")
        }

        // A cookie written, then let go by the jar on its own (the per-site limit evicted it, §5.7 step 22)
        // and set again, or replaced by an insertion of a cookie made later (a web view's, `insert(_:)`),
        // before the flush: the new cookie replaces no old-cookie (§5.7 step 24), and keeps its own creation
        // time in the database while the row still holds the version the jar let go (its value and expiry,
        // none for a session cookie the store keeps), as it does in the jar (an instance that loads the jar
        // sends it after a cookie set before it, §5.8.3 step 2: "cookies with earlier creation-times are
        // listed before cookies with later creation-times"). Where another instance stored a version
        // meanwhile (here set anew after a deletion, a creation time of its own), the cookie replaces that
        // one and keeps its creation time (§5.7 step 23.3), as a jar that received the two in turn would.
        @Test(arguments: [
            (byInsertion: false, rowChangedMeanwhile: false, session: false), (false, true, false), (false, false, true),
            (true, false, false), (true, true, false), (true, false, true),
        ])
        func aCookieSetInPlaceOfOneTheJarLetGoKeepsItsOwnCreationTime(byInsertion: Bool, rowChangedMeanwhile: Bool, session: Bool) throws {
            let db = TestDatabase("inplace")
            defer { db.drop() }
            let limits = CookieLimits(maxCookiesPerSite: 2, sitePurgeCount: 0)
            let (a, b) = (try db.instance(limits: limits, persistsSessionCookies: session), try db.instance(limits: limits, persistsSessionCookies: session))
            let lifetime = session ? "" : "; Max-Age=600"
            try a.jar("u").receive("sid=old\(lifetime)", from: url("example.com"))
            try a.flush("u")
            #expect(try db.rows(of: "u") == ["sid": "old"])
            let held = try a.jar("u")  // a request of a, under way
            var stored: Int64?
            if rowChangedMeanwhile {
                db.clock.advance(seconds: 1)
                stored = db.clock.now().microsecondsSinceEpoch
                try b.jar("u").receive("sid=; Max-Age=0", from: url("example.com"))
                try b.jar("u").receive("sid=other\(lifetime)", from: url("example.com"))
                try b.flush("u")
                #expect(try db.column("creation", of: "sid", in: "u") == stored)
            }
            db.clock.advance(seconds: 1)
            held.receive("other=1; Max-Age=600", from: url("example.com"))
            db.clock.advance(seconds: 1)
            if byInsertion {
                let now = db.clock.now()
                let outcome = held.insert(Cookie(
                    name: "sid", value: "new", domain: "example.com", expiry: session ? nil : now.adding(seconds: 600), creation: now,
                    lastAccess: now))
                guard case .replaced(_, let previous) = outcome else {
                    Issue.record("the insertion did not replace sid: \(outcome)")
                    return
                }
                #expect(previous.value == "old")
            } else {
                // The third cookie of the site evicts the least recently used, sid; sid then evicts other.
                held.receive("c=1; Max-Age=600", from: url("example.com"))
                #expect(held.allCookies().map(\.name).sorted() == ["c", "other"])
                db.clock.advance(seconds: 1)
                held.receive("sid=new\(lifetime)", from: url("example.com"))
            }
            let new = try #require(held.allCookies().first { $0.name == "sid" })
            let before = byInsertion ? "other=1" : "c=1"
            #expect(held.cookieHeader(for: url("example.com")) == "\(before); sid=new")
            try a.flush("u")
            #expect(try db.column("creation", of: "sid", in: "u") == (stored ?? new.creation.microsecondsSinceEpoch))
            let header = rowChangedMeanwhile ? "sid=new; \(before)" : "\(before); sid=new"
            #expect(try b.jar("u").cookieHeader(for: url("example.com")) == header)
            #expect(try a.jar("u").cookieHeader(for: url("example.com")) == header)
        }

        // A deletion (Max-Age=0, §5.6.2; sign-out) is not undone by an instance that still holds the cookie:
        // it writes only what it changed, and a last-access update touches only rows that exist.
        @Test func deletionIsNotUndoneByAStaleInstance() throws {
            let db = TestDatabase("tombstone")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            try a.jar("u").receive("sid=1; Max-Age=600", from: url("example.com"))
            try a.flush("u")
            let staleJar = try b.jar("u")
            #expect(staleJar.count == 1)
            try a.jar("u").signOut(from: url("example.com"))
            try a.flush("u")
            // b uses its cached copy (no request boundary), then writes an unrelated change and a last-access sweep.
            _ = staleJar.cookieHeader(for: url("example.com"))
            staleJar.receive("other=1; Max-Age=600", from: url("other.com"))
            db.clock.advance(seconds: 61)
            try b.flush("u")
            #expect(try db.rows(of: "u") == ["other": "1"])
            #expect(try b.jar("u").allCookies().map(\.name) == ["other"])
        }

        // A request that holds the jar while another request of the same instance reloads it (another
        // instance wrote meanwhile): the held jar's later changes are still written, and `flush` commits
        // them, as it does for a jar let go to make room (maximumOpenJars).
        // A write that waited for the jar's lock comes after the write that held it, and sees what that
        // write committed: here instance a sets `sid` anew (a sign-in) while b, which held the older `sid`,
        // deletes it (a sign-out) and waits for a's lock. b's later deletion wins; a statement whose
        // snapshot predates the lock would not see a's new row, and leave it. Whatever the server's default
        // isolation: under repeatable read or serializable, b's write would fail with SQLSTATE 40001 once
        // a committed, unless the jars begin their transactions read committed.
        @Test(.timeLimit(.minutes(1)), arguments: ["read committed", "repeatable read", "serializable"])
        func aWriteThatWaitedForTheLockSeesWhatTheHolderCommitted(defaultIsolation: String) throws {
            try TestDatabase.withDefaultIsolation(defaultIsolation) { try writeAfterWaitingForTheLock() }
        }

        private func writeAfterWaitingForTheLock() throws {
            let db = TestDatabase("waited")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            try a.jar("u").receive("sid=1; Max-Age=600", from: url("example.com"))
            try a.flush("u")
            let jarB = try b.jar("u")
            #expect(jarB.count == 1)
            try a.jar("u").signOut(from: url("example.com"))
            try a.flush("u")
            // a's next write, frozen before its commit: the jar's row locked, `sid` stored anew.
            let holder = try db.connectionLockingJar("u")
            defer { try? holder.close().wait() }
            let logger = Logger(label: "tests")
            _ = try holder.query(PostgresQuery(unsafeSQL: """
                UPDATE \(db.schema).cookiejar_jars SET version = version + 1 WHERE jar_id = 'u';
                """), logger: logger).wait()
            _ = try holder.query(PostgresQuery(unsafeSQL: """
                INSERT INTO \(db.schema).cookiejar_cookies VALUES ('u', 'sid', '2', 'example.com', true, '/', '',
                    1800000600000000, 1800000000000000, 1800000000000000, true, false, 0, true, NULL,
                    (SELECT version FROM \(db.schema).cookiejar_jars WHERE jar_id = 'u'),
                    sha256(convert_to('3:sid' || '11:example.com' || '1' || '1:/' || '0:', 'UTF8')))
                """), logger: logger).wait()
            jarB.receive("sid=; Max-Age=0", from: url("example.com"))
            let committer = Thread {
                // Once b's write waits for the lock.
                db.untilAWriteWaitsForALock()
                _ = try? holder.query("COMMIT", logger: logger).wait()
            }
            committer.start()
            #expect(try b.flush("u") == 1)
            #expect(try db.rows(of: "u") == [:])
            #expect(try a.jar("u").allCookies().isEmpty)
        }

        @Test func aJarHeldAcrossAReloadStillWrites() throws {
            let db = TestDatabase("held")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance(maximumOpenJars: 1))
            let held = try b.jar("u")
            try a.jar("u").receive("fromA=1; Max-Age=60", from: url("example.com"))
            try a.flush("u")
            let reloaded = try b.jar("u")
            #expect(reloaded !== held && reloaded.count == 1)
            held.receive("rotated=1; Max-Age=60", from: url("example.com"))
            try b.flush("u")
            #expect(try db.rows(of: "u") == ["fromA": "1", "rotated": "1"])
            // Let go to make room: still written.
            let other = try b.jar("v")
            reloaded.receive("late=1; Max-Age=60", from: url("example.com"))
            other.receive("v=1; Max-Age=60", from: url("example.com"))
            try b.flushAll()
            #expect(try db.rows(of: "u") == ["fromA": "1", "rotated": "1", "late": "1"])
            #expect(try db.rows(of: "v") == ["v": "1"])
            #expect(Set(try b.jar("u").allCookies().map(\.name)) == ["fromA", "rotated", "late"])
        }

        // Eight requests of one user at once on one instance, each asking for the jar, receiving a cookie
        // of its own and flushing, while another instance writes the jar between them: every cookie is
        // committed when its request's flush returns.
        @Test func concurrentRequestsOfOneJarLoseNoChange() throws {
            let db = TestDatabase("concurrent")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                do {
                    for round in 0..<5 {
                        if index == 0 {
                            try b.jar("u").receive("fromB\(round)=1; Max-Age=60", from: url("example.com"))
                            try b.flush("u")
                        }
                        let jar = try a.jar("u")
                        jar.receive("r\(index)x\(round)=1; Max-Age=60", from: url("example.com"))
                        try a.flush("u")
                    }
                } catch {
                    failures.withLock { $0.append("\(index): \(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let expected = Set((0..<8).flatMap { index in (0..<5).map { "r\(index)x\($0)" } } + (0..<5).map { "fromB\($0)" })
            #expect(Set(try db.rows(of: "u").keys) == expected)
        }

        // A stale copy's own purge of a cookie whose expiry passed (a lookup on a jar held across another
        // instance's refresh) deletes the stored cookie only while it is still the one the copy held:
        // the session the other instance refreshed meanwhile stays (CookieWrite.deleteIfUnchanged).
        @Test func aStaleCopysExpiryPurgeKeepsAFreshCookie() throws {
            let db = TestDatabase("purge")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            try a.jar("u").receive("sid=old; Max-Age=60", from: url("example.com"))
            try a.flush("u")
            let held = try a.jar("u")
            db.clock.advance(seconds: 50)
            try b.jar("u").receive("sid=new; Max-Age=600", from: url("example.com"))
            try b.flush("u")
            db.clock.advance(seconds: 11)
            #expect(held.cookieHeader(for: url("example.com")) == nil)
            try a.flush("u")
            #expect(try db.rows(of: "u") == ["sid": "new"])
            #expect(try a.jar("u").cookieHeader(for: url("example.com")) == "sid=new")
        }

        // The bound of the issue: an instance sees another's flushed change by its next request for the jar.
        @Test func nextRequestSeesAnotherInstancesFlushedChange() throws {
            let db = TestDatabase("visible")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            #expect(try b.jar("u").count == 0)
            try a.jar("u").receive("sid=1; Max-Age=60", from: url("example.com"))
            try a.flush("u")
            #expect(try b.jar("u").cookieHeader(for: url("example.com")) == "sid=1")
            try a.jar("u").receive("sid=2; Max-Age=60", from: url("example.com"))
            try a.flush("u")
            // b has a change of its own pending: written first, then the jar is reloaded.
            try b.jar("u").receive("mine=1; Max-Age=60", from: url("example.com"))
            #expect(try b.jar("u").cookieHeader(for: url("example.com")) == "sid=2; mine=1")
        }

        // The limits enforced in the database evict as one jar does: never the cookie just stored (§5.7's
        // "remove excess cookies" leaves the order to the user agent; a jar keeps the cookie it stores,
        // CookieStore.enforceLimits). Here the site is full of another instance's Secure cookies when this
        // one stores a non-Secure cookie: one jar evicts the least recently used Secure cookie, and so does
        // the database, not the non-Secure cookie just stored.
        @Test func limitsInTheDatabaseKeepTheCookieJustStoredAsOneJarDoes() throws {
            let db = TestDatabase("kept")
            defer { db.drop() }
            let limits = CookieLimits(maxCookiesPerSite: 3, sitePurgeCount: 0)
            let (a, b) = (try db.instance(limits: limits), try db.instance(limits: limits))
            let oneJar = CookieJar(limits: limits, clock: db.clock)
            let held = try a.jar("u")  // a request of a, under way
            let jarB = try b.jar("u")
            for name in ["s1", "s2", "s3"] {
                jarB.receive("\(name)=1; Secure; Max-Age=600", from: url("example.com"))
                oneJar.receive("\(name)=1; Secure; Max-Age=600", from: url("example.com"))
                db.clock.advance(seconds: 1)
            }
            try b.flush("u")
            held.receive("plain=1; Max-Age=600", from: url("example.com"))
            oneJar.receive("plain=1; Max-Age=600", from: url("example.com"))
            try a.flush("u")
            #expect(Set(oneJar.allCookies().map(\.name)) == ["s2", "s3", "plain"])
            #expect(Set(try db.rows(of: "u").keys) == ["s2", "s3", "plain"])
            #expect(Set(try a.jar("u").allCookies().map(\.name)) == ["s2", "s3", "plain"])
        }

        // Limits (CookieLimits: per site, per jar; Chromium's eviction) hold per jar over every instance's
        // cookies: each instance alone stays under them, together they would not.
        @Test(arguments: [(site: true, each: 8), (site: false, each: 8)])
        func limitsHoldPerJarAcrossInstances(site: Bool, each: Int) throws {
            let db = TestDatabase("limits")
            defer { db.drop() }
            let limits = site
                ? CookieLimits(maxCookiesPerSite: 10, sitePurgeCount: 0) : CookieLimits(maxCookies: 10, purgeCount: 0)
            let (a, b) = (try db.instance(limits: limits), try db.instance(limits: limits))
            for i in 0..<each {
                try a.jar("u").receive("a\(i)=1; Max-Age=60", from: url(site ? "example.com" : "a\(i).com"))
                db.clock.advance(seconds: 1)
            }
            for i in 0..<each {
                try b.jar("u").receive("b\(i)=1; Max-Age=60", from: url(site ? "example.com" : "b\(i).com"))
                db.clock.advance(seconds: 1)
            }
            try a.flush("u")
            try b.flush("u")
            let stored = try db.rows(of: "u")
            #expect(stored.count == 10)
            // The least recently used go first: a's oldest six.
            #expect(Set(stored.keys) == Set((6..<8).map { "a\($0)" } + (0..<8).map { "b\($0)" }))
            #expect(try a.jar("u").count == 10)
        }
    }
}
