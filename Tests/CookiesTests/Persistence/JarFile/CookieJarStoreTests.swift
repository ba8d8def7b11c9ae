import Foundation
import Synchronization
import Testing

@testable import Cookies

/// The seam between a jar and its store (`CookieJarStore`), with a store that keeps what it is handed:
/// what loading drops, how changes are coalesced, what a failed write leaves pending.
@Suite struct CookieJarStoreTests {
    /// A store in memory; fails its writes while `failing` is set. `during[n]` runs at the start of the
    /// n-th write (from 1; a change another thread makes while the write runs), which then fails or not.
    final class RecordingStore: CookieJarStore {
        struct Unavailable: Error {}
        let written = CookieLock<[CookieJarChanges]>([])
        let failing = Atomic<Bool>(false)
        let closed = Atomic<Bool>(false)
        let during = CookieLock<[Int: @Sendable () -> Void]>([:])
        private let writeCount = Atomic<Int>(0)

        func write(_ changes: CookieJarChanges) throws(Unavailable) -> Int {
            let number = writeCount.wrappingAdd(1, ordering: .relaxed).newValue
            if let change = during.withLock({ $0.removeValue(forKey: number) }) { change() }
            if failing.load(ordering: .relaxed) { throw Unavailable() }
            written.withLock { $0.append(changes) }
            return changes.writes.count + changes.lastAccess.count
        }

        func close() { closed.store(true, ordering: .relaxed) }

        var writes: [[CookieIdentity: CookieWrite]] { written.withLock { $0.map(\.writes) } }
        var insertedAfterRemoval: [Set<CookieIdentity>] { written.withLock { $0.map(\.insertedAfterRemoval) } }
        var insertedInPlaceOf: [[CookieIdentity: Cookie]] { written.withLock { $0.map(\.insertedInPlaceOf) } }
    }

    func load(_ cookies: [Cookie], into store: RecordingStore, limits: CookieLimits = .default) -> (CookieJar, ManualCookieClock) {
        var options = CookieWriteOptions()
        options.flushDelay = nil
        let clock = ManualCookieClock(testEpoch)
        return (CookieJar(loading: cookies, into: store, options: options, limits: limits, clock: clock), clock)
    }

    func cookie(_ name: String, expiry: CookieTime?, lastAccess: CookieTime = testEpoch) -> Cookie {
        Cookie(name: name, value: "v", domain: "example.com", expiry: expiry, creation: testEpoch, lastAccess: lastAccess)
    }

    // As the SQLite jar (CookieJarFileTests): expired cookies (§5.7) and session cookies (§5.7 step 6) are
    // not loaded, and are deleted from the store at the first write: the expired ones only while the store
    // still holds them as read (another writer may have refreshed them since).
    @Test func expiredAndSessionCookiesAreNotLoadedAndDeletedAtTheFirstWrite() throws {
        let store = RecordingStore()
        let future = testEpoch.adding(seconds: 600)
        let (jar, _) = load(
            [cookie("kept", expiry: future), cookie("expired", expiry: testEpoch), cookie("session", expiry: nil)], into: store)
        #expect(jar.allCookies().map(\.name) == ["kept"])
        #expect(jar.hasPendingChanges)
        try jar.flush(to: store)
        let (expired, session) = (cookie("expired", expiry: testEpoch), CookieIdentity(cookie("session", expiry: nil)))
        #expect(store.writes == [[CookieIdentity(expired): .deleteIfUnchanged(expired), session: .delete(session)]])
    }

    /// A stored cookie no jar may hold (one CookieJar.insert refuses), changed as the case says from a
    /// cookie of the store, and why.
    struct CookieNoJarHolds: Sendable, CustomTestStringConvertible {
        let change: @Sendable (inout Cookie) -> Void
        let rejection: CookieRejection
        let source: String
        var testDescription: String { source }
    }

