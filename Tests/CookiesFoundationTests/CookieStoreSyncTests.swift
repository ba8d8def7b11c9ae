import Cookies
import CookiesFoundation
import TestSupport
import Testing

/// The sync engine against a store that misbehaves as web views have been seen to: every pitfall the
/// platform stores are known for, each a test (the facts come from the issue trackers named per test).
@Suite("CookieStoreSync: a jar and a platform cookie store kept in sync")
struct CookieStoreSyncTests {
    typealias PlatformCall = CookieSyncError.PlatformCall
    static let site = "example.com"
    /// The platform calls' timeout: ten times the delay of the late completions the tests expect to arrive
    /// in time, so that a test run on a busy machine (other tests holding the threads that run tasks) does
    /// not take a late completion for a timeout.
    static let timeout = Duration.seconds(2)

    /// A cookie of `domain` (host-only), persistent for a day unless `session`.
    static func cookie(
        _ name: String, _ value: String, domain: String = site, session: Bool = false, httpOnly: Bool = false,
        sameSite: SameSite = .default
    ) -> Cookie {
        Cookie(
            name: name, value: value, domain: domain, expiry: session ? nil : testEpoch.adding(seconds: 86_400),
            creation: testEpoch, isSecure: true, isHTTPOnly: httpOnly, sameSite: sameSite, isSourceSecure: true)
    }

    /// A jar holding `cookies`, `store`, and a sync of the two within example.com.
    static func makeSync(
        _ cookies: [Cookie], _ store: FaultInjectingCookieStore, policy: CookieConflictPolicy = .preferWeb
    ) -> (CookieJar, FaultInjectingCookieStore, CookieStoreSync) {
        let jar = makeTestJar()
        for cookie in cookies { jar.insert(cookie) }
        let sync = CookieStoreSync(
            jar: jar, store: store, domains: [site], policy: policy, timeout: timeout, debounce: .milliseconds(50),
            emptyReadDelay: .milliseconds(10))
        return (jar, store, sync)
    }

    /// The same, reconciled once.
    static func synced(
        _ cookies: [Cookie], _ store: FaultInjectingCookieStore, policy: CookieConflictPolicy = .preferWeb
    ) async throws -> (CookieJar, FaultInjectingCookieStore, CookieStoreSync) {
        let (jar, store, sync) = makeSync(cookies, store, policy: policy)
        try await sync.reconcile()
        return (jar, store, sync)
    }

    /// Reconciles with the store's sets completing 200 ms late, running `meanwhile` once the reconcile's
    /// set has begun: a change that lands while the store's calls run.
    static func reconcile(
        _ sync: CookieStoreSync, _ store: FaultInjectingCookieStore, whileItsSetRuns meanwhile: () -> Void
    ) async throws -> CookieSyncReport {
        store.faults.sets = .late(.milliseconds(200))
        let setsBefore = store.calls(.setCookies)
        let reconciling = Task { try await sync.reconcile() }
        while store.calls(.setCookies) == setsBefore { await Task.yield() }
        meanwhile()
        return try await reconciling.value
    }

