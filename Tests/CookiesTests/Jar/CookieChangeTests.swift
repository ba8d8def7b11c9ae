import Foundation
import Testing
@testable import Cookies

/// Change events: every change, with its cause, in the order the jar applied it; replaying them onto a
/// mirror reproduces the jar's contents.
struct CookieChangeTests {
    /// Collects changes delivered to an observer.
    final class Recorder: Sendable {
        let changes = CookieLock<[CookieChange]>([])
        func callAsFunction(_ change: CookieChange) { changes.withLock { $0.append(change) } }
        var all: [CookieChange] { changes.withLock { $0 } }
    }

    /// Applies changes to a dictionary keyed by identity: what a web view's cookie store would do.
    static func mirror(_ changes: [CookieChange]) -> [CookieIdentity: Cookie] {
        var mirror: [CookieIdentity: Cookie] = [:]
        let key = { (cookie: Cookie) in CookieIdentity(cookie) }
        for change in changes {
            switch change {
            case .added(let cookie): mirror[key(cookie)] = cookie
            case .replaced(let old, let new):
                mirror[key(old)] = nil
                mirror[key(new)] = new
            case .removed(let cookie, _): mirror[key(cookie)] = nil
            }
        }
        return mirror
    }

    /// §5.7 step 23: a cookie whose old namesake has expired is a new cookie (the old one is removed
    /// first, as expired, and lends nothing: creation and last access are the new receipt's); a cookie
    /// replacing a live one keeps its creation time and takes every other field, last access included,
    /// from the new receipt. The outcome and the change event carry the same cookies.
    @Test func receiptsAfterAnExpiredAndALiveNamesakeCarryTheirTimes() throws {
        let (jar, clock) = makeTestJar()
        let recorder = Recorder()
        jar.addObserver { recorder($0) }
        let site = url("https://a.test/x/y")
        let first = try #require(jar.setCookie("a=1; Max-Age=10", from: site).cookie)
        clock.advance(seconds: 20)
        let second = try #require(jar.setCookie("a=2; Max-Age=100; Secure", from: site).cookie)
        #expect(second.creation == testEpoch.adding(seconds: 20) && second.lastAccess == second.creation)
        #expect(second.creation > first.creation && second.value == "2" && second.path == "/x" && second.isSecure)
        clock.advance(seconds: 5)
        let outcome = jar.setCookie("a=3; Max-Age=100; Secure; HttpOnly; SameSite=Strict", from: site)
        guard case .replaced(let third, let previous) = outcome else {
            Issue.record("expected a replacement, got \(outcome)")
            return
        }
        #expect(previous == second)
        #expect(third.creation == second.creation, "§5.7 step 23: the creation time is kept")
        #expect(third.lastAccess == testEpoch.adding(seconds: 25))
        #expect(third.value == "3" && third.isHTTPOnly && third.sameSite == .strict && third.isSecure)
        #expect(third.partitionKey == nil && third.expiry == testEpoch.adding(seconds: 125))
        guard recorder.all.count == 4 else {
            Issue.record("expected four changes, got \(recorder.all)")
            return
        }
        #expect(recorder.all[0] == .added(first))
        #expect(recorder.all[1] == .removed(first, cause: .expired))
        #expect(recorder.all[2] == .added(second))
        #expect(recorder.all[3] == .replaced(old: second, new: third))
    }