    static let cookiesNoJarHolds = [
        CookieNoJarHolds(change: { $0.value = String(repeating: "v", count: 4094) }, rejection: .nameAndValueTooLong,
                         source: "§5.6 step 5: name and value over 4,096 octets together"),
        CookieNoJarHolds(change: { $0.sourcePort = 65536 }, rejection: .invalidSourcePort, source: "a port is 16 bits"),
        CookieNoJarHolds(change: { $0.value = "a\r\nX-Injected: 1" }, rejection: .controlCharacter,
                         source: "§5.6 step 1: a CTL other than HTAB; a Cookie header would carry a header field of its own"),
        CookieNoJarHolds(change: { $0.value = "a;b=c" }, rejection: .separatorCharacter,
                         source: "§5.6 step 2: the name-value-pair ends at \";\"; a Cookie header would carry two pairs"),
        CookieNoJarHolds(change: { $0.name = "a=b" }, rejection: .separatorCharacter, source: "§5.6 step 3: the name ends at \"=\""),
        CookieNoJarHolds(change: { $0.value = "v " }, rejection: .whitespaceAtEnds,
                         source: "§5.6 step 4: WSP at the ends of the value goes"),
        CookieNoJarHolds(change: { $0.name = ""; $0.value = "" }, rejection: .emptyNameAndValue,
                         source: "§5.6 step 6: a line with an empty name and value is ignored"),
        CookieNoJarHolds(change: { $0.path = "account" }, rejection: .relativePath,
                         source: "§5.7 step 11: a cookie-path starts with \"/\" (§5.6.4, §5.1.4)"),
        CookieNoJarHolds(change: { $0.domain = "exa\u{1}mple.com" }, rejection: .controlCharacter,
                         source: "§5.1.2: no host holds a control character (WHATWG URL forbidden host code points)"),
        CookieNoJarHolds(change: { $0.partitionKey = "" }, rejection: .emptyPartitionKey, source: "an unpartitioned cookie has no key"),
        CookieNoJarHolds(change: { $0.partitionKey = "https://a.example\n" }, rejection: .controlCharacter,
                         source: "§5.6 step 1; a partition key is a site"),
    ]

    // A cookie no jar may hold is not loaded, is listed with why in cookiesNotLoaded, is never sent, and
    // is left in the store: no write deletes it.
    @Test(arguments: cookiesNoJarHolds)
    func cookiesNoJarHoldsAreNotLoadedListedAndLeftInTheStore(_ damage: CookieNoJarHolds) throws {
        let store = RecordingStore()
        let future = testEpoch.adding(seconds: 600)
        var bad = cookie("bad", expiry: future)
        damage.change(&bad)
        var longest = cookie("kept", expiry: future)
        longest.value = String(repeating: "v", count: 4092)
        let (jar, _) = load([bad, longest], into: store)
        #expect(jar.allCookies() == [longest])
        #expect(jar.cookiesNotLoaded.map(\.identity) == [CookieIdentity(bad)])
        #expect(jar.cookiesNotLoaded.map(\.rejection) == [damage.rejection])
        #expect(jar.cookieHeader(for: url("https://example.com/account")) == "kept=" + longest.value)
        #expect(!jar.hasPendingChanges)
        jar.setCookie("new=1; Max-Age=60", from: url("https://example.com/"))
        try jar.flush(to: store)
        #expect(store.writes.map { Set($0.keys.map(\.name)) } == [["new"]])
    }

    // Limits (CookieLimits, Chromium's per-site limit) are enforced on what is loaded; the evicted cookies
    // are deletions of the first write, of the cookies as the jar held them.
    @Test func cookiesEvictedWhileLoadingAreDeletedAtTheFirstWrite() throws {
        let store = RecordingStore()
        let future = testEpoch.adding(seconds: 600)
        let cookies = (0..<3).map { cookie("c\($0)", expiry: future, lastAccess: testEpoch.adding(seconds: Int64($0))) }
        let (jar, _) = load(cookies, into: store, limits: CookieLimits(maxCookiesPerSite: 2, sitePurgeCount: 0))
        #expect(jar.count == 2)
        try jar.flush(to: store)
        #expect(store.writes == [[CookieIdentity(cookies[0]): .deleteIfUnchanged(cookies[0])]])
    }

    // A store that enforces a jar's limits on what many writers stored keeps what a write just stored, as a
    // jar never evicts the cookie it stores (CookieStore.enforceLimits; §5.7 leaves which excess cookies go
    // to the user agent): loaded keeping c0, the least recently used, the jar evicts the next in line, c1,
    // for the per-site limit (one site) as for the jar's (a site each).
    @Test(arguments: [(CookieLimits(maxCookiesPerSite: 2, sitePurgeCount: 0), false), (CookieLimits(maxCookies: 2, purgeCount: 0), true)])
    func cookiesKeptWhileLoadingAreNotEvicted(limits: CookieLimits, siteEach: Bool) throws {
        let store = RecordingStore()
        let future = testEpoch.adding(seconds: 600)
        let cookies = (0..<3).map {
            Cookie(
                name: "c\($0)", value: "v", domain: siteEach ? "site\($0).com" : "example.com", expiry: future, creation: testEpoch,
                lastAccess: testEpoch.adding(seconds: Int64($0)))
        }
        let jar = CookieJar(
            loading: cookies, into: store, options: CookieWriteOptions(), publicSuffixList: SystemPublicSuffixList.shared,
            limits: limits, clock: ManualCookieClock(testEpoch), keeping: [cookies[0]])
        #expect(Set(jar.allCookies().map(\.name)) == ["c0", "c2"])
        try jar.flush(to: store)
        #expect(store.writes == [[CookieIdentity(cookies[1]): .deleteIfUnchanged(cookies[1])]])
    }