    static func names(_ jar: CookieJar) -> [String: String] {
        Dictionary(jar.allCookies().map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    static func values(_ store: FaultInjectingCookieStore) -> [String: String] {
        store.contents.mapValues(\.value)
    }

    /// True once `condition` holds, checked every 10 ms; false when it still does not after `limit`.
    static func eventually(within limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    // MARK: Copying both ways

    @Test("push copies the jar's cookies and returns only once a late completion came (WKHTTPCookieStore: a web view's first request could go out before setCookie's cookie was stored, fixed in WebKit only in 2025)")
    func pushWaitsForLateCompletion() async throws {
        let (_, store, sync) = Self.makeSync(
            [Self.cookie("session", "1", session: true)],
            FaultInjectingCookieStore(faults: .init(sets: .late(.milliseconds(100)))))
        let report = try await sync.push()
        #expect(Self.values(store) == ["session": "1"])
        #expect(report.copiedToWeb.map(\.name) == ["session"])
        #expect(store.contents["session"]?.expiry == nil, "a session cookie stays a session cookie")
    }

    /// What one side does between two reconciles, and what both sides hold after the second.
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let change: @Sendable (CookieJar, FaultInjectingCookieStore) -> Void
        let expected: [String: String]
    }

    static let changes: [Case] = [
        Case(description: "added in the jar", change: { jar, _ in jar.insert(cookie("b", "1")) },
             expected: ["a": "1", "b": "1"]),
        Case(description: "added in the web view", change: { _, store in store.webSets(cookie("b", "1")) },
             expected: ["a": "1", "b": "1"]),
        Case(description: "changed in the jar", change: { jar, _ in jar.insert(cookie("a", "2")) }, expected: ["a": "2"]),
        Case(description: "changed in the web view", change: { _, store in store.webSets(cookie("a", "2")) },
             expected: ["a": "2"]),
        // CapacitorCookies only adds: a cookie deleted on one side came back from the other (capacitor #6591).
        Case(description: "deleted in the jar (capacitor #6591)", change: { jar, _ in jar.delete(cookie("a", "1")) },
             expected: [:]),
        // ... and a cookie expired in the web view came back from the native side (capacitor #7262).
        Case(description: "deleted in the web view (capacitor #7262)", change: { _, store in store.webDeletes("a") },
             expected: [:]),
        Case(description: "a session cookie added in the web view stays a session cookie",
             change: { _, store in store.webSets(cookie("s", "1", session: true)) }, expected: ["a": "1", "s": "1"]),
    ]

    @Test("reconcile copies each side's additions, changes and deletions to the other", arguments: changes)
    func reconcileCopiesChanges(_ testCase: Case) async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("a", "1")], FaultInjectingCookieStore())
        testCase.change(jar, store)
        let report = try await sync.reconcile()
        #expect(Self.names(jar) == testCase.expected)
        #expect(Self.values(store) == testCase.expected)
        #expect(Set(sync.synchronisedCookies.map(\.name)) == Set(testCase.expected.keys))
        #expect(report.conflicts.isEmpty)
        let again = try await sync.reconcile()
        #expect(again.changedNothing, "a second reconcile finds nothing to do")
        for cookie in jar.allCookies() {
            #expect(cookie.isPersistent == (cookie.name != "s"))
        }
    }

    @Test("a cookie the jar changes while the store's calls run (a native response rotating the session) is not overwritten with the web view's older change, and the next reconcile copies the jar's newer version to the store: no conflict for the web view's older one to win", .timeLimit(.minutes(1)))
    func jarChangeDuringReconcileIsNotOverwritten() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("session", "1")], FaultInjectingCookieStore())
        store.webSets(Self.cookie("session", "web"))
        jar.insert(Self.cookie("other", "1"))
        let first = try await Self.reconcile(sync, store) {
            jar.insert(Self.cookie("session", "native"))
        }
        #expect(first.copiedToJar.isEmpty && first.copiedToWeb.map(\.name) == ["other"])
        #expect(Self.names(jar)["session"] == "native")
        store.faults.sets = .immediate
        let second = try await sync.reconcile()
        #expect(second.conflicts.isEmpty && second.copiedToWeb.map(\.value) == ["native"])
        #expect(Self.names(jar)["session"] == "native" && Self.values(store)["session"] == "native")
    }

    @Test("a cookie the jar changes while the sync writes the web view's changes into it (here from the observer of the sync's first write, on the sync's own thread: the interleaving of another thread's receipt) is not overwritten with the web view's older version, and the next reconcile copies the jar's version to the store", .timeLimit(.minutes(1)))
    func jarChangeDuringTheJarWritesIsNotOverwritten() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("a", "1"), Self.cookie("b", "1")], FaultInjectingCookieStore())
        store.webSets(Self.cookie("a", "web"))
        store.webSets(Self.cookie("b", "web"))
        let rotated = CookieLock<String?>(nil)
        let token = jar.addObserver { change in
            guard case .replaced(_, let new) = change, new.value == "web" else { return }
            let other = new.name == "a" ? "b" : "a"
            guard rotated.withLock({ rotated in
                defer { rotated = rotated ?? other }
                return rotated == nil
            }) else { return }
            jar.insert(Self.cookie(other, "native"))
        }
        let first = try await sync.reconcile()
        jar.removeObserver(token)
        let native = try #require(rotated.withLock { $0 })
        #expect(first.copiedToJar.count == 1 && Self.names(jar)[native] == "native")
        let second = try await sync.reconcile()
        #expect(second.conflicts.isEmpty && second.copiedToWeb.map(\.value) == ["native"])
        #expect(Self.names(jar)[native] == "native" && Self.values(store)[native] == "native")
    }

    @Test("a jar cookie that expires while the store's calls run is gone without a change event: the web view's renewal of it is copied into the jar, not taken for a jar change and deleted from the web view at the next reconcile", .timeLimit(.minutes(1)))
    func jarCookieExpiringDuringTheStoreCallsTakesTheWebViewsRenewal() async throws {
        let clock = ManualCookieClock(testEpoch)
        let jar = CookieJar(publicSuffixList: testPublicSuffixList, clock: clock)
        var expiring = Self.cookie("session", "1")
        expiring.expiry = testEpoch.adding(seconds: 60)
        jar.insert(expiring)
        let store = FaultInjectingCookieStore()
        let sync = CookieStoreSync(
            jar: jar, store: store, domains: [Self.site], timeout: Self.timeout, debounce: .milliseconds(50),
            emptyReadDelay: .milliseconds(10))
        try await sync.reconcile()
        store.webSets(Self.cookie("session", "renewed"))
        jar.insert(Self.cookie("other", "1"))
        let first = try await Self.reconcile(sync, store) {
            clock.advance(seconds: 120)
        }
        #expect(first.copiedToJar.map(\.value) == ["renewed"])
        store.faults.sets = .immediate
        let second = try await sync.reconcile()
        #expect(second.deletedFromWeb.isEmpty)
        #expect(Self.values(store)["session"] == "renewed" && Self.names(jar)["session"] == "renewed")
    }

    @Test("a jar cookie the store refuses (HTTPCookie cannot represent it) is reported, and the rest of the batch is copied and recorded: one such cookie no longer stops every push")
    func cookieTheStoreRefusesIsReportedAndTheRestCopied() async throws {
        let (_, store, sync) = Self.makeSync([Self.cookie("a", "1"), Self.cookie("odd", "1")], FaultInjectingCookieStore(faults: .init(refusedNames: ["odd"])))
        let first = try await sync.push()
        #expect(first.error == nil)
        #expect(first.copiedToWeb.map(\.name) == ["a"] && first.refusedByStore.map(\.name) == ["odd"])
        #expect(Self.values(store) == ["a": "1"])
        #expect(sync.synchronisedCookies.map(\.name) == ["a"])
        let again = try await sync.push()
        #expect(again.copiedToWeb.isEmpty && again.refusedByStore.map(\.name) == ["odd"])
    }

    @Test("a jar cookie the store does not keep though its set completed (HTTPCookieStorage whose accept policy is .never) is reported and not recorded, so the next reconcile reports it again instead of reading its absence as a deletion in the web view and deleting it from the jar")
    func cookieTheStoreDropsIsReportedAndKeptInTheJar() async throws {
        let (jar, store, sync) = Self.makeSync([Self.cookie("a", "1"), Self.cookie("gone", "1")], FaultInjectingCookieStore(faults: .init(droppedNames: ["gone"])))
        let first = try await sync.push()
        #expect(first.copiedToWeb.map(\.name) == ["a"] && first.refusedByStore.map(\.name) == ["gone"])
        #expect(sync.synchronisedCookies.map(\.name) == ["a"])
        let again = try await sync.reconcile()
        #expect(again.deletedFromJar.isEmpty && again.refusedByStore.map(\.name) == ["gone"])
        #expect(Self.names(jar) == ["a": "1", "gone": "1"] && Self.values(store) == ["a": "1"])
    }

    @Test("a cookie the page changes right after the sync wrote it is recorded as written, so the page's version is a change of the web view's at the next reconcile, and wins even when the jar is preferred in conflicts")
    func pageChangeRightAfterASetIsTheWebViewsChange() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("session", "1")], FaultInjectingCookieStore(), policy: .preferJar)
        jar.insert(Self.cookie("session", "2"))
        store.faults.afterNextSet = { $0.webSets(Self.cookie("session", "3")) }
        let pushed = try await sync.push()
        #expect(pushed.copiedToWeb.map(\.value) == ["2"] && pushed.refusedByStore.isEmpty)
        let next = try await sync.reconcile()
        #expect(next.conflicts.isEmpty && next.copiedToJar.map(\.value) == ["3"])
        #expect(Self.names(jar) == ["session": "3"] && Self.values(store) == ["session": "3"])
    }

    @Test("a set the store completes while keeping the version it held (WebKit refuses cookies set through its API for localhost, WebKit pull request 59302) is reported as turned down, not copied: the next reconcile keeps the jar's version instead of taking the store's old one for a change of the web view's")
    func setTheStoreIgnoresForACookieItHoldsIsNotKept() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("session", "anon")], FaultInjectingCookieStore())
        jar.insert(Self.cookie("session", "signed"))
        store.faults.droppedNames = ["session"]
        let pushed = try await sync.push()
        #expect(pushed.copiedToWeb.isEmpty && pushed.refusedByStore.map(\.value) == ["signed"])
        let next = try await sync.reconcile()
        #expect(next.copiedToJar.isEmpty && next.refusedByStore.map(\.value) == ["signed"])
        #expect(Self.names(jar) == ["session": "signed"] && Self.values(store) == ["session": "anon"])
    }

    /// A one-way call settles a conflict its own way (this sync's contract): a native sign-in pushed over
    /// the anonymous session a page set first reaches the web view, whatever the policy.
    @Test("push copies a cookie changed on both sides as the jar holds it, and pull as the store does, whatever the policy; the next reconcile keeps it", arguments: [
        ("push", CookieConflictPolicy.preferWeb, "signed", CookieSyncSide.jar),
        ("pull", CookieConflictPolicy.preferJar, "anon", CookieSyncSide.web),
    ])
    func oneWayCallsSettleConflictsTheirWay(_ call: String, _ policy: CookieConflictPolicy, _ value: String, _ winner: CookieSyncSide) async throws {
        let (jar, store, sync) = Self.makeSync([], FaultInjectingCookieStore(), policy: policy)
        store.webSets(Self.cookie("session", "anon"))
        jar.insert(Self.cookie("session", "signed"))
        let report = call == "push" ? try await sync.push() : try await sync.pull()
        #expect(report.conflicts.map(\.winner) == [winner])
        #expect(Self.names(jar) == ["session": value] && Self.values(store) == ["session": value])
        let next = try await sync.reconcile()
        #expect(next.changedNothing)
        #expect(Self.names(jar) == ["session": value] && Self.values(store) == ["session": value])
    }

    @Test("push copies only the jar's changes, pull only the web view's")
    func pushAndPullAreOneWay() async throws {
        let (jar, store, sync) = Self.makeSync([], FaultInjectingCookieStore())
        jar.insert(Self.cookie("native", "1"))
        store.webSets(Self.cookie("web", "1"))
        try await sync.push()
        #expect(Self.names(jar) == ["native": "1"])
        #expect(Self.values(store) == ["native": "1", "web": "1"])
        try await sync.pull()
        #expect(Self.names(jar) == ["native": "1", "web": "1"])
    }

    @Test("a web view cookie the jar refuses (over §5.6 step 5's 4,096 bytes) is reported each time, and deleted on neither side")
    func cookieTheJarRefusesIsReportedAndKept() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("kept", "1")], FaultInjectingCookieStore())
        let long = Self.cookie("long", String(repeating: "v", count: 4093))
        store.webSets(long)
        for _ in 0..<2 {
            let report = try await sync.reconcile()
            #expect(report.refusedByJar == [long] && report.copiedToJar.isEmpty && report.deletedFromWeb.isEmpty)
            #expect(Self.names(jar) == ["kept": "1"])
            #expect(Self.values(store) == ["kept": "1", "long": long.value])
        }
        // Once the web view's cookie fits, it is copied as any other.
        store.webSets(Self.cookie("long", "short"))
        #expect(try await sync.reconcile().copiedToJar.map(\.value) == ["short"])
        #expect(Self.names(jar) == ["kept": "1", "long": "short"])
    }

    // MARK: Conflicts

    static let policies: [(String, CookieConflictPolicy, String, CookieSyncSide)] = [
        ("the web view's by default (the server's newest Set-Cookie lands there)", .preferWeb, "web", .web),
        ("the jar's", .preferJar, "jar", .jar),
        ("a closure's choice", .decide { jar, _ in jar?.value == "jar" ? .jar : .web }, "jar", .jar),
    ]

    @Test("a cookie changed on both sides: the policy picks the winner and the conflict is reported", arguments: policies.indices)
    func conflicts(_ index: Int) async throws {
        let (_, policy, value, winner) = Self.policies[index]
        let (jar, store, sync) = try await Self.synced(
            [Self.cookie("a", "1")], FaultInjectingCookieStore(), policy: policy)
        jar.insert(Self.cookie("a", "jar"))
        store.webSets(Self.cookie("a", "web"))
        let report = try await sync.reconcile()
        #expect(Self.names(jar) == ["a": value])
        #expect(Self.values(store) == ["a": value])
        let conflict = try #require(report.conflicts.first)
        #expect(report.conflicts.count == 1)
        #expect(conflict.winner == winner && conflict.jar?.value == "jar" && conflict.web?.value == "web")
        #expect(conflict.recorded?.value == "1")
    }

    @Test("deleted on one side and changed on the other is a conflict too")
    func deleteVersusChange() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("a", "1")], FaultInjectingCookieStore())
        jar.delete(Self.cookie("a", "1"))
        store.webSets(Self.cookie("a", "2"))
        let report = try await sync.reconcile()
        #expect(report.conflicts.map(\.winner) == [.web] && report.conflicts.first?.jar == nil)
        #expect(Self.names(jar) == ["a": "2"])
    }

    // MARK: Scope

    @Test("only the given domains are touched: the app's unrelated cookies are neither copied nor deleted (Hotwire Native copies every cookie of the default store)")
    func scope() async throws {
        let (jar, store, sync) = try await Self.synced(
            [Self.cookie("a", "1", domain: "www.example.com"), Self.cookie("native-other", "1", domain: "other.com")],
            FaultInjectingCookieStore([Self.cookie("web-other", "1", domain: "ads.test")]))
        #expect(Self.names(jar) == ["a": "1", "native-other": "1"])
        #expect(Self.values(store) == ["a": "1", "web-other": "1"])
        try await sync.signOut(site: "example.com")
        #expect(Self.names(jar) == ["native-other": "1"])
        #expect(Self.values(store) == ["web-other": "1"])
        await #expect(throws: CookieSyncError.siteOutOfScope("other.com")) { try await sync.signOut(site: "other.com") }
    }

    /// A scope's domain and a sign-out's site as an app may write them: Unicode (IDN), upper case, a
    /// leading dot, or the A-labels the jar keeps; the last pair is the control that matched already.
    static let internationalizedSpellings: [(scope: String, site: String)] = [
        ("www.bücher.test", "www.bücher.test"),
        ("WWW.BÜCHER.TEST", ".www.bücher.test"),
        ("bücher.test", "www.xn--bcher-kva.test"),
        ("xn--bcher-kva.test", "WWW.Bücher.test"),
        ("www.xn--bcher-kva.test", "www.xn--bcher-kva.test"),
    ]

    /// The jar keeps a cookie's domain as its host canonicalised (rfc6265bis-22 §5.1.2: IDNA A-labels,
    /// lower case), so a cookie of www.bücher.test is one of www.xn--bcher-kva.test (RFC 3492 Punycode).
    /// A scope or a site compared as written would match none of its cookies: push would copy nothing,
    /// and sign-out would report success while the jar kept the session.
    @Test("a scope or a sign-out site written in Unicode (IDN), upper case or with a leading dot matches the jar's A-label domains: push copies the site's cookie and sign-out deletes it on both sides", arguments: internationalizedSpellings.indices)
    func internationalizedDomains(_ index: Int) async throws {
        let (scope, site) = Self.internationalizedSpellings[index]
        let jar = makeTestJar()
        jar.receive("session=1; Secure", from: url("https://www.bücher.test/"))
        #expect(jar.allCookies().map(\.domain) == ["www.xn--bcher-kva.test"])
        let store = FaultInjectingCookieStore()
        let sync = CookieStoreSync(
            jar: jar, store: store, domains: [scope], timeout: Self.timeout, emptyReadDelay: .milliseconds(10))
        let pushed = try await sync.push()
        #expect(pushed.copiedToWeb.map(\.name) == ["session"], "scope \(scope)")
        #expect(Self.values(store) == ["session": "1"], "scope \(scope)")
        let signedOut = try await sync.signOut(site: site)
        #expect(signedOut.deletedFromJar.map(\.name) == ["session"], "site \(site)")
        #expect(jar.allCookies().isEmpty && store.contents.isEmpty && sync.synchronisedCookies.isEmpty, "site \(site)")
    }

    @Test("a scope domain or a sign-out site that is no host name or IP address fails every call with invalidDomain, touching neither side, and run() returns after reporting it instead of retrying what no retry can cure", .timeLimit(.minutes(1)), arguments: CookieSyncScopeTests.notHosts)
    func domainsThatAreNoHostsAreRefused(_ text: String) async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("a", "1")], FaultInjectingCookieStore())
        let callsBefore = [PlatformCall.allCookies, .setCookies, .deleteCookies].map(store.calls)
        await #expect(throws: CookieSyncError.invalidDomain(text)) { try await sync.signOut(site: text) }
        let refusing = CookieStoreSync(
            jar: jar, store: store, domains: [Self.site, text], timeout: Self.timeout, debounce: .milliseconds(10))
        #expect(refusing.scope.domains.isEmpty)
        await #expect(throws: CookieSyncError.invalidDomain(text)) { try await refusing.push() }
        await #expect(throws: CookieSyncError.invalidDomain(text)) { try await refusing.reconcile() }
        await #expect(throws: CookieSyncError.invalidDomain(text)) { try await refusing.signOut(site: Self.site) }
        var reports = refusing.reports().makeAsyncIterator()
        await refusing.run()
        #expect(await reports.next()?.error == .invalidDomain(text))
        #expect(Self.names(jar) == ["a": "1"] && Self.values(store) == ["a": "1"])
        #expect([PlatformCall.allCookies, .setCookies, .deleteCookies].map(store.calls) == callsBefore, "no store call")
    }

    // MARK: The store's faults

    @Test("an empty first read (WKHTTPCookieStore at a cold start) is read again and deletes nothing")
    func emptyFirstRead() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("a", "1")], FaultInjectingCookieStore())
        store.faults.emptyReads = 1
        let readsBefore = store.calls(.allCookies)
        let report = try await sync.reconcile()
        #expect(report.emptyReadsRetried == 1 && report.changedNothing)
        #expect(Self.names(jar) == ["a": "1"])
        #expect(store.calls(.allCookies) == readsBefore + 2)
    }

    @Test("an empty read that stays empty after the re-reads is believed: the web view's cookies were cleared")
    func emptyReadsBelievedAfterRetries() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("a", "1")], FaultInjectingCookieStore())
        store.webDeletes("a")
        let report = try await sync.reconcile()
        #expect(report.emptyReadsRetried == 2)
        #expect(Self.names(jar).isEmpty)
    }

    @Test("a set that never completes: a timeout error, nothing recorded, and the next push copies it")
    func setNeverCompletes() async throws {
        let (jar, store, sync) = Self.makeSync(
            [Self.cookie("a", "1")], FaultInjectingCookieStore(faults: .init(sets: .never)))
        let reports = sync.reports()
        await #expect(throws: CookieSyncError.timedOut(call: .setCookies, after: Self.timeout)) { try await sync.push() }
        #expect(sync.synchronisedCookies.isEmpty && store.contents.isEmpty && Self.names(jar) == ["a": "1"])
        var iterator = reports.makeAsyncIterator()
        let reported = await iterator.next()
        #expect(reported?.error == .timedOut(call: .setCookies, after: Self.timeout) && reported?.copiedToWeb == [])
        store.faults.sets = .immediate
        try await sync.push()
        #expect(Self.values(store) == ["a": "1"])
    }

    @Test("a read that never completes: a timeout error, and neither side changed")
    func readNeverCompletes() async throws {
        let (jar, store, sync) = Self.makeSync(
            [Self.cookie("a", "1")], FaultInjectingCookieStore([Self.cookie("b", "1")], faults: .init(reads: .never)))
        await #expect(throws: CookieSyncError.timedOut(call: .allCookies, after: Self.timeout)) { try await sync.reconcile() }
        #expect(Self.names(jar) == ["a": "1"] && Self.values(store) == ["b": "1"] && sync.synchronisedCookies.isEmpty)
    }

    @Test("a set that completes after the timeout lands later; the next reconcile records it without writing it again")
    func setCompletesAfterTimeout() async throws {
        let (_, store, sync) = Self.makeSync(
            [Self.cookie("a", "1")], FaultInjectingCookieStore(faults: .init(sets: .late(Self.timeout * 2))))
        await #expect(throws: CookieSyncError.self) { try await sync.push() }
        try await Task.sleep(for: Self.timeout * 2)
        #expect(Self.values(store) == ["a": "1"])
        let report = try await sync.reconcile()
        #expect(report.changedNothing && store.calls(.setCookies) == 1)
        #expect(sync.synchronisedCookies.map(\.name) == ["a"])
    }

    /// A store may complete a call it did not carry out (as `HTTPCookieStorage` completes a set it does
    /// not keep): a deletion is read back. A cookie still in the store keeps its record entry and is not
    /// reported deleted; the next sync deletes it again instead of copying it back into the jar.
    @Test("a deletion the store completed without deleting is made again, not copied back")
    func deletionNotCarriedOut() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("a", "1")], FaultInjectingCookieStore())
        store.faults.undeletedNames = ["a"]
        #expect(jar.delete(Self.cookie("a", "1")))
        let first = try await sync.reconcile()
        #expect(first.deletedFromWeb.isEmpty && Self.values(store) == ["a": "1"])
        #expect(sync.synchronisedCookies.map(\.name) == ["a"])
        store.faults.undeletedNames = []
        let second = try await sync.reconcile()
        #expect(second.copiedToJar.isEmpty && second.deletedFromWeb.map(\.name) == ["a"])
        #expect(jar.allCookies().isEmpty && store.contents.isEmpty && sync.synchronisedCookies.isEmpty)
    }

    /// A set that timed out keeps running (WKHTTPCookieStore's per-cookie sets go on after the sync stops
    /// waiting) and may land after the jar lost the cookie: after a sign-out, or a deletion in the jar.
    /// Landed, it is the version the jar had, which the jar has since deleted: the next reconcile deletes
    /// it from the store instead of copying it back into the jar (which would sign the user back in).
    @Test("a set that lands after a sign-out or the jar's deletion is deleted, not copied back", arguments: ["signOut", "jarDeletes"])
    func lateSetAfterTheCookieWent(_ how: String) async throws {
        let (jar, store, sync) = Self.makeSync(
            [Self.cookie("session", "1")], FaultInjectingCookieStore(faults: .init(sets: .late(Self.timeout * 2))))
        await #expect(throws: CookieSyncError.timedOut(call: .setCookies, after: Self.timeout)) { try await sync.push() }
        if how == "signOut" {
            try await sync.signOut(site: Self.site)
        } else {
            #expect(jar.delete(Self.cookie("session", "1")))
        }
        #expect(Self.names(jar).isEmpty)
        #expect(await Self.eventually { store.contents["session"] != nil }, "the late set lands")
        let report = try await sync.reconcile()
        #expect(report.copiedToJar.isEmpty && report.deletedFromWeb.map(\.name) == ["session"])
        #expect(Self.names(jar).isEmpty && store.contents.isEmpty)
        #expect(try await sync.reconcile().changedNothing)
    }

    /// A set the store completed, whose read-back did not: the cookie is in the store, unrecorded. Taken
    /// for the web view's own once the jar lost it (a native sign-out), it would be copied back into the
    /// jar; unconfirmed until a read finds it, it is recorded then, and the jar's deletion wins.
    @Test("a set whose read-back fails stays unconfirmed: the jar's deletion of the cookie after it (a native sign-out) is deleted from the store, not copied back", arguments: [false, true])
    func setWhoseReadBackFails(afterAnEarlierVersion: Bool) async throws {
        let (jar, store, sync) = Self.makeSync([], FaultInjectingCookieStore())
        if afterAnEarlierVersion {
            jar.insert(Self.cookie("session", "anonymous"))
            try await sync.push()
        }
        jar.insert(Self.cookie("session", "signed-in"))
        store.faults.afterNextSet = { $0.faults.reads = .never }
        await #expect(throws: CookieSyncError.timedOut(call: .allCookies, after: Self.timeout)) { try await sync.push() }
        store.faults.reads = .immediate
        #expect(Self.values(store) == ["session": "signed-in"])
        #expect(jar.delete(Self.cookie("session", "signed-in")))
        let report = try await sync.reconcile()
        #expect(report.copiedToJar.isEmpty && report.conflicts.isEmpty && report.deletedFromWeb.map(\.value) == ["signed-in"])
        #expect(jar.allCookies().isEmpty && store.contents.isEmpty && sync.synchronisedCookies.isEmpty)
    }

    @Test("SameSite, HttpOnly and Secure dropped by the store (swift-corelibs-foundation's HTTPCookie, its storage's file) are no change, and the jar keeps them when the value rotates")
    func droppedAttributes() async throws {
        let (jar, store, sync) = Self.makeSync(
            [Self.cookie("session", "1", httpOnly: true, sameSite: .strict)],
            FaultInjectingCookieStore(faults: .init(dropsAttributes: true)))
        try await sync.push()
        #expect(try await sync.reconcile().changedNothing)
        store.webSets(Self.cookie("session", "2"))
        try await sync.reconcile()
        let session = try #require(jar.allCookies().first)
        #expect(session.value == "2" && session.isHTTPOnly && session.isSecure && session.sameSite == .strict)
    }

    // MARK: Change signals

    @Test("the echo of the sync's own writes copies nothing back; a burst of coalesced or spurious signals makes one reconcile", .timeLimit(.minutes(1)), arguments: [FaultInjectingCookieStore.Signalling.perCookie, .perCall])
    func echoesAndDebounce(_ signalling: FaultInjectingCookieStore.Signalling) async throws {
        let (jar, store, sync) = Self.makeSync([], FaultInjectingCookieStore(faults: .init(signalling: signalling)))
        var reports = sync.reports().makeAsyncIterator()
        let running = Task { await sync.run() }
        defer { running.cancel() }
        // run() observes the jar, then the store: wait until it does, and for its first reconcile.
        while store.signalSubscribers == 0 { await Task.yield() }
        let start = try #require(await reports.next())
        #expect(start.operation == .reconcile && start.changedNothing)

        // A jar change is pushed by the debounced reconcile. The store signals that write, as
        // WKHTTPCookieStore's cookiesDidChange(in:) does the app's own writes: one more reconcile reads it
        // back, and copies nothing.
        jar.insert(Self.cookie("a", "1"))
        let pushed = try #require(await reports.next())
        #expect(pushed.copiedToWeb.map(\.name) == ["a"])
        let echo = try #require(await reports.next())
        #expect(echo.operation == .reconcile && echo.changedNothing)

        // Ten spurious signals in a burst: one reconcile, which changes nothing.
        for _ in 0..<10 { store.signal() }
        let burst = try #require(await reports.next())
        #expect(burst.changedNothing)

        // A web change is pulled; the jar's change event for that write schedules nothing more.
        store.webSets(Self.cookie("c", "1"))
        let pulled = try #require(await reports.next())
        #expect(pulled.copiedToJar.map(\.name) == ["c"])
        let reads = store.calls(.allCookies)
        try await Task.sleep(for: .milliseconds(300))
        #expect(store.calls(.allCookies) == reads)
        #expect(store.calls(.setCookies) == 1)
        #expect(Self.names(jar) == ["a": "1", "c": "1"])

        // A web deletion is pulled; the jar's removal event for that deletion schedules nothing more.
        store.webDeletes("c")
        let deleted = try #require(await reports.next())
        #expect(deleted.deletedFromJar.map(\.name) == ["c"])
        let readsAfterDeletion = store.calls(.allCookies)
        try await Task.sleep(for: .milliseconds(300))
        #expect(store.calls(.allCookies) == readsAfterDeletion)
        #expect(Self.names(jar) == ["a": "1"])
    }

    /// How a store that signals its own writes turns down a cookie of the jar.
    struct Refusal: Sendable, CustomStringConvertible {
        let description: String
        let faults: FaultInjectingCookieStore.Faults
    }

    static let refusals: [Refusal] = [
        Refusal(
            description: "refused (HTTPCookie cannot represent it)",
            faults: .init(signalling: .perCall, refusedNames: ["odd"])),
        Refusal(
            description: "not kept though the set completed (HTTPCookieStorage whose accept policy is .never)",
            faults: .init(signalling: .perCall, droppedNames: ["odd"])),
    ]

    /// A store signals the sync's own writes (WKHTTPCookieStore's cookiesDidChange(in:) does), also a
    /// set of a cookie it turned down: were that cookie offered again at the reconcile the signal
    /// starts, run() would set and read the store every `debounce`, for ever, with nothing changing.
    @Test("a jar cookie the store turns down is offered once per version: the store's signal for that set makes one more reconcile, which reports it without offering it again, and run() then rests; a new version in the jar is offered", .timeLimit(.minutes(1)), arguments: refusals)
    func cookieTheStoreTurnsDownIsNotOfferedAgain(_ refusal: Refusal) async throws {
        let (jar, store, sync) = Self.makeSync(
            [Self.cookie("a", "1"), Self.cookie("odd", "1")], FaultInjectingCookieStore(faults: refusal.faults))
        var reports = sync.reports().makeAsyncIterator()
        let running = Task { await sync.run() }
        defer { running.cancel() }
        let first = try #require(await reports.next())
        #expect(first.copiedToWeb.map(\.name) == ["a"] && first.refusedByStore.map(\.name) == ["odd"])
        let signalled = try #require(await reports.next())
        #expect(signalled.changedNothing && signalled.refusedByStore.map(\.name) == ["odd"])
        let reads = store.calls(.allCookies)
        try await Task.sleep(for: .milliseconds(500))
        #expect(store.calls(.setCookies) == 1, "the refused version was offered once")
        #expect(store.calls(.allCookies) == reads, "no reconcile after the one the set's signal started")

        jar.insert(Self.cookie("odd", "2"))
        let changed = try #require(await reports.next())
        #expect(changed.refusedByStore.map(\.value) == ["2"] && store.calls(.setCookies) == 2)
        #expect(Self.names(jar) == ["a": "1", "odd": "2"] && Self.values(store) == ["a": "1"])
    }

    @Test("run() reconciles at its start (a web sign-in before it listened) and makes a failed reconcile again (a read that timed out), without waiting for another change", .timeLimit(.minutes(1)))
    func runStartsWithAReconcileAndRetriesFailures() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("a", "1")], FaultInjectingCookieStore())
        store.webSets(Self.cookie("b", "1"))
        store.faults.reads = .never
        var reports = sync.reports().makeAsyncIterator()
        let running = Task { await sync.run() }
        defer { running.cancel() }
        let failed = try #require(await reports.next())
        #expect(failed.error == .timedOut(call: .allCookies, after: Self.timeout))
        store.faults.reads = .immediate
        let retried = try #require(await reports.next())
        #expect(retried.error == nil && retried.copiedToJar.map(\.name) == ["b"])
        #expect(Self.names(jar) == ["a": "1", "b": "1"])
    }

    /// Before the push of a new cookie is confirmed, the record has no entry for it, as after the
    /// sync's own deletion from the jar: a removal event is the sync's echo only when the sync made it.
    /// A store that sends no change signals (swift-corelibs-foundation's `HTTPCookieStorage` posts no
    /// change notification) gives run() no other cue: taken for an echo, the deletion would stay
    /// uncopied, and the store would keep a signed-out session.
    @Test("a jar deletion while the push of that cookie is in flight is the jar's own change, not the sync's echo: run() reconciles again and deletes the cookie from a store that sends no change signals", .timeLimit(.minutes(1)))
    func jarDeletionDuringItsPushIsCopied() async throws {
        let (jar, store, sync) = Self.makeSync(
            [], FaultInjectingCookieStore(faults: .init(sets: .late(.milliseconds(100)), signalling: .none)))
        var reports = sync.reports().makeAsyncIterator()
        let running = Task { await sync.run() }
        defer { running.cancel() }
        let start = try #require(await reports.next())
        #expect(start.changedNothing)
        let session = Self.cookie("session", "1", session: true)
        jar.insert(session)
        while store.calls(.setCookies) == 0 { await Task.yield() }
        jar.delete(session)
        let pushed = try #require(await reports.next())
        #expect(pushed.copiedToWeb.map(\.name) == ["session"], "the set was in flight when the jar deleted the cookie")
        #expect(await Self.eventually { store.contents.isEmpty && sync.synchronisedCookies.isEmpty })
        #expect(jar.allCookies().isEmpty && store.calls(.deleteCookies) == 1)
    }

    // MARK: Sign-out

    @Test("sign-out empties the site on both sides, including a cookie the web view sets during it")
    func signOutWithCookieArriving() async throws {
        let (jar, store, sync) = Self.makeSync(
            [Self.cookie("session", "1", session: true), Self.cookie("remember", "1")], FaultInjectingCookieStore())
        try await sync.push()
        store.faults.afterNextDelete = { store in store.webSets(Self.cookie("session", "late")) }
        let report = try await sync.signOut(site: "example.com")
        #expect(jar.allCookies().isEmpty && store.contents.isEmpty && sync.synchronisedCookies.isEmpty)
        #expect(report.deletedFromWeb.map(\.value).sorted() == ["1", "1", "late"])
    }

    @Test("sign-out of a subdomain deletes the domain cookies of its parent domains within the scope, which its requests carry (rfc6265bis-22 §5.1.3, §5.8.3), and leaves a sibling's host-only cookie")
    func signOutTakesParentDomainCookies() async throws {
        let auth = Cookie(
            name: "auth", value: "1", domain: Self.site, isHostOnly: false, expiry: testEpoch.adding(seconds: 86_400),
            creation: testEpoch, isSecure: true, isSourceSecure: true)
        let (jar, store, sync) = Self.makeSync(
            [auth, Self.cookie("app", "1", domain: "app.example.com"), Self.cookie("www", "1", domain: "www.example.com")],
            FaultInjectingCookieStore())
        try await sync.push()
        let report = try await sync.signOut(site: "app.example.com")
        #expect(Set(report.deletedFromJar.map(\.name)) == ["auth", "app"])
        #expect(Self.names(jar) == ["www": "1"] && Self.values(store) == ["www": "1"])
    }

    @Test("sign-out deletes the site's partitioned cookies in the jar too (a native response's `Secure; Partitioned` cookie is partitioned under its own site and sent on the app's requests; rfc6265bis-22 CHIPS), though the sync never copies them")
    func signOutTakesPartitionedJarCookies() async throws {
        let (jar, store, sync) = Self.makeSync([Self.cookie("remember", "1")], FaultInjectingCookieStore())
        jar.receive("session=p; Secure; HttpOnly; Partitioned; Path=/", from: CookieURL("https://example.com/")!)
        jar.receive("other=1; Secure; Partitioned", from: CookieURL("https://other.test/")!)
        #expect(jar.allCookies().contains { $0.name == "session" && $0.partitionKey != nil })
        try await sync.push()
        #expect(Self.values(store) == ["remember": "1"])
        let report = try await sync.signOut(site: "example.com")
        #expect(jar.allCookies().map(\.name) == ["other"])
        #expect(report.deletedFromJar.map(\.name).sorted() == ["remember", "session"])
        #expect(store.contents.isEmpty && sync.synchronisedCookies.isEmpty)
    }

    @Test("sign-out while the store reads back empty (WKHTTPCookieStore not loaded yet at a cold start) still deletes the cookies the record knows there, so the next reconcile cannot hand the session back to the jar")
    func signOutDeletesKnownCookiesFromAnEmptyReadingStore() async throws {
        let (jar, store, sync) = try await Self.synced([Self.cookie("session", "1")], FaultInjectingCookieStore())
        store.faults.emptyReads = 10
        try await sync.signOut(site: "example.com")
        #expect(jar.allCookies().isEmpty && sync.synchronisedCookies.isEmpty)
        store.faults.emptyReads = 0
        #expect(store.contents.isEmpty)
        try await sync.reconcile()
        #expect(jar.allCookies().isEmpty)
    }

    @Test("a sign-out whose deletion never completes keeps the record, so the next reconcile finishes it")
    func signOutTimesOut() async throws {
        let (jar, store, sync) = Self.makeSync([Self.cookie("session", "1")], FaultInjectingCookieStore())
        try await sync.push()
        store.faults.deletes = .never
        await #expect(throws: CookieSyncError.timedOut(call: .deleteCookies, after: Self.timeout)) {
            try await sync.signOut(site: "example.com")
        }
        #expect(jar.allCookies().isEmpty && sync.synchronisedCookies.map(\.name) == ["session"])
        store.faults.deletes = .immediate
        try await sync.reconcile()
        #expect(store.contents.isEmpty && jar.allCookies().isEmpty && sync.synchronisedCookies.isEmpty)
    }

    /// A sign-out cut short before the store's cookies of the site were deleted, with one the sync never
    /// recorded there (a web sign-in's, set since the last sync): the next call finishes the sign-out and
    /// deletes it from the store. Taken for the web view's addition, it would be copied into the jar, and
    /// sign the app back in.
    @Test("a sign-out cut short (its deletion or its first read never completes) is finished by the next call: the site's cookies the sync never recorded are deleted from the store, not copied into the jar", arguments: ["deletes", "reads"])
    func signOutCutShortDeletesUnrecordedWebCookies(_ failing: String) async throws {
        let (jar, store, sync) = Self.makeSync([Self.cookie("session", "1")], FaultInjectingCookieStore())
        try await sync.push()
        store.webSets(Self.cookie("remember", "web"))
        if failing == "deletes" { store.faults.deletes = .never } else { store.faults.reads = .never }
        await #expect(throws: CookieSyncError.self) { try await sync.signOut(site: Self.site) }
        (store.faults.deletes, store.faults.reads) = (.immediate, .immediate)
        let report = try await sync.reconcile()
        #expect(report.copiedToJar.isEmpty && Set(report.deletedFromWeb.map(\.name)) == ["session", "remember"])
        #expect(jar.allCookies().isEmpty && store.contents.isEmpty && sync.synchronisedCookies.isEmpty)
        // Finished, the sign-out leaves the site alone: a web sign-in after it is copied into the jar.
        store.webSets(Self.cookie("session", "2"))
        #expect(try await sync.reconcile().copiedToJar.map(\.value) == ["2"])
    }

    /// A sign-out cut short, then a `pull()`, which writes only to the jar: the sign-out stays unfinished,
    /// so that a session the still-open page rotates afterwards is deleted from the store by the next call
    /// that writes there, not copied into the jar as a conflict the web view wins (which signed the app back
    /// in when the pull took the sign-out for finished).
    @Test("a pull after a sign-out cut short leaves it unfinished: the web view's later version of a signed-out cookie is deleted from the store by the next reconcile, not copied into the jar")
    func signOutCutShortSurvivesAPull() async throws {
        let (jar, store, sync) = Self.makeSync([Self.cookie("session", "1")], FaultInjectingCookieStore())
        try await sync.push()
        store.faults.deletes = .never
        await #expect(throws: CookieSyncError.self) { try await sync.signOut(site: Self.site) }
        store.faults.deletes = .immediate
        let pulled = try await sync.pull()
        #expect(pulled.copiedToJar.isEmpty && pulled.deletedFromWeb.isEmpty && jar.allCookies().isEmpty)
        store.webSets(Self.cookie("session", "1-rotated"))
        let report = try await sync.reconcile()
        #expect(report.copiedToJar.isEmpty && report.conflicts.isEmpty && report.deletedFromWeb.map(\.value) == ["1-rotated"])
        #expect(jar.allCookies().isEmpty && store.contents.isEmpty && sync.synchronisedCookies.isEmpty)
    }

    /// A sign-out that could not read the store, of a session the web view rotated since the record: the next
    /// call deletes the web view's version. Recorded in its older version, the web view's would be a
    /// conflict that `.preferWeb` settles by copying it into the jar, signing the app back in.
    @Test("a sign-out cut short deletes at the next call a cookie the web view changed since the record, not copied into the jar as a conflict the web view wins")
    func signOutCutShortDeletesAVersionTheRecordDidNotKnow() async throws {
        let (jar, store, sync) = Self.makeSync([Self.cookie("session", "1")], FaultInjectingCookieStore())
        try await sync.push()
        store.webSets(Self.cookie("session", "2"))
        store.faults.reads = .never
        await #expect(throws: CookieSyncError.self) { try await sync.signOut(site: Self.site) }
        store.faults.reads = .immediate
        let report = try await sync.reconcile()
        #expect(report.copiedToJar.isEmpty && report.conflicts.isEmpty && report.deletedFromWeb.map(\.value) == ["2"])
        #expect(jar.allCookies().isEmpty && store.contents.isEmpty && sync.synchronisedCookies.isEmpty)
    }

    /// A cookie that arrives during a sign-out on every round (a response in flight) ends it unconfirmed;
    /// recorded, it is deleted by the next call from the side that holds it, not copied to the other.
    @Test("a cookie that keeps arriving during a sign-out is recorded, and the next call deletes it instead of copying it to the other side")
    func signOutUnconfirmedRecordsWhatArrived() async throws {
        let (jar, store, sync) = Self.makeSync([Self.cookie("session", "1")], FaultInjectingCookieStore())
        try await sync.push()
        Self.keepSetting(Self.cookie("late", "web"), afterEachDeletionIn: store)
        await #expect(throws: CookieSyncError.signOutUnconfirmed(site: Self.site, remaining: ["late in the store"])) {
            try await sync.signOut(site: Self.site)
        }
        store.faults.afterNextDelete = nil
        let report = try await sync.reconcile()
        #expect(report.copiedToJar.isEmpty && report.deletedFromWeb.map(\.name) == ["late"])
        #expect(jar.allCookies().isEmpty && store.contents.isEmpty)
    }

    /// Web content that sets `cookie` again after each deletion in `store`.
    static func keepSetting(_ cookie: Cookie, afterEachDeletionIn store: FaultInjectingCookieStore) {
        store.faults.afterNextDelete = { store in
            store.webSets(cookie)
            keepSetting(cookie, afterEachDeletionIn: store)
        }
    }

    /// The record to save is read with the jar's file written, after the sync's calls that were running
    /// (here a reconcile copying the web view's cookie into the jar, its store read slow): a record read
    /// after that call with the file written before it would hold a cookie the file does not, which the
    /// next launch would take for one deleted in the jar, and delete from the web view.
    @Test("the record to save is read after the running call, with the jar's file written", .timeLimit(.minutes(1)))
    func recordSavedWithTheJarFlushed() async throws {
        let directory = TemporaryDirectory()
        var options = CookieJarFileOptions()
        options.flushDelay = nil
        let path = directory.file("cookies.sqlite")
        let jar = try CookieJar(
            contentsOf: path, options: options, publicSuffixList: testPublicSuffixList, clock: ManualCookieClock(testEpoch))
        let store = FaultInjectingCookieStore([Self.cookie("web", "1")], faults: .init(reads: .late(.milliseconds(200))))
        let sync = CookieStoreSync(jar: jar, store: store, domains: [Self.site], timeout: Self.timeout)
        let readsBefore = store.calls(.allCookies)
        let reconciling = Task { try await sync.reconcile() }
        while store.calls(.allCookies) == readsBefore { await Task.yield() }
        let saved = try await sync.synchronisedCookiesWithJarFlushed()
        #expect(try await reconciling.value.copiedToJar.map(\.name) == ["web"])
        #expect(saved.map(\.name) == ["web"] && !jar.hasPendingChanges)
        try jar.close()
        #expect(try CookieJar(contentsOf: path, publicSuffixList: testPublicSuffixList, clock: ManualCookieClock(testEpoch))
            .allCookies().map(\.name) == ["web"])
    }

    @Test("a relaunch with the saved record: a cookie deleted in the web view meanwhile is deleted, not copied back")
    func savedRecord() async throws {
        let (jar, store, sync) = Self.makeSync([Self.cookie("a", "1"), Self.cookie("b", "1")], FaultInjectingCookieStore())
        try await sync.push()
        let saved = sync.synchronisedCookies
        store.webDeletes("a")
        let relaunched = CookieStoreSync(
            jar: jar, store: store, domains: [Self.site], emptyReadDelay: .milliseconds(1), record: saved)
        try await relaunched.reconcile()
        #expect(Self.names(jar) == ["b": "1"] && Self.values(store) == ["b": "1"])
    }

    /// WKHTTPCookieStore answers empty at a cold start until it has loaded, which can take longer than
    /// the re-reads wait: WebKit's `API::HTTPCookieStore::cookies` answered empty while the network process
    /// had not launched, "as is common on the first cookie query after app launch" (webkit.org/b/315310,
    /// fixed in WebKit pull request 65430, 2026; older OS versions keep it). A relaunched sync whose record says the store held cookies, and whose every read so far was
    /// empty, deletes nothing from the jar: it copies the jar's cookies to the store. Once a read found the
    /// store holding cookies, its emptiness is believed again (the web view's cookies were cleared).
    @Test("a relaunch whose store reads empty past the re-reads deletes nothing from the jar")
    func coldStartEmptyStoreIsDoubted() async throws {
        let (jar, store, sync) = Self.makeSync([Self.cookie("remember_me", "1")], FaultInjectingCookieStore())
        try await sync.push()
        let saved = sync.synchronisedCookies
        store.faults.emptyReads = 3
        let relaunched = CookieStoreSync(
            jar: jar, store: store, domains: [Self.site], emptyReadDelay: .milliseconds(1), record: saved)
        let report = try await relaunched.reconcile()
        #expect(report.emptyReadsRetried == 2 && report.emptyStoreDoubted)
        #expect(report.deletedFromJar.isEmpty && report.copiedToWeb.map(\.name) == ["remember_me"])
        #expect(Self.names(jar) == ["remember_me": "1"] && Self.values(store) == ["remember_me": "1"])
        #expect(try await relaunched.reconcile().changedNothing)

        store.webDeletes("remember_me")
        let cleared = try await relaunched.reconcile()
        #expect(!cleared.emptyStoreDoubted && cleared.deletedFromJar.map(\.name) == ["remember_me"])
        #expect(jar.allCookies().isEmpty)
    }
}

