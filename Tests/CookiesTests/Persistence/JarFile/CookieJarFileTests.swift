import Foundation
import TestSupport
import Testing

@_spi(Fuzzing) @testable import Cookies

/// The persistent jar: what a relaunch finds, how changes reach the file (issue 4, "The store").
@Suite struct CookieJarFileTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// Every field the jar keeps survives close and reopen (partition key, source port, times, flags).
    @Test func reopenedJarHoldsEveryFieldOfEveryPersistentCookie() throws {
        let jar = try openTestJar(path)
        let future = testEpoch.adding(seconds: 86_400)
        let cookies = [
            Cookie(
                name: "a", value: "1", domain: "example.com", isHostOnly: false, path: "/docs", expiry: future,
                creation: testEpoch, lastAccess: testEpoch.adding(seconds: 5), isSecure: true, isHTTPOnly: true,
                sameSite: .strict, partitionKey: "https://top.example", isSourceSecure: true, sourcePort: 8443),
            Cookie(name: "", value: "nameless", domain: "www.example.com", expiry: future, creation: testEpoch),
            Cookie(name: "b", value: "", domain: "example.org", expiry: future, creation: testEpoch, isSecure: true, sameSite: .none),
            Cookie(name: "c", value: "ü", domain: "example.org", expiry: future, creation: testEpoch, sameSite: .lax),
        ]
        for cookie in cookies { jar.insert(cookie) }
        try jar.close()

        let reopened = try openTestJar(path)
        #expect(Set(reopened.allCookies()) == Set(cookies))
        #expect(reopened.filePath == path)
    }

    /// Every cookie a jar receives loads again: the texts a jar refuses to load (`LoadedCookie.rejection`)
    /// are none a `Set-Cookie` line and a request URL give. A default-path is the request path's (§5.1.4),
    /// any byte of it included; a host may hold a ";" (no forbidden host code point of the WHATWG URL host
    /// parser); a name and value keep HTAB inside (§5.6 step 1), a value its quotes and the WSP between them.
    @Test(arguments: [
        ("https://h.example/x\u{7F}y/z", "a=1"), ("https://h.example/\u{1}/z", "a=1"),
        ("https://a;b.example/", "a=1"), ("https://a%3Bb.example/", "a=1"),
        ("https://h.example/", "a\tb=c\td"), ("https://h.example/", "a=\" x \""), ("https://h.example/", "=nameless"),
        ("https://h.example/", "a=1; Path=/p\tq"), ("https://[::1]/", "a=1"), ("https://bücher.example/", "a=ü"),
    ])
    func everyCookieAJarReceivesLoadsAgain(url text: String, line: String) throws {
        let jar = try openTestJar(path)
        let outcome = jar.setCookie(line + "; Max-Age=600", from: try #require(CookieURL(text)))
        let stored = try #require(outcome.cookie, "stored: \(outcome)")
        try jar.close()
        let reopened = try openTestJar(path)
        #expect(reopened.allCookies() == [stored])
        #expect(reopened.cookiesNotLoaded.isEmpty)
    }

    /// A response received through `receive` (which reports nothing) reaches the file as `setCookie`'s
    /// would: stored, replaced and deleted cookies alike.
    @Test func receivedResponsesReachTheFile() throws {
        let jar = try openTestJar(path)
        let site = url("https://example.com/")
        jar.receive(["a=1; Max-Age=600", "b=1; Max-Age=600", "c=1; Max-Age=600"], from: site)
        jar.receive(["a=2; Max-Age=600", "b=; Max-Age=0"], from: site)
        try jar.close()

        let reopened = try openTestJar(path)
        #expect(reopened.allCookies().map { "\($0.name)=\($0.value)" }.sorted() == ["a=2", "c=1"])
    }

    /// Session cookies end with the session (rfc6265bis-22 §5.7 step 6) unless the option keeps them.
    @Test(arguments: [false, true])
    func sessionCookiesAreWrittenOnlyWhenAsked(persists: Bool) throws {
        var options = testFileOptions()
        options.persistsSessionCookies = persists
        let jar = try openTestJar(path, options: options)
        jar.setCookie("session=1", from: url("https://example.com/"))
        jar.setCookie("kept=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()

        let names = try openTestJar(path, options: options).allCookies().map(\.name).sorted()
        #expect(names == (persists ? ["kept", "session"] : ["kept"]))
    }

    /// A session cookie replacing a persistent one removes the persistent one's row.
    @Test func sessionCookieReplacingAPersistentOneRemovesItsRow() throws {
        let jar = try openTestJar(path)
        jar.setCookie("id=old; Max-Age=3600", from: url("https://example.com/"))
        try jar.flush()
        jar.setCookie("id=new", from: url("https://example.com/"))
        try jar.close()
        #expect(try openTestJar(path).allCookies().isEmpty)
    }

    /// Expired cookies are not loaded, and the load purges their rows.
    @Test func expiredCookiesAreDroppedOnLoadAndPurgedFromTheFile() throws {
        let clock = ManualCookieClock(testEpoch)
        let jar = try openTestJar(path, clock: clock)
        jar.setCookie("short=1; Max-Age=60", from: url("https://example.com/"))
        jar.setCookie("long=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()

        clock.advance(seconds: 120)
        #expect(try openTestJar(path, clock: clock).allCookies().map(\.name) == ["long"])
        let connection = try SQLiteConnection(path: path, flags: .readOnly)
        #expect(try connection.integer("SELECT count(*) FROM cookies") == 1)
    }

    /// Whatever order a file gives its rows in (a jar writes them in no particular order), the loaded jar
    /// holds each site's cookies in send order (rfc6265bis-22 §5.8.3 step 2: longer paths first, then
    /// earlier creation), exactly as a jar that received them.
    @Test(arguments: ["id", "id DESC", "creation DESC", "name, domain", "length(path), id DESC"])
    func rowsInAnyOrderLoadInSendOrder(order: String) throws {
        let received = CookieJar(publicSuffixList: testPublicSuffixList, clock: ManualCookieClock(testEpoch))
        let jar = try openTestJar(path)
        for (index, host) in ["a.example.com", "example.com", "b.example.com", "example.org", "x.example.org"].enumerated() {
            for (offset, path) in ["/", "/docs/", "/docs/api", "/", "/x"].enumerated() {
                let line = "c\(index)\(offset)=v; Path=\(path); Max-Age=3600" + (offset == 3 ? "; Domain=\(host)" : "")
                for target in [received, jar] { target.setCookie(line, from: url("https://\(host)/docs/api")) }
            }
        }
        try jar.close()
        try runSQL(
            """
            CREATE TABLE shuffled AS SELECT * FROM cookies;
            DELETE FROM cookies;
            INSERT INTO cookies (\(CookieDatabaseSchema.columns))
                SELECT \(CookieDatabaseSchema.columns) FROM shuffled ORDER BY \(order);
            DROP TABLE shuffled;
            """, on: path)

        let loaded = try openTestJar(path)
        #expect(loaded.count == 25)
        #expect(loaded.storeStructureViolation() == nil, "each site in send order and in the store's orders")
        #expect(loaded.allCookies() == received.allCookies())
        for site in ["example.com", "example.org"] {
            #expect(loaded.cookies(forSite: site) == received.cookies(forSite: site))
        }
    }

    /// A jar writes new rows in send order (rfc6265bis-22 §5.8.3 step 2: longer paths first, then earlier
    /// creation), whatever order its changes were made in: a file read back in row order then needs no
    /// sorting. Deleting a row first frees nothing another row depends on.
    @Test func rowsAreWrittenInSendOrder() throws {
        let clock = ManualCookieClock(testEpoch)
        let jar = try openTestJar(path, clock: clock)
        for (index, path) in ["/", "/docs/api", "/docs/", "/", "/x", "/docs/api", "/gone"].enumerated() {
            clock.advance(seconds: 1)
            jar.setCookie("c\(index)=v; Path=\(path); Max-Age=3600", from: url("https://example.com/docs/api"))
        }
        jar.setCookie("c6=; Path=/gone; Max-Age=0", from: url("https://example.com/docs/api"))
        try jar.close()
        let connection = try SQLiteConnection(path: path, flags: .readOnly)
        let select = try connection.prepare("SELECT name FROM cookies ORDER BY id")
        var names: [String] = []
        while try select.step() { names.append(String(decoding: select.column(0).text!, as: UTF8.self)) }
        #expect(names == ["c1", "c5", "c2", "c4", "c0", "c3"])
    }

    /// Cookies received site after site in turn are written grouped by the last two labels of their
    /// domain, each group in send order (`JarFileRowOrder`): every site's rows come one after another
    /// when its public suffix is one label ("example.com", "example.org"), sites under a suffix of two
    /// labels share a group ("a.co.uk" and "b.co.uk"), and every site's rows are in send order, so a
    /// reader fills one site at a time and sorts none.
    @Test func rowsAreWrittenSiteBySite() throws {
        let clock = ManualCookieClock(testEpoch)
        let jar = try openTestJar(path, clock: clock)
        let hosts = ["example.com", "x.example.org", "shop.a.co.uk", "www.example.com", "b.co.uk", "example.org"]
        var received = 0
        for path in ["/", "/docs/api", "/docs/"] {
            for host in hosts {
                clock.advance(seconds: 1)
                jar.setCookie("c\(received)=v; Path=\(path); Max-Age=3600", from: url("https://\(host)/docs/api"))
                received += 1
            }
        }
        try jar.close()
        let connection = try SQLiteConnection(path: path, flags: .readOnly)
        let select = try connection.prepare("SELECT domain, path, creation FROM cookies ORDER BY id")
        var rows: [(group: String, site: String, path: String, creation: Int64)] = []
        while try select.step() {
            let domain = String(decoding: select.column(0).text!, as: UTF8.self)
            let labels = domain.split(separator: ".")
            let site = labels.suffix(domain.hasSuffix(".co.uk") ? 3 : 2).joined(separator: ".")
            rows.append((labels.suffix(2).joined(separator: "."), site, String(decoding: select.column(1).text!, as: UTF8.self),
                select.column(2).integer!))
        }
        #expect(rows.count == 18)
        // Each group's rows are one run of rows.
        let runs = zip(rows, rows.dropFirst()).filter { $0.group != $1.group }.count + 1
        #expect(runs == 3, "groups example.com, example.org, co.uk: \(rows.map(\.group))")
        // Each site's rows are in send order: longer paths first, then earlier creation.
        for site in ["example.com", "example.org", "a.co.uk", "b.co.uk"] {
            let ofSite = rows.filter { $0.site == site }
            #expect(ofSite.count == (site.hasSuffix("co.uk") ? 3 : 6))
            #expect(zip(ofSite, ofSite.dropFirst()).allSatisfy { first, second in
                first.path.utf8.count > second.path.utf8.count
                    || (first.path.utf8.count == second.path.utf8.count && first.creation <= second.creation)
            }, "\(site): \(ofSite.map(\.path))")
        }
    }

    /// The file and its WAL are readable and writable by their owner only.
    @Test func fileIsCreatedWithPermissions0600() throws {
        let jar = try openTestJar(path)
        jar.setCookie("a=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.flush()
        for file in [path, path + "-wal"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file)")
        }
        try jar.close()
    }

    /// A Set-Cookie rewrites one row, not the file: a flush after one change among many changes one row.
    @Test func oneSetCookieWritesOneRow() throws {
        let jar = try openTestJar(path)
        for index in 0..<100 { jar.setCookie("c\(index)=v; Max-Age=3600", from: url("https://example.com/")) }
        #expect(try jar.flush() == 100)
        jar.setCookie("c7=changed; Max-Age=3600", from: url("https://example.com/"))
        #expect(try jar.flush() == 1)
        #expect(try jar.flush() == 0)
        try jar.close()
        #expect(try openTestJar(path).allCookies().first { $0.name == "c7" }?.value == "changed")
    }

    /// Changes within the flush delay are coalesced into one background write.
    @Test func changesAreCoalescedIntoOneScheduledFlush() throws {
        let scheduler = ManualFlushScheduler()
        let jar = try openTestJar(path, options: testFileOptions(scheduler))
        #expect(scheduler.delays.isEmpty)
        jar.setCookie("a=1; Max-Age=3600", from: url("https://example.com/"))
        jar.setCookie("b=1; Max-Age=3600", from: url("https://example.com/"))
        jar.delete(jar.allCookies().first { $0.name == "a" }!)
        #expect(scheduler.delays == [.seconds(1)])

        scheduler.runAll()
        // What the background write stored is what another process sees now.
        let other = try openTestJar(path)
        #expect(other.allCookies().map(\.name) == ["b"])
        #expect(try jar.flush() == 0)
        jar.setCookie("c=1; Max-Age=3600", from: url("https://example.com/"))
        #expect(scheduler.delays == [.seconds(1)])
        try jar.close()
        try other.close()
    }

    /// With no flush delay, nothing is scheduled: only flush() and close() write.
    @Test func noFlushDelayWritesOnlyOnDemand() throws {
        let scheduler = ManualFlushScheduler()
        var options = testFileOptions(scheduler)
        options.flushDelay = nil
        let jar = try openTestJar(path, options: options)
        jar.setCookie("a=1; Max-Age=3600", from: url("https://example.com/"))
        #expect(scheduler.delays.isEmpty)
        #expect(try jar.flush() == 1)
        try jar.close()
    }

    /// Retrieval updates last-access times without change events; the file gets them at most once a
    /// minute (Chromium's kLastAccessThreshold) or at close.
    @Test func lastAccessIsWrittenAtMostOncePerMinute() throws {
        let clock = ManualCookieClock(testEpoch)
        let jar = try openTestJar(path, clock: clock)
        jar.setCookie("a=1; Max-Age=86400", from: url("https://example.com/"))
        try jar.flush()

        clock.advance(seconds: 10)
        _ = jar.cookies(for: url("https://example.com/"))
        #expect(try jar.flush() == 0)
        clock.advance(seconds: 51)
        #expect(try jar.flush() == 1)
        #expect(try jar.flush() == 0)

        clock.advance(seconds: 5)
        _ = jar.cookies(for: url("https://example.com/"))
        try jar.close()
        #expect(try openTestJar(path, clock: clock).allCookies().first?.lastAccess == clock.now())
    }

    /// Two jars on one file: each writes only what it changed, so both sets of changes survive.
    @Test func twoJarsOnOneFileMergeTheirChanges() throws {
        let first = try openTestJar(path)
        let second = try openTestJar(path)
        first.setCookie("one=1; Max-Age=3600", from: url("https://example.com/"))
        second.setCookie("two=2; Max-Age=3600", from: url("https://example.org/"))
        try first.flush()
        try second.flush()
        first.setCookie("shared=first; Max-Age=3600", from: url("https://example.net/"))
        second.setCookie("shared=second; Max-Age=3600", from: url("https://example.net/"))
        try second.flush()
        try first.close()
        try second.close()

        let merged = try openTestJar(path).allCookies()
        #expect(Set(merged.map(\.name)) == ["one", "two", "shared"])
        #expect(merged.first { $0.name == "shared" }?.value == "first", "the last flush wins")
    }

    /// Two jars on one file, one of them stale: the session it held expires and is purged by a lookup,
    /// after the other jar refreshed it (a new value and expiry). The purge deletes the row only while it
    /// is the cookie the stale jar held (`CookieWrite.deleteIfUnchanged`): the refreshed session stays. A
    /// server's Max-Age=0 for it is a deletion asked for, and wins.
    @Test func aStaleJarsExpiryPurgeKeepsARowRefreshedMeanwhile() throws {
        let clock = ManualCookieClock(testEpoch)
        let stale = try openTestJar(path, clock: clock)
        stale.setCookie("sid=old; Max-Age=60", from: url("https://example.com/"))
        try stale.flush()
        clock.advance(seconds: 50)
        let fresh = try openTestJar(path, clock: clock)
        fresh.setCookie("sid=new; Max-Age=600", from: url("https://example.com/"))
        try fresh.flush()
        clock.advance(seconds: 11)
        #expect(stale.cookieHeader(for: url("https://example.com/")) == nil)
        #expect(try stale.flush() == 0)
        #expect(try openTestJar(path, clock: clock).allCookies().map(\.value) == ["new"])
        stale.setCookie("sid=new; Max-Age=600", from: url("https://example.com/"))
        stale.setCookie("sid=; Max-Age=0", from: url("https://example.com/"))
        try stale.flush()
        #expect(try openTestJar(path, clock: clock).allCookies().isEmpty)
        try stale.close()
        try fresh.close()
    }

    /// A session rotated to one that expires before the next flush: the file loses the session it held,
    /// rather than keep it for the next launch to send (the rotated version was never written, so its
    /// removal removes the one it replaced).
    @Test func aRotatedSessionThatExpiresBeforeTheFlushLeavesNoSessionInTheFile() throws {
        let clock = ManualCookieClock(testEpoch)
        let jar = try openTestJar(path, clock: clock)
        jar.setCookie("sid=old; Max-Age=86400", from: url("https://example.com/"))
        try jar.flush()
        jar.setCookie("sid=rotated; Max-Age=1", from: url("https://example.com/"))
        clock.advance(seconds: 2)
        #expect(jar.cookieHeader(for: url("https://example.com/")) == nil)
        try jar.close()
        #expect(try openTestJar(path, clock: clock).allCookies().isEmpty)
    }

    /// After close the jar works in memory but writes nothing.
    @Test func closedJarKeepsWorkingInMemory() throws {
        let jar = try openTestJar(path)
        jar.setCookie("before=1; Max-Age=3600", from: url("https://example.com/"))
        try jar.close()
        jar.setCookie("after=1; Max-Age=3600", from: url("https://example.com/"))
        #expect(jar.count == 2)
        #expect(try jar.flush() == 0)
        #expect(try openTestJar(path).allCookies().map(\.name) == ["before"])
    }

    /// Whose token `removeObserver` is given, naming no observer of the jar.
    enum ForeignToken: CaseIterable {
        /// 0, as a token variable holds before anything was registered.
        case unset
        /// The first token of another jar.
        case anotherJars
        /// The jar's own observer's, removed before.
        case removedAlready
    }

    /// A token that names no observer of the jar removes nothing (`removeObserver` says so): the jar's
    /// recording of its changes for the file takes no token, and goes on, so what the jar receives next
    /// reaches the file.
    @Test(arguments: ForeignToken.allCases)
    func removingATokenOfNoObserverKeepsTheFileWritten(_ foreign: ForeignToken) throws {
        let jar = try openTestJar(path)
        let observer = jar.addObserver { _ in }
        let token = switch foreign {
        case .unset: 0
        case .anotherJars: makeTestJar().0.addObserver { _ in }
        case .removedAlready: observer
        }
        if foreign == .removedAlready { jar.removeObserver(observer) }
        jar.removeObserver(token)
        jar.setCookie("a=1; Max-Age=3600", from: url("https://example.com/"))
        #expect(jar.hasPendingChanges)
        try jar.close()
        #expect(try openTestJar(path).allCookies().map(\.name) == ["a"])
    }

    /// Cookies evicted while loading (the file holds more than the jar's limits, rfc6265bis-22 §6.1) leave
    /// the file, and the jar says which limit evicted how many of which site (`evictedAtLoading`): nothing
    /// is dropped without a word. A jar whose limits hold everything reports none.
    @Test(arguments: [
        (CookieLimits(maxCookiesPerSite: 4, sitePurgeCount: 0), [CookieEviction(limit: .perSite, site: "example.com", count: 6)], 4),
        (CookieLimits(maxCookies: 7, purgeCount: 1), [CookieEviction(limit: .total, site: "example.com", count: 4)], 6),
        (CookieLimits.default, [], 10),
    ])
    func cookiesEvictedWhileLoadingLeaveTheFile(limits: CookieLimits, evictions: [CookieEviction], kept: Int) throws {
        let jar = try openTestJar(path)
        for index in 0..<10 { jar.setCookie("c\(index)=v; Max-Age=3600", from: url("https://example.com/")) }
        try jar.close()
        #expect(jar.evictedAtLoading.isEmpty)

        let small = try CookieJar(
            contentsOf: path, options: testFileOptions(), publicSuffixList: testPublicSuffixList, limits: limits,
            clock: ManualCookieClock(testEpoch))
        #expect(small.count == kept)
        #expect(small.evictedAtLoading == evictions)
        #expect(try small.flush() == 10 - kept)
        try small.close()
        #expect(CookieJar(publicSuffixList: testPublicSuffixList).evictedAtLoading.isEmpty)
    }
}