    /// A cookie replaced, then let go by the jar on its own before any flush wrote the new version (a
    /// session rotated to one of a second, expired by the next flush; or evicted): the store still holds
    /// the version the replacement superseded, which the removal deletes (while unchanged), else it would
    /// come back at the next load (this project's contract: what the jar let go stays gone). A cookie the
    /// store never held writes nothing. The same when the replacement's write failed first.
    @Test(arguments: [false, true])
    func aReplacedCookieLetGoBeforeItsFlushRemovesTheStoredVersion(failingFirst: Bool) throws {
        let store = RecordingStore()
        let old = Cookie(name: "sid", value: "old", domain: "example.com", expiry: testEpoch.adding(seconds: 86_400), creation: testEpoch)
        let (jar, clock) = load([old], into: store)
        if failingFirst {
            jar.setCookie("sid=rotated; Max-Age=1", from: url("https://example.com/"))
            store.failing.store(true, ordering: .relaxed)
            #expect(throws: RecordingStore.Unavailable.self) { try jar.flush(to: store) }
            store.failing.store(false, ordering: .relaxed)
        }
        jar.setCookie("sid=new; Max-Age=1", from: url("https://example.com/"))
        jar.setCookie("fresh=1; Max-Age=1", from: url("https://example.com/"))
        clock.advance(seconds: 2)
        #expect(jar.cookieHeader(for: url("https://example.com/")) == nil)
        try jar.flush(to: store)
        #expect(store.writes == [[CookieIdentity(old): .deleteIfUnchanged(old)]])
    }

    /// A sign-out (a removal asked for) followed, before the flush, by a new cookie of the same identity
    /// that the jar then lets go on its own (expired): the sign-out is not lost with them, and deletes what
    /// the store holds, whoever wrote it (a removal asked for wins, §5.7 step 23 with an expiry in the past).
    @Test func aSignOutThenANewCookieLetGoBeforeTheFlushStillDeletes() throws {
        let store = RecordingStore()
        let old = Cookie(name: "sid", value: "old", domain: "example.com", expiry: testEpoch.adding(seconds: 86_400), creation: testEpoch)
        let (jar, clock) = load([old], into: store)
        jar.setCookie("sid=; Max-Age=0", from: url("https://example.com/"))
        jar.setCookie("sid=new; Max-Age=1", from: url("https://example.com/"))
        clock.advance(seconds: 2)
        #expect(jar.cookieHeader(for: url("https://example.com/")) == nil)
        try jar.flush(to: store)
        #expect(store.writes == [[CookieIdentity(old): .delete(CookieIdentity(old))]])
    }

    /// A close of a jar that another thread changes during each of its writes ends after `closeRounds`
    /// writes of those changes, the last one's dropped (later than the close), rather than go on for as long
    /// as they come; no write is made with recording stopped (a sign-out during it would be lost if it
    /// failed). A close whose write fails drops nothing: the change made during it is written next.
    @Test func aCloseOfAJarChangedDuringEveryWriteEnds() throws {
        let store = RecordingStore()
        let old = Cookie(name: "sid", value: "old", domain: "example.com", expiry: testEpoch.adding(seconds: 86_400), creation: testEpoch)
        let (jar, _) = load([old], into: store)
        jar.setCookie("a=1; Max-Age=60", from: url("https://example.com/"))
        store.during.withLock { during in
            during[1] = { jar.setCookie("b=1; Max-Age=60", from: url("https://example.com/")) }
            during[2] = { jar.setCookie("c=1; Max-Age=60", from: url("https://example.com/")) }
            during[3] = { jar.setCookie("d=1; Max-Age=60", from: url("https://example.com/")) }
            during[4] = {
                jar.setCookie("sid=; Max-Age=0", from: url("https://example.com/"))
                store.failing.store(true, ordering: .relaxed)
            }
        }
        #expect(CookieJarPersistence.closeRounds == 2)
        try jar.close(store)
        #expect(store.writes.map { Set($0.keys.map(\.name)) } == [["a"], ["b"], ["c"]])

        let failing = RecordingStore()
        let (other, _) = load([old], into: failing)
        other.setCookie("a=1; Max-Age=60", from: url("https://example.com/"))
        failing.during.withLock { during in
            during[1] = {
                other.setCookie("sid=; Max-Age=0", from: url("https://example.com/"))
                failing.failing.store(true, ordering: .relaxed)
            }
        }
        #expect(throws: RecordingStore.Unavailable.self) { try other.close(failing) }
        failing.failing.store(false, ordering: .relaxed)
        try other.flush(to: failing)
        #expect(failing.writes.map { Set($0.keys.map(\.name)) } == [["a", "sid"]])
        #expect(failing.writes.first?[CookieIdentity(old)] == .delete(CookieIdentity(old)))
    }