/// Which cookie domains a scope holds (rfc6265bis-22 §5.1.3 domain-match).
@Suite("CookieSyncScope")
struct CookieSyncScopeTests {
    static let cases: [(domain: String, scope: String, inScope: Bool)] = [
        ("example.com", "example.com", true),  // identical
        ("www.example.com", "example.com", true),  // a subdomain
        ("www.example.com", ".EXAMPLE.com", true),  // the scope is lower-cased, its leading dot dropped
        ("badexample.com", "example.com", false),  // a suffix, but not after a "."
        ("example.com", "www.example.com", false),  // a parent is not within its subdomain
        ("127.0.0.1", "127.0.0.1", true),  // an IP address matches itself...
        ("127.0.0.1", "0.0.1", false),  // ...and nothing else (§5.1.3: the string is a host name)
        ("www.xn--bcher-kva.test", "bücher.test", true),  // the scope in IDNA A-labels, as the jar keeps domains
        ("www.xn--bcher-kva.test", ".BÜCHER.test", true),  // ... lower-cased first, its leading dot dropped
        ("www.xn--bcher-kva.test", "bucher.test", false),  // another name, with or without its diacritic
        ("[::1]", "0:0:0:0:0:0:0:1", true),  // an IPv6 address in the jar's bracketed, compressed text
    ]