    @Test func everyCauseIsReported() {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookiesPerSite: 3, sitePurgeCount: 0))
        let recorder = Recorder()
        jar.addObserver { recorder($0) }
        jar.setCookie("a=1", from: url("http://a.test/"))
        jar.setCookie("a=2", from: url("http://a.test/"))
        jar.setCookie("a=2; Max-Age=0", from: url("http://a.test/"))
        jar.setCookie("e=1; Max-Age=1", from: url("http://a.test/"))
        clock.advance(seconds: 2)
        _ = jar.cookieHeader(for: url("http://a.test/"))
        for index in 0..<4 { jar.setCookie("c\(index)=1", from: url("http://b.test/")) }
        jar.setCookie("s=1", from: url("http://c.test/"))
        jar.deleteSessionCookies()
        jar.setCookie("p=1; Max-Age=100", from: url("http://d.test/"))
        jar.setCookie("q=1; Max-Age=100", from: url("http://e.test/"))
        jar.signOut(from: url("http://d.test/"))
        jar.deleteAll()
        let changes = recorder.all
        var causes: [String] = []
        for change in changes {
            switch change {
            case .added(let cookie): causes.append("added \(cookie.name)")
            case .replaced(_, let new): causes.append("replaced \(new.name)")
            case .removed(let cookie, let cause): causes.append("\(cause.rawValue) \(cookie.name)")
            }
        }
        #expect(causes == [
            "added a", "replaced a", "expired a",  // §5.7: an expired Set-Cookie deletes
            "added e", "expired e",  // purged on retrieval
            "added c0", "added c1", "added c2", "added c3", "evicted c0",
            "added s",
            "sessionEnded c1", "sessionEnded c2", "sessionEnded c3", "sessionEnded s",
            "added p", "added q", "signedOut p", "deleted q",
        ])
        #expect(Self.mirror(changes).isEmpty)
    }

    @Test func replayingChangesReproducesTheJar() async {
        let (jar, clock) = makeTestJar(limits: CookieLimits(maxCookiesPerSite: 5, sitePurgeCount: 1, maxCookies: 12, purgeCount: 2))
        let recorder = Recorder()
        jar.addObserver { recorder($0) }
        for step in 0..<400 {
            let site = "s\(step % 4).test"
            switch step % 7 {
            case 0: jar.setCookie("n\(step % 9)=\(step); Max-Age=\(step % 5)", from: url("http://\(site)/"))
            case 1: jar.setCookie("n\(step % 9)=\(step); Path=/p\(step % 3)", from: url("http://www.\(site)/"))
            case 2: _ = jar.cookieHeader(for: url("http://\(site)/"))
            case 3: clock.advance(seconds: 1)
            case 4: jar.setCookie("d\(step % 5)=\(step); Domain=\(site)", from: url("http://x.\(site)/"))
            case 5: if step % 35 == 5 { jar.deleteCookies(forSite: site) }
            default: jar.setCookie("n\(step % 9)=gone; Max-Age=0", from: url("http://\(site)/"))
            }
        }
        jar.deleteExpiredCookies()
        let mirrored = Self.mirror(recorder.all)
        #expect(recorder.all.count > 100, "the run exercised the jar")
        // Last-access times are not changes; everything else must agree.
        func comparable(_ cookies: some Sequence<Cookie>) -> Set<String> {
            Set(cookies.map { "\($0.name)=\($0.value) \($0.domain) \($0.isHostOnly) \($0.path) \($0.creation) \(String(describing: $0.expiry))" })
        }
        #expect(comparable(mirrored.values) == comparable(jar.allCookies()))
        #expect(mirrored.count == jar.count)
    }

    /// An observer added while another thread receives hears of every change the jar makes after
    /// `addObserver` returns: a snapshot taken then (`allCookies()`) plus the changes heard reproduce the
    /// jar, run after run. (A receipt that read whether the jar was observed before taking its lock, and
    /// took it after `addObserver` returned, was recorded nowhere, and the mirror lacked its cookie.)
    @Test func anObserverAddedDuringReceiptsMissesNoChange() {
        for run in 0..<500 {
            let (jar, _) = makeTestJar()
            let receiving = Thread {
                for index in 0..<150 { jar.receive("c\(index)=\(run)", from: url("https://example.com/")) }
            }
            receiving.start()
            // Added while receipts come, not before the first.
            while jar.count < 20 {}
            let recorder = Recorder()
            jar.addObserver { recorder($0) }
            var mirror = Dictionary(uniqueKeysWithValues: jar.allCookies().map { (CookieIdentity($0), $0) })
            while !receiving.isFinished { Thread.sleep(forTimeInterval: 0.0005) }
            mirror.merge(Self.mirror(recorder.all)) { _, heard in heard }
            #expect(mirror.count == jar.count, "run \(run)")
            if mirror.count != jar.count { return }
        }
    }

    /// A cookie inserted over an expired one of the same identity is reported as a receipt over it is: the
    /// expired one removed (as expired), the new one added and stored, not a replacement.
    @Test func insertOverAnExpiredCookieIsAnAddition() {
        let (jar, clock) = makeTestJar()
        let recorder = Recorder()
        jar.addObserver { recorder($0) }
        let old = Cookie(name: "a", value: "1", domain: "h.test", expiry: testEpoch.adding(seconds: 10), creation: testEpoch)
        jar.insert(old)
        clock.advance(seconds: 20)
        let new = Cookie(name: "a", value: "2", domain: "h.test", creation: testEpoch.adding(seconds: 20))
        #expect(jar.insert(new) == .stored(new))
        #expect(recorder.all == [.added(old), .removed(old, cause: .expired), .added(new)])
        jar.setCookie("b=1; Max-Age=5", from: url("https://h.test/"))
        clock.advance(seconds: 10)
        jar.setCookie("b=2", from: url("https://h.test/"))
        #expect(recorder.all.suffix(2).map { if case .removed(_, .expired) = $0 { "removed" } else if case .added = $0 { "added" } else { "other" } } == ["removed", "added"])
    }

    @Test func asyncSequenceDeliversInOrder() async {
        let (jar, _) = makeTestJar()
        let stream = jar.changes
        for index in 0..<5 { jar.setCookie("c\(index)=1", from: url("http://a.test/")) }
        var names: [String] = []
        for await change in stream {
            names.append(change.cookie.name)
            if names.count == 5 { break }
        }
        #expect(names == ["c0", "c1", "c2", "c3", "c4"])
    }

    /// An observer is given every change made after `addObserver` returned, and none before (this
    /// project's contract, `CookieJar.addObserver(_:)`), even one another thread delivers after: thread 1
    /// delivers change 1 to a slow observer; change 2 is made meanwhile (queued for thread 1), then a second
    /// observer is added. Thread 1 then delivers change 2 to the first observer only. (The observers were
    /// read when a batch was taken from the queue, so the second observer was given change 2.)
    @Test func anObserverAddedWhileAnotherThreadDeliversHearsNoEarlierChange() {
        let (jar, _) = makeTestJar()
        let slow = Recorder(), added = Recorder()
        let delivering = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0)
        jar.addObserver { change in
            // Holds the first delivery until the second observer is added.
            if slow.all.isEmpty {
                delivering.signal()
                resume.wait()
            }
            slow(change)
        }
        let delivered = DispatchSemaphore(value: 0)
        Thread {
            jar.setCookie("c1=1", from: url("http://a.test/"))
            delivered.signal()
        }.start()
        delivering.wait()
        jar.setCookie("c2=1", from: url("http://a.test/"))
        jar.addObserver { added($0) }
        resume.signal()
        delivered.wait()
        jar.setCookie("c3=1", from: url("http://a.test/"))
        #expect(slow.all.map(\.cookie.name) == ["c1", "c2", "c3"])
        #expect(added.all.map(\.cookie.name) == ["c3"])
    }

    /// The queue gives a backlog's buffer back once the backlog is delivered, and keeps a small one for
    /// the next changes (this project's contract, `ChangeDispatcher.drain`: memory a backlog took is given
    /// back). (The queue emptied a copy of itself in place, which made a buffer as large as the backlog, and
    /// kept it for good.)
    @Test func theQueueKeepsNoBacklogsBuffer() {
        let dispatcher = ChangeDispatcher()
        _ = dispatcher.addObserver { _ in }
        let change = CookieChange.added(Cookie(name: "a", value: "1", domain: "a.test", creation: testEpoch))
        dispatcher.enqueue(Array(repeating: change, count: 1_000), at: testEpoch)
        dispatcher.drain()
        #expect(dispatcher.queueCapacity == 0)
        dispatcher.enqueue([change], at: testEpoch)
        dispatcher.drain()
        #expect((1..<1_000).contains(dispatcher.queueCapacity))
    }

    /// A stream of a jar's changes finishes when the jar is freed, after the changes it holds (this
    /// project's contract, `CookieJar.changes`): a task reading it ends. (Nothing finished it: the task
    /// waited for good.) The task is cancelled after ten seconds, which ends its loop too, so the test
    /// tells a finished stream from a cancelled read.
    @Test func aStreamFinishesWhenItsJarIsFreed() async {
        var jar: CookieJar? = makeTestJar().0
        weak let freed = jar
        let stream = jar!.changes
        jar!.setCookie("a=1", from: url("http://a.test/"))
        jar = nil
        #expect(freed == nil)
        let reader = Task {
            var names: [String] = []
            for await change in stream { names.append(change.cookie.name) }
            return (names, Task.isCancelled)
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(10))
            reader.cancel()
        }
        let (names, cancelled) = await reader.value
        watchdog.cancel()
        #expect(names == ["a"])
        #expect(!cancelled, "the stream did not finish when its jar was freed")
    }

    /// A stream stops observing the jar when it is dropped or its reading task is cancelled (this
    /// project's contract, `CookieJar.changes`): the store records changes only while observed.
    @Test func aStreamDroppedOrCancelledStopsObserving() async {
        let dispatcher = ChangeDispatcher()
        func observed() -> Bool { dispatcher.isObserved.load(ordering: .acquiring) }
        withExtendedLifetime(dispatcher.addStream()) { #expect(observed()) }
        #expect(!observed())
        let read = dispatcher.addStream()
        let reader = Task { for await _ in read {} }
        reader.cancel()
        await reader.value
        #expect(!observed())
    }

    @Test func observerMayCallTheJar() {
        let (jar, _) = makeTestJar()
        let recorder = Recorder()
        jar.addObserver { change in
            recorder(change)
            // Mirror every added cookie onto a second path: a re-entrant call must not deadlock.
            if case .added(let cookie) = change, cookie.path == "/" {
                jar.setCookie("\(cookie.name)=\(cookie.value); Path=/mirror", from: url("http://a.test/"))
            }
        }
        jar.setCookie("a=1", from: url("http://a.test/"))
        #expect(recorder.all.map(\.cookie.path) == ["/", "/mirror"])
        #expect(jar.count == 2)
    }

    /// An observer that removes itself from inside its callback hears nothing more, not even the rest of
    /// the batch being delivered (a one-shot observer): deleting every cookie is one batch of removals.
    @Test func anObserverThatRemovesItselfHearsNoMoreOfItsBatch() {
        let (jar, _) = makeTestJar()
        for name in ["a", "b", "c"] { jar.setCookie("\(name)=1", from: url("http://a.test/")) }
        let recorder = Recorder()
        let box = CookieLock<Int?>(nil)
        let token = jar.addObserver { change in
            recorder(change)
            if let token = box.withLock({ $0 }) { jar.removeObserver(token) }
        }
        box.withLock { $0 = token }
        #expect(jar.deleteAll() == 3)
        #expect(recorder.all.count == 1)
        jar.setCookie("d=1", from: url("http://a.test/"))
        #expect(recorder.all.count == 1)
    }

    @Test func removedObserverHearsNothing() {
        let (jar, _) = makeTestJar()
        let recorder = Recorder()
        let token = jar.addObserver { recorder($0) }
        jar.setCookie("a=1", from: url("http://a.test/"))
        jar.removeObserver(token)
        jar.setCookie("b=1", from: url("http://a.test/"))
        #expect(recorder.all.count == 1)
    }
}