    /// The writes loading queued (a stored session cookie the jar does not keep, deleted; an expired one,
    /// deleted while unchanged), then a cookie of the same identity let go before the flush: the queued
    /// write still reaches the store, where it would have been dropped with the cookie's.
    @Test(arguments: [false, true])
    func aWriteQueuedAtLoadingOutlivesANewCookieLetGo(expired: Bool) throws {
        let store = RecordingStore()
        let stored = Cookie(
            name: "sid", value: "s", domain: "example.com", expiry: expired ? testEpoch : nil, creation: testEpoch)
        let (jar, clock) = load([stored], into: store)
        jar.setCookie("sid=new; Max-Age=1", from: url("https://example.com/"))
        clock.advance(seconds: 2)
        #expect(jar.cookieHeader(for: url("https://example.com/")) == nil)
        try jar.flush(to: store)
        #expect(store.writes == [[CookieIdentity(stored): expired ? .deleteIfUnchanged(stored) : .delete(CookieIdentity(stored))]])
    }

    /// A close whose last write fails, after a change made during its first one (another thread): the jar
    /// is still followed, as the close's failure says (its store stays open), so that a change made after
    /// it is written by the next flush with the one the failed write left pending.
    @Test func aCloseWhoseLastWriteFailsKeepsFollowingTheJar() throws {
        let store = RecordingStore()
        let (jar, _) = load([], into: store)
        jar.setCookie("first=1; Max-Age=60", from: url("https://example.com/"))
        store.during.withLock { during in
            during[1] = { jar.setCookie("during=1; Max-Age=60", from: url("https://example.com/")) }
            during[2] = { store.failing.store(true, ordering: .relaxed) }
        }
        // The close's first write succeeds; the one of the change made during it fails.
        #expect(throws: RecordingStore.Unavailable.self) { try jar.close(store) }
        jar.setCookie("after=1; Max-Age=60", from: url("https://example.com/"))
        store.failing.store(false, ordering: .relaxed)
        try jar.flush(to: store)
        #expect(Set(store.writes.flatMap(\.keys).map(\.name)) == ["first", "during", "after"])
    }