    @Test("a cookie domain is within the scope when it domain-matches one of its domains", arguments: cases.indices)
    func contains(_ index: Int) throws {
        let (domain, scope, inScope) = Self.cases[index]
        let cookie = Cookie(name: "a", value: "1", domain: domain, creation: testEpoch)
        #expect(try CookieSyncScope(domains: [scope]).contains(cookie) == inScope, "\(domain) in \(scope)")
    }

    @Test("a partitioned cookie is never in scope: HTTPCookie has no partition key")
    func partitioned() throws {
        let cookie = Cookie(
            name: "a", value: "1", domain: "example.com", creation: testEpoch, partitionKey: "https://example.com")
        #expect(try !CookieSyncScope(domains: ["example.com"]).contains(cookie))
    }

    /// Texts `CanonicalHost` refuses (rfc6265bis-22 §5.1.2 and the URL Standard's host parser): empty, a
    /// lone dot (empty once the leading dot is dropped), a space or a "/" (forbidden host code points),
    /// an IPv4 address with a part over 255. No cookie the jar holds has such a domain.
    static let notHosts = ["", ".", "exa mple.com", "example.com/account", "10.0.0.256"]

    @Test("a domain that is no host name or IP address is refused (CookieSyncError.invalidDomain) instead of making a scope that silently matches nothing", arguments: notHosts)
    func refusesWhatIsNoHost(_ text: String) {
        #expect(throws: CookieSyncError.invalidDomain(text)) { try CookieSyncScope(domains: ["example.com", text]) }
    }
}