    /// A removal the jar makes on its own (a cookie whose expiry passed, purged; one the limits evicted)
    /// deletes the stored cookie only while it is unchanged, so that a version another writer stored since
    /// (an instance of a fleet, another process on the file: a refreshed session) stays; a removal asked
    /// for (a server's already expired Set-Cookie for a live cookie, §5.7 step 23 with an expiry in the
    /// past; a delete call; a sign-out; the end of the session) deletes whatever is stored.
    struct RemovalCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var limits = CookieLimits.default
        /// Received at `testEpoch` (sid=1, Max-Age=60, then two more cookies of another name).
        var act: @Sendable (CookieJar, ManualCookieClock) -> Void
        var isConditional: Bool
    }

    static let removals: [RemovalCase] = [
        RemovalCase(testDescription: "expired, purged by a lookup", act: { jar, clock in
            clock.advance(seconds: 61)
            _ = jar.cookieHeader(for: url("https://example.com/"))
        }, isConditional: true),
        RemovalCase(testDescription: "evicted by the per-site limit (the least recently used)", limits: CookieLimits(maxCookiesPerSite: 2, sitePurgeCount: 0), act: { jar, clock in
            clock.advance(seconds: 1)
            jar.receive("b=1; Max-Age=600", from: url("https://example.com/"))
            clock.advance(seconds: 1)
            jar.receive("c=1; Max-Age=600", from: url("https://example.com/"))
        }, isConditional: true),
        RemovalCase(testDescription: "a server's Set-Cookie already expired (Max-Age=0)", act: { jar, _ in
            jar.receive("sid=; Max-Age=0", from: url("https://example.com/"))
        }, isConditional: false),
        RemovalCase(testDescription: "a delete call", act: { jar, _ in
            jar.delete(jar.allCookies()[0])
        }, isConditional: false),
        RemovalCase(testDescription: "a sign-out", act: { jar, _ in
            jar.signOut(from: url("https://example.com/"))
        }, isConditional: false),
    ]

    @Test(arguments: removals)
    func removalsTheJarMakesOnItsOwnDeleteOnlyWhatIsUnchanged(_ removal: RemovalCase) throws {
        let store = RecordingStore()
        let (jar, clock) = load([], into: store, limits: removal.limits)
        jar.receive("sid=1; Max-Age=60", from: url("https://example.com/"))
        let sid = try #require(jar.allCookies().first)
        try jar.flush(to: store)
        removal.act(jar, clock)
        try jar.flush(to: store)
        let write = store.writes.last?[CookieIdentity(sid)]
        #expect(write == (removal.isConditional ? .deleteIfUnchanged(sid) : .delete(CookieIdentity(sid))))
    }

    /// A removal asked for (a server's `Max-Age=0`, a delete call, a sign-out), then a new cookie of the same
    /// identity before the flush (a sign-in): the removal deleted the cookie, so the new one replaces no
    /// old-cookie (§5.7 step 24) and keeps its own creation time; its upsert is named among those inserted
    /// after a removal, which a store shared by several writers would otherwise apply keeping the stored
    /// cookie's creation time (§5.7 step 23.3), the deleted one's here. The same when the removal's write
    /// failed, and the new cookie came after. A cookie replaced without a removal between is not named.
    @Test(arguments: removals.filter { !$0.isConditional }, [false, true])
    func aCookieSetAfterARemovalAskedForIsInsertedAfterARemoval(_ removal: RemovalCase, failingFirst: Bool) throws {
        let store = RecordingStore()
        let (jar, clock) = load([], into: store)
        let site = url("https://example.com/")
        jar.receive("sid=1; Max-Age=60", from: site)
        let old = try #require(jar.allCookies().first)
        try jar.flush(to: store)
        clock.advance(seconds: 1)
        removal.act(jar, clock)
        if failingFirst {
            store.failing.store(true, ordering: .relaxed)
            #expect(throws: RecordingStore.Unavailable.self) { try jar.flush(to: store) }
            store.failing.store(false, ordering: .relaxed)
        }
        clock.advance(seconds: 1)
        jar.receive("sid=2; Max-Age=60", from: site)
        let new = try #require(jar.allCookies().first)
        #expect(new.creation > old.creation)
        try jar.flush(to: store)
        #expect(store.writes.last == [CookieIdentity(new): .upsert(new)])
        #expect(store.insertedAfterRemoval.last == [CookieIdentity(new)])

        jar.receive("sid=3; Max-Age=60", from: site)
        let replaced = try #require(jar.allCookies().first)
        #expect(replaced.creation == new.creation)
        try jar.flush(to: store)
        #expect(store.writes.last == [CookieIdentity(new): .upsert(replaced)])
        #expect(store.insertedAfterRemoval.last == [])
    }

    /// A change of a cookie written already, before the next flush: how the cookie that takes its place
    /// came, and whether it kept the written cookie's creation time.
    struct TakingThePlace: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var limits = CookieLimits.default
        /// After sid=1 (Max-Age=60, received at `testEpoch` and written), one second later.
        var act: @Sendable (CookieJar, ManualCookieClock) -> Void
        var keepsTheCreationTime: Bool
    }

    static let placesTaken: [TakingThePlace] = [
        TakingThePlace(testDescription: "§5.7 step 23.3: replaced by a Set-Cookie, keeping its creation time", act: { jar, _ in
            jar.receive("sid=2; Max-Age=60", from: url("https://example.com/"))
        }, keepsTheCreationTime: true),
        TakingThePlace(testDescription: "§5.7 step 22: evicted by the per-site limit, then set again (step 24: a new cookie)",
                       limits: CookieLimits(maxCookiesPerSite: 2, sitePurgeCount: 0), act: { jar, clock in
            jar.receive("b=1; Max-Age=600", from: url("https://example.com/"))
            clock.advance(seconds: 1)
            jar.receive("c=1; Max-Age=600", from: url("https://example.com/"))
            clock.advance(seconds: 1)
            jar.receive("sid=2; Max-Age=60", from: url("https://example.com/"))
        }, keepsTheCreationTime: false),
        TakingThePlace(testDescription: "§5.7: expired, purged by a lookup, then set again (step 24: a new cookie)", act: { jar, clock in
            clock.advance(seconds: 60)
            _ = jar.cookieHeader(for: url("https://example.com/"))
            jar.receive("sid=2; Max-Age=60", from: url("https://example.com/"))
        }, keepsTheCreationTime: false),
        TakingThePlace(testDescription: "CookieJar.insert of a cookie made later (a web view's): it keeps its own creation time", act: { jar, clock in
            _ = jar.insert(Cookie(name: "sid", value: "2", domain: "example.com", expiry: clock.now().adding(seconds: 60),
                                  creation: clock.now(), lastAccess: clock.now()))
        }, keepsTheCreationTime: false),
        TakingThePlace(testDescription: "CookieJar.insert of the jar's cookie with another value (same creation time)", act: { jar, _ in
            var cookie = jar.allCookies()[0]
            cookie.value = "2"
            _ = jar.insert(cookie)
        }, keepsTheCreationTime: true),
    ]

    /// A cookie that takes the place of one written already without keeping its creation time (§5.7 step
    /// 23.3 keeps it for a replacement only) is named with the written version among the upserts inserted
    /// in its place: a store shared by several writers, which keeps a stored cookie's creation time on an
    /// upsert, then keeps the new cookie's own while it still holds that version. A replacement is not
    /// named.
    @Test(arguments: placesTaken)
    func aCookieThatTakesAWrittenCookiesPlaceNamesItUnlessItKeepsItsCreationTime(_ place: TakingThePlace) throws {
        let store = RecordingStore()
        let (jar, clock) = load([], into: store, limits: place.limits)
        jar.receive("sid=1; Max-Age=60", from: url("https://example.com/"))
        let old = try #require(jar.allCookies().first)
        try jar.flush(to: store)
        clock.advance(seconds: 1)
        place.act(jar, clock)
        let new = try #require(jar.allCookies().first { $0.name == "sid" })
        #expect(new.value == "2")
        #expect((new.creation == old.creation) == place.keepsTheCreationTime)
        try jar.flush(to: store)
        #expect(store.writes.last?[CookieIdentity(new)] == .upsert(new))
        #expect(store.insertedInPlaceOf.last == (place.keepsTheCreationTime ? [:] : [CookieIdentity(new): old]))
        #expect(store.insertedAfterRemoval.last == [])
    }

    // One write per flush, the latest change of each identity (§5.7 step 23 replaces by identity).
    @Test func changesAreCoalescedByIdentity() throws {
        let store = RecordingStore()
        let (jar, _) = load([], into: store)
        let site = url("https://example.com/")
        jar.receive(["a=1; Max-Age=600", "a=2; Max-Age=600", "b=1; Max-Age=600", "b=; Max-Age=0", "s=1"], from: site)
        #expect(try jar.flush(to: store) == 2)
        let writes = try #require(store.writes.first)
        #expect(writes.count == 2, "the session cookie s is not written")
        for (identity, write) in writes {
            switch (identity.name, write) {
            case ("a", .upsert(let cookie)): #expect(cookie.value == "2")
            case ("b", .delete): break
            default: Issue.record("unexpected write of \(identity.name): \(write)")
            }
        }
    }

    // A failed write leaves its changes pending; a change made since is newer and wins.
    @Test func failedWriteLeavesTheChangesPending() throws {
        let store = RecordingStore()
        let (jar, _) = load([], into: store)
        let site = url("https://example.com/")
        jar.receive(["a=1; Max-Age=600", "b=1; Max-Age=600"], from: site)
        store.failing.store(true, ordering: .relaxed)
        #expect(throws: RecordingStore.Unavailable.self) { try jar.flush(to: store) }
        #expect(jar.hasPendingChanges)
        jar.receive("a=2; Max-Age=600", from: site)
        store.failing.store(false, ordering: .relaxed)
        #expect(try jar.flush(to: store) == 2)
        guard case .upsert(let a) = store.writes.last?[CookieIdentity(jar.allCookies().first { $0.name == "a" }!)] else {
            Issue.record("a not written")
            return
        }
        #expect(a.value == "2")
    }

    // A change is recorded for the store before the call that made it returns, though the jar's observers
    // hear of it later: here another thread is still delivering an earlier change to a slow observer when
    // the next change is made and flushed, and the flush writes it.
    @Test(.timeLimit(.minutes(1))) func changeIsWrittenByAFlushRightAfterItWhileObserversLag() throws {
        let store = RecordingStore()
        let (jar, _) = load([], into: store)
        let site = url("https://example.com/")
        let delivering = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        jar.addObserver { change in
            guard change.cookie.name == "slow" else { return }
            delivering.store(true, ordering: .releasing)
            while !release.load(ordering: .acquiring) { usleep(1000) }
        }
        let other = Thread { jar.receive("slow=1; Max-Age=600", from: site) }
        other.start()
        while !delivering.load(ordering: .acquiring) { usleep(1000) }
        jar.receive("next=1; Max-Age=600", from: site)
        #expect(try jar.flush(to: store) == 2)
        #expect(Set(store.writes.flatMap(\.keys).map(\.name)) == ["slow", "next"])
        release.store(true, ordering: .releasing)
    }

    /// A clock that tells whether it is called while the jar's lock is held: while `probed` names the jar,
    /// each call asks the jar from another thread and waits for the answer, which cannot come while the
    /// lock is held (a clock with a lock of its own, asked by such a thread, would deadlock the two).
    final class LockProbingClock: CookieClock {
        let time = ManualCookieClock(testEpoch)
        let probed = CookieLock<CookieJar?>(nil)
        let callsUnderTheLock = CookieLock(0)

        func now() -> CookieTime {
            if let jar = probed.withLock({ $0 }) {
                let answered = DispatchSemaphore(value: 0)
                Thread {
                    _ = jar.count
                    answered.signal()
                }.start()
                if answered.wait(timeout: .now() + .seconds(5)) == .timedOut { callsUnderTheLock.withLock { $0 += 1 } }
            }
            return time.now()
        }
    }

    /// A call that removes a cookie as expired, and the write its removal leaves pending for the store.
    enum ExpiredRemoval: CaseIterable {
        /// A server's already expired Set-Cookie deletes the live cookie of its identity (§5.7: it removes
        /// the old cookie, and expired cookies are evicted): asked for, it deletes whatever the store holds.
        case expiredSetCookie
        /// A retrieval past the cookie's expiry purges it (§5.7: expired cookies are evicted): of the jar's
        /// own accord, it deletes what the store holds only while unchanged.
        case purgeAtRetrieval
        /// `deleteExpiredCookies` past the cookie's expiry: of the jar's own accord too.
        case deleteExpiredCookies
    }

    // A file-backed jar tells a removal as expired of its own accord from one asked for by the time of the
    // call that made it, read before the jar's lock is taken: its clock is never called with the lock held,
    // where a clock with a lock of its own, asked for the time by a thread that holds it while it waits
    // for the jar, deadlocks the two.
    @Test(arguments: ExpiredRemoval.allCases)
    func expiredRemovalsAreToldWithoutCallingTheClockUnderTheJarsLock(_ removal: ExpiredRemoval) throws {
        let store = RecordingStore()
        let clock = LockProbingClock()
        var options = CookieWriteOptions()
        options.flushDelay = nil
        let jar = CookieJar(loading: [], into: store, options: options, clock: clock)
        let site = url("https://example.com/")
        jar.receive("a=1; Max-Age=600", from: site)
        let stored = try #require(jar.allCookies().first)
        try jar.flush(to: store)
        clock.probed.withLock { $0 = jar }
        switch removal {
        case .expiredSetCookie:
            jar.receive("a=1; Max-Age=0", from: site)
        case .purgeAtRetrieval:
            clock.time.advance(seconds: 600)
            #expect(jar.cookieHeader(for: site) == nil)
        case .deleteExpiredCookies:
            clock.time.advance(seconds: 600)
            #expect(jar.deleteExpiredCookies() == 1)
        }
        clock.probed.withLock { $0 = nil }
        #expect(clock.callsUnderTheLock.withLock { $0 } == 0)
        try jar.flush(to: store)
        let removed: CookieWrite = removal == .expiredSetCookie ? .delete(CookieIdentity(stored)) : .deleteIfUnchanged(stored)
        #expect(store.writes.last == [CookieIdentity(stored): removed])
    }

    // A background write that fails is told (`backgroundWriteFailed`) and made again after twice the pause,
    // its changes kept: a change is not left unwritten until the next one.
    @Test func failedBackgroundWriteIsToldAndMadeAgain() throws {
        let store = RecordingStore()
        let scheduler = ManualFlushScheduler()
        let failures = CookieLock(0)
        var options = CookieWriteOptions()
        options.scheduler = scheduler
        options.backgroundWriteFailed = { error in
            if error is RecordingStore.Unavailable { failures.withLock { $0 += 1 } }
        }
        let jar = CookieJar(loading: [], into: store, options: options, clock: ManualCookieClock(testEpoch))
        jar.receive("a=1; Max-Age=600", from: url("https://example.com/"))
        #expect(scheduler.delays == [.seconds(1)])
        store.failing.store(true, ordering: .relaxed)
        scheduler.runAll()
        #expect(failures.withLock { $0 } == 1 && jar.hasPendingChanges)
        #expect(scheduler.delays == [.seconds(2)])
        store.failing.store(false, ordering: .relaxed)
        scheduler.runAll()
        #expect(!jar.hasPendingChanges && store.writes.count == 1)
        #expect(scheduler.delays.isEmpty)
    }

    // With no flush delay between a change and its background write, a failed write is made again after
    // 100 ms, not at once: the retries pause, and double from there.
    @Test func failedBackgroundWriteWithoutDelayPausesBeforeTheNext() throws {
        let store = RecordingStore()
        let scheduler = ManualFlushScheduler()
        var options = CookieWriteOptions()
        options.scheduler = scheduler
        options.flushDelay = .zero
        let jar = CookieJar(loading: [], into: store, options: options, clock: ManualCookieClock(testEpoch))
        jar.receive("a=1; Max-Age=600", from: url("https://example.com/"))
        store.failing.store(true, ordering: .relaxed)
        scheduler.runAll()
        #expect(scheduler.delays == [.milliseconds(100)])
        scheduler.runAll()
        #expect(scheduler.delays == [.milliseconds(200)])
    }

    // A failed background write is made again after twice the pause, up to a minute (from 100 ms with no
    // flush delay), however many changes are made meanwhile (`backgroundWriteFailed`): a change made while
    // the write fails, or while its retry waits, is written by the retry and schedules no earlier write
    // (one at the change's own delay, each time, would keep the pause at `flushDelay`: with none, at
    // once). Once a write succeeds, a change made during it is written `flushDelay` later.
    @Test(arguments: [
        (Duration.seconds(1), [2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) }),
        (Duration.zero, [100, 200, 400, 800, 1_600, 3_200, 6_400].map { Duration.milliseconds($0) }),
    ])
    func failedBackgroundWritesPauseDoublingUnderTraffic(flushDelay: Duration, pauses: [Duration]) throws {
        let store = RecordingStore()
        let scheduler = ManualFlushScheduler()
        var options = CookieWriteOptions()
        options.scheduler = scheduler
        options.flushDelay = flushDelay
        let jar = CookieJar(loading: [], into: store, options: options, clock: ManualCookieClock(testEpoch))
        let site = url("https://example.com/")
        jar.receive("first=1; Max-Age=600", from: site)
        store.failing.store(true, ordering: .relaxed)
        var scheduled: [Duration] = []
        for write in 1...pauses.count {
            // Another response arrives while the write fails, and another while the retry waits.
            store.during.withLock { $0[write] = { jar.receive("during\(write)=1; Max-Age=600", from: site) } }
            scheduler.runAll()
            jar.receive("after\(write)=1; Max-Age=600", from: site)
            scheduled += scheduler.delays
        }
        #expect(scheduled == pauses)
        store.failing.store(false, ordering: .relaxed)
        store.during.withLock { $0[pauses.count + 1] = { jar.receive("late=1; Max-Age=600", from: site) } }
        scheduler.runAll()
        #expect(store.writes.map(\.count) == [1 + 2 * pauses.count])
        #expect(scheduler.delays == [flushDelay])
        scheduler.runAll()
        #expect(store.writes.map(\.count) == [1 + 2 * pauses.count, 1])
        #expect(!jar.hasPendingChanges && scheduler.delays.isEmpty)
    }

    // Close writes what is pending with a last-access sweep, then closes the store; the jar is not
    // written to another store, nor after closing.
    @Test func closeSweepsLastAccessAndClosesTheStore() throws {
        let store = RecordingStore()
        let (jar, clock) = load([cookie("a", expiry: testEpoch.adding(seconds: 600))], into: store)
        clock.advance(seconds: 5)
        _ = jar.cookieHeader(for: url("https://example.com/"))
        #expect(try jar.flush(to: RecordingStore()) == 0, "not the jar's store")
        try jar.close(store)
        let closed = store.closed.load(ordering: .relaxed)
        #expect(closed)
        #expect(store.written.withLock { $0.last?.lastAccess.map(\.lastAccess) } == [testEpoch.adding(seconds: 5)])
        jar.receive("b=1; Max-Age=600", from: url("https://example.com/"))
        #expect(try jar.flush(to: store) == 0)
    }

    // Last-access times are swept at most once a minute (Chromium kLastAccessThreshold, 60 s;
    // CookieJarPersistence.lastAccessWriteInterval), and a use in the same tick of the clock as a sweep
    // (a coarse clock's ticks are milliseconds long: a request that flushes, then sends its cookies) is
    // written by the next one.
    @Test func aUseInTheTickOfASweepIsWrittenByTheNext() throws {
        let store = RecordingStore()
        let used = cookie("a", expiry: testEpoch.adding(seconds: 600), lastAccess: testEpoch.adding(seconds: -10))
        let (jar, clock) = load([used], into: store)
        clock.advance(seconds: 60)
        #expect(jar.isLastAccessSweepDue)
        #expect(try jar.flush(to: store) == 0, "nothing used since the load")
        #expect(!jar.isLastAccessSweepDue)
        _ = jar.cookieHeader(for: url("https://example.com/"))
        clock.advance(seconds: 59)
        #expect(!jar.isLastAccessSweepDue)
        clock.advance(seconds: 1)
        #expect(jar.isLastAccessSweepDue)
        #expect(try jar.flush(to: store) == 1)
        #expect(store.written.withLock { $0.last?.lastAccess.map(\.lastAccess) } == [testEpoch.adding(seconds: 60)])
    }
}
