import Foundation
import TestSupport
import Testing

@testable import Cookies

// The helpers below that hand values between threads hold them in a `CookieLock`, which ThreadSanitizer
// sees (Tests/thread-sanitizer.sh runs these tests under it), not in a `Mutex`, which it does not.

/// The keys a registry made jars for, in order.
final class MadeKeys: Sendable {
    private let keys = CookieLock<[String]>([])
    func append(_ key: String) { keys.withLock { $0.append(key) } }
    var all: [String] { keys.withLock { $0 } }
}

/// A jar handed from another thread.
final class JarBox: Sendable {
    private let box = CookieLock<CookieJar?>(nil)
    var jar: CookieJar? {
        get { box.withLock { $0 } }
        set { box.withLock { $0 = newValue } }
    }
}

/// The registry a `closeFailed` handler calls, set once the registry is made.
final class RegistryBox: Sendable {
    private let box = CookieLock<CookieJarRegistry<String>?>(nil)
    var registry: CookieJarRegistry<String>? {
        get { box.withLock { $0 } }
        set { box.withLock { $0 = newValue } }
    }
}

/// The calls of a `closeFailed` handler: how many, and the most made within one another on one thread.
final class CloseFailedCalls: Sendable {
    private let counts = CookieLock((calls: 0, deepest: 0))
    /// How many calls of the handler run on this thread, one within another.
    @TaskLocal private static var depth = 0

    /// Counts a call of the handler and runs it as `body`, given its number (from 1).
    func call(_ body: (Int) -> Void) {
        let depth = Self.depth + 1
        let number = counts.withLock { counts in
            counts.calls += 1
            counts.deepest = max(counts.deepest, depth)
            return counts.calls
        }
        Self.$depth.withValue(depth) { body(number) }
    }

    var calls: Int { counts.withLock { $0.calls } }
    var deepest: Int { counts.withLock { $0.deepest } }
}

extension CookieJarRegistry {
    /// The jar of `key`, used for no longer than this call: the jar a request would get.
    func usedJar(for key: Key) throws -> CookieJar { try withJarSynchronously(for: key) { $0 } }
}

/// Serialized: several tests block threads on purpose (a slow file, a lock held), which tests running
/// beside them on this machine's few threads would wait for.
@Suite("CookieJarRegistry", .serialized)
struct CookieJarRegistryTests {
    let directory = TemporaryDirectory()

    /// A registry of `capacity` in-memory jars on a manual clock; `made` counts the jars made per key.
    func makeRegistry(capacity: Int, idleTimeout: Int64 = 600) -> (CookieJarRegistry<String>, ManualCookieClock, MadeKeys) {
        let clock = ManualCookieClock(testEpoch)
        let made = MadeKeys()
        let registry = CookieJarRegistry<String>(
            capacity: capacity, idleTimeout: idleTimeout, clock: clock,
            makeJar: { key in
                made.append(key)
                return CookieJar(publicSuffixList: testPublicSuffixList, clock: clock)
            },
            closeFailed: { key, error in Issue.record("closing \(key)'s jar failed: \(error)") })
        return (registry, clock, made)
    }

    /// A registry of `capacity` jars, each in the file `<key>.sqlite` of the test's directory, on a manual clock.
    func makeFileRegistry(capacity: Int, idleTimeout: Int64) -> (CookieJarRegistry<String>, ManualCookieClock) {
        let clock = ManualCookieClock(testEpoch)
        let registry = CookieJarRegistry<String>(
            capacity: capacity, idleTimeout: idleTimeout, clock: clock,
            makeJar: { [directory] key in try openTestJar(directory.file("\(key).sqlite"), clock: clock) },
            closeFailed: { key, error in Issue.record("closing \(key)'s jar failed: \(error)") })
        return (registry, clock)
    }

    /// A registry of `capacity` jars on a manual clock, whose key "ada" has the file ada.sqlite of the
    /// test's directory, waiting `busyTimeout` for a lock another connection holds (other keys get jars in
    /// memory); `failures` lists each close that failed, as "key: code".
    func makeAdaRegistry(capacity: Int, busyTimeout: Duration) -> (
        registry: CookieJarRegistry<String>, clock: ManualCookieClock, failures: MadeKeys, path: String
    ) {
        let clock = ManualCookieClock(testEpoch)
        var options = testFileOptions()
        options.busyTimeout = busyTimeout
        let busyOptions = options
        let path = directory.file("ada.sqlite")
        let failures = MadeKeys()
        let registry = CookieJarRegistry<String>(
            capacity: capacity, idleTimeout: 600, clock: clock,
            makeJar: { key in
                key == "ada"
                    ? try openTestJar(path, options: busyOptions, clock: clock)
                    : CookieJar(publicSuffixList: testPublicSuffixList, clock: clock)
            },
            closeFailed: { key, error in failures.append("\(key): \(error.code)") })
        return (registry, clock, failures, path)
    }

    /// Users' cookies never mix: each key has its own jar, the same one on every call.
    @Test("one jar per key")
    func separateJars() throws {
        let (registry, _, made) = makeRegistry(capacity: 10)
        try registry.usedJar(for: "ada").receive("session=ada", from: url("https://api.test/"))
        try registry.usedJar(for: "bob").receive("session=bob", from: url("https://api.test/"))
        #expect(try registry.usedJar(for: "ada").cookieHeader(for: url("https://api.test/")) == "session=ada")
        #expect(try registry.usedJar(for: "bob").cookieHeader(for: url("https://api.test/")) == "session=bob")
        #expect(made.all == ["ada", "bob"])
    }

    /// Bounded: past the capacity the jar used least recently is closed and made anew when asked for.
    @Test("capacity closes the least recently used jar")
    func capacity() throws {
        let (registry, clock, made) = makeRegistry(capacity: 2)
        let ada = try registry.usedJar(for: "ada")
        clock.advance(seconds: 1)
        _ = try registry.usedJar(for: "bob")
        clock.advance(seconds: 1)
        #expect(try registry.usedJar(for: "ada") === ada)
        clock.advance(seconds: 1)
        _ = try registry.usedJar(for: "cy")
        #expect(registry.count == 2)
        clock.advance(seconds: 1)
        _ = try registry.usedJar(for: "bob")
        #expect(made.all == ["ada", "bob", "cy", "bob"])
    }

    /// Idle jars are closed: by a sweep on a later call (at most once a minute) or by closeIdleJars().
    @Test("idle jars are closed")
    func idle() throws {
        let (registry, clock, made) = makeRegistry(capacity: 10, idleTimeout: 300)
        _ = try registry.usedJar(for: "ada")
        clock.advance(seconds: 200)
        _ = try registry.usedJar(for: "bob")
        clock.advance(seconds: 200)
        #expect(registry.closeIdleJars() == 1)
        #expect(registry.count == 1)
        clock.advance(seconds: 400)
        _ = try registry.usedJar(for: "cy")
        #expect(registry.count == 1)
        #expect(registry.closeJar(for: "cy") && !registry.closeJar(for: "cy"))
        #expect(made.all == ["ada", "bob", "cy"])
    }

    /// A jar that cannot be made (its file unreadable) throws for its key only: the idle jars the same
    /// call's sweep took are closed all the same, their cookies written, and their keys get jars again
    /// (they waited for ever for a closing that never came).
    @Test(.timeLimit(.minutes(1))) func aJarThatCannotBeMadeLeavesTheSweptJarsClosed() throws {
        let clock = ManualCookieClock(testEpoch)
        let registry = CookieJarRegistry<String>(
            capacity: 10, idleTimeout: 10, clock: clock,
            makeJar: { [directory] key in
                guard key != "bad" else { throw CookieFileError(.corrupt, path: key, detail: "unreadable") }
                return try openTestJar(directory.file("\(key).sqlite"), clock: clock)
            },
            closeFailed: { key, error in Issue.record("closing \(key)'s jar failed: \(error)") })
        try registry.usedJar(for: "ada").receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        clock.advance(seconds: 120)
        #expect(throws: CookieFileError.self) { try registry.usedJar(for: "bad") }
        #expect(registry.count == 0)
        registry.closeAll()  // waits for the sweep's closes, on the registry's queue
        #expect(try openTestJar(directory.file("ada.sqlite"), clock: clock).cookieHeader(for: url("https://api.test/")) == "id=1")
        #expect(try registry.usedJar(for: "ada").cookieHeader(for: url("https://api.test/")) == "id=1")
    }

    /// A file-backed jar closed by the registry has written its cookies: the next one for that key loads
    /// them again.
    @Test("a closed file jar comes back from its file")
    func fileJars() throws {
        let (registry, _) = makeFileRegistry(capacity: 1, idleTimeout: 600)
        try registry.usedJar(for: "ada").receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        _ = try registry.usedJar(for: "bob")
        #expect(try registry.usedJar(for: "ada").cookieHeader(for: url("https://api.test/")) == "id=1")
        registry.closeAll()
        #expect(registry.count == 0)
    }

    /// The next jar of a key whose jar is being closed is made once that jar has written its file: here
    /// another key's call sweeps the idle jar, whose change is not written yet (no flush delay), and the
    /// request for the key that comes at once gets a new jar that loads it. The sweep spares the jar of the
    /// key it runs for, which that request uses again.
    @Test("a key's new jar loads what its closed jar wrote")
    func newJarAfterClose() throws {
        let (registry, clock) = makeFileRegistry(capacity: 10, idleTimeout: 60)
        let first = try registry.usedJar(for: "ada")
        first.receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        #expect(first.hasPendingChanges)
        clock.advance(seconds: 120)
        _ = try registry.usedJar(for: "bob")
        let second = try registry.usedJar(for: "ada")
        #expect(second !== first && !first.hasPendingChanges)
        #expect(second.cookieHeader(for: url("https://api.test/")) == "id=1")
        clock.advance(seconds: 120)
        #expect(try registry.usedJar(for: "ada") === second, "spared by its own request's sweep")
        registry.closeAll()
    }

    /// A jar whose file cannot be written when it is closed (a full disk: SQLite's page limit standing
    /// in for it, as in CookieFileErrorTests) is reported, not dropped silently.
    @Test("a failed close is reported")
    func closeFailure() throws {
        let clock = ManualCookieClock(testEpoch)
        let failures = MadeKeys()
        let path = directory.file("ada.sqlite")
        try openTestJar(path, clock: clock).close()
        var limited = testFileOptions()
        limited.maximumPageCount = Int(try SQLiteConnection(path: path, flags: .readOnly).integer("PRAGMA page_count")!)
        let options = limited
        let registry = CookieJarRegistry<String>(
            capacity: 1, idleTimeout: 600, clock: clock,
            makeJar: { _ in try openTestJar(path, options: options, clock: clock) },
            closeFailed: { key, error in failures.append("\(key): \(error.code)") })
        let jar = try registry.usedJar(for: "ada")
        let big = String(repeating: "x", count: 3000)
        for index in 0..<40 { jar.receive("big\(index)=\(big); Max-Age=3600", from: url("https://api.test/")) }
        registry.closeAll()
        #expect(failures.all == ["ada: \(CookieFileError.Code.full)"])
    }

    /// Requests for a key whose jar is being closed wait for that close, and do not close it again: a close
    /// that fails (another connection holds the file's write lock past the busy timeout) is reported once,
    /// and each request gets the key's jar after it: the same jar, its change pending (a new jar loaded
    /// from the file would lack it, while the old one, still writing, holds it), written by the next close.
    @Test(.timeLimit(.minutes(1))) func requestsWaitForTheCloseOfTheirKeysJar() throws {
        let (registry, clock, failures, path) = makeAdaRegistry(capacity: 10, busyTimeout: .milliseconds(300))
        try registry.usedJar(for: "ada").receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        let holder = try SQLiteConnection(path: path, flags: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        let closer = Thread { registry.closeJar(for: "ada") }
        closer.start()
        Thread.sleep(forTimeInterval: 0.05)
        let got = MadeKeys()
        let requests = (0..<3).map { _ in
            Thread { if (try? registry.usedJar(for: "ada")) != nil { got.append("ada") } }
        }
        for request in requests { request.start() }
        while got.all.count < 3 { Thread.sleep(forTimeInterval: 0.01) }
        try holder.execute("ROLLBACK")
        #expect(failures.all == ["ada: \(CookieFileError.Code.busy)"])
        let kept = try registry.usedJar(for: "ada")
        #expect(kept.hasPendingChanges && kept.allCookies().map(\.name) == ["id"])
        registry.closeAll()
        #expect(failures.all.count == 1)
        #expect(try openTestJar(path, clock: clock).allCookies().map(\.name) == ["id"], "written by the next close")
    }

    /// `closeFailed` is called with no lock held and no request waiting on the close: it may ask the
    /// registry for the key's jar (a retry) without a deadlock, and gets the jar that failed to close.
    @Test(.timeLimit(.minutes(1))) func closeFailedMayCallTheRegistry() throws {
        let clock = ManualCookieClock(testEpoch)
        var busyAfter100ms = testFileOptions()
        busyAfter100ms.busyTimeout = .milliseconds(100)
        let options = busyAfter100ms
        let path = directory.file("ada.sqlite")
        let asked = MadeKeys()
        let box = RegistryBox()
        let registry = CookieJarRegistry<String>(
            capacity: 10, idleTimeout: 600, clock: clock,
            makeJar: { _ in try openTestJar(path, options: options, clock: clock) },
            closeFailed: { key, _ in if (try? box.registry?.usedJar(for: key)) != nil { asked.append(key) } })
        box.registry = registry
        let jar = try registry.usedJar(for: "ada")
        jar.receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        let holder = try SQLiteConnection(path: path, flags: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        registry.closeJar(for: "ada")
        try holder.execute("ROLLBACK")
        #expect(asked.all == ["ada"])
        #expect(try registry.usedJar(for: "ada") === jar)
        registry.closeAll()
    }

    /// How a `closeFailed` handler closes again the jar it hears of.
    enum CloseAgain: CaseIterable, Sendable {
        case closeJar, closeAll
    }

    /// A `closeFailed` may close the jar it hears of again (a retry): that close is made on the registry's
    /// queue, not within the call that asked for it: while the failure lasts (a full disk, SQLite's page
    /// limit standing in for it, as in `closeFailure()`) each try is reported, and none within the report
    /// of another (a close made there would fail and be reported within it, and so on until the stack
    /// overflows). Once the failure ends (on the fifth report the cookies that did not fit are deleted)
    /// the close succeeds, and the file holds what fits.
    @Test(.timeLimit(.minutes(1)), arguments: CloseAgain.allCases)
    func closeFailedMayCloseItsJarAgain(_ again: CloseAgain) throws {
        let clock = ManualCookieClock(testEpoch)
        let path = directory.file("ada.sqlite")
        try openTestJar(path, clock: clock).close()
        var limited = testFileOptions()
        limited.maximumPageCount = Int(try SQLiteConnection(path: path, flags: .readOnly).integer("PRAGMA page_count")!)
        let options = limited
        let box = RegistryBox()
        let calls = CloseFailedCalls()
        let registry = CookieJarRegistry<String>(
            capacity: 10, idleTimeout: 600, clock: clock,
            makeJar: { _ in try openTestJar(path, options: options, clock: clock) },
            closeFailed: { key, error in
                calls.call { number in
                    guard let registry = box.registry else { return }
                    #expect(error.code == .full)
                    if number == 5 {
                        _ = try? registry.withJarSynchronously(for: key) { jar in
                            for cookie in jar.allCookies() where cookie.name.hasPrefix("big") { _ = jar.delete(cookie) }
                        }
                    }
                    switch again {
                    case .closeJar: registry.closeJar(for: key)
                    case .closeAll: registry.closeAll()
                    }
                }
            })
        box.registry = registry
        let jar = try registry.usedJar(for: "ada")
        jar.receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        let big = String(repeating: "x", count: 3000)
        for index in 0..<40 { jar.receive("big\(index)=\(big); Max-Age=3600", from: url("https://api.test/")) }
        #expect(registry.closeJar(for: "ada"))
        // Once the fifth report has taken the jar to close it, the key has no jar: that close succeeds.
        while calls.calls < 5 || registry.count > 0 { Thread.sleep(forTimeInterval: 0.01) }
        registry.closeAll()  // waits for that close, on the registry's queue
        #expect(calls.calls == 5)
        #expect(calls.deepest == 1, "a report within a report")
        #expect(try openTestJar(path, clock: clock).allCookies().map(\.name) == ["id"])
    }

    /// A jar is made with no lock held: while one user's file is slow to open, another user's requests get
    /// their jar at once, and `makeJar` may ask the registry (here its count) without stopping the process.
    @Test(.timeLimit(.minutes(1))) func aSlowJarDelaysOnlyItsOwnKey() throws {
        let opening = DispatchSemaphore(value: 0), open = DispatchSemaphore(value: 0)
        let box = RegistryBox()
        let registry = CookieJarRegistry<String>(
            capacity: 10, idleTimeout: 600, clock: ManualCookieClock(testEpoch),
            makeJar: { key in
                _ = box.registry?.count
                if key == "slow" {
                    opening.signal()
                    open.wait()
                }
                return CookieJar(publicSuffixList: testPublicSuffixList)
            },
            closeFailed: { key, error in Issue.record("closing \(key)'s jar failed: \(error)") })
        box.registry = registry
        let held = try registry.usedJar(for: "hot")
        let slowUser = Thread { _ = try? registry.usedJar(for: "slow") }
        slowUser.start()
        opening.wait()
        #expect(try registry.usedJar(for: "hot") === held)
        #expect(registry.count == 1)
        open.signal()
        while registry.count < 2 { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// A request that waits for its key's jar suspends: the second async request for a key whose jar is
    /// being made gets that jar once it is made, and the key's jar is made once.
    @Test(.timeLimit(.minutes(1))) func asyncRequestsWaitForTheJarBeingMade() async throws {
        let opening = DispatchSemaphore(value: 0), open = DispatchSemaphore(value: 0)
        let made = MadeKeys()
        let registry = CookieJarRegistry<String>(
            capacity: 10, idleTimeout: 600, clock: ManualCookieClock(testEpoch),
            makeJar: { key in
                made.append(key)
                opening.signal()
                open.wait()
                return CookieJar(publicSuffixList: testPublicSuffixList)
            },
            closeFailed: { key, error in Issue.record("closing \(key)'s jar failed: \(error)") })
        // The first request makes the jar on a thread of its own: a task blocked in `makeJar` would hold
        // one of the few threads that run tasks.
        let firstJar = JarBox()
        Thread { firstJar.jar = try? registry.withJarSynchronously(for: "ada") { $0 } }.start()
        await withCheckedContinuation { started in DispatchQueue.global().async { opening.wait(); started.resume() } }
        let second = Task.detached { try await registry.withJar(for: "ada") { $0 } }
        try await Task.sleep(for: .milliseconds(50))
        open.signal()
        let secondJar = try await second.value
        #expect(secondJar === (try registry.usedJar(for: "ada")))
        while firstJar.jar == nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(firstJar.jar === secondJar)
        #expect(made.all == ["ada"])
    }

    /// A jar that a request uses is neither evicted nor closed as idle while it does: a session cookie
    /// rotated by a response that arrives after other users pushed the registry past its capacity is
    /// stored in the jar the registry writes, and the user's next request sends it.
    @Test func aJarInUseStaysTheKeysJar() throws {
        let (registry, clock) = makeFileRegistry(capacity: 1, idleTimeout: 60)
        try registry.usedJar(for: "ada").receive("session=v1; Max-Age=3600", from: url("https://api.test/"))
        let ada = try registry.withJarSynchronously(for: "ada") { ada in
            _ = try registry.usedJar(for: "bob")
            #expect(registry.count == 1, "bob's jar, over the capacity, closed when returned; ada's in use")
            clock.advance(seconds: 600)
            #expect(registry.closeIdleJars() == 0)
            ada.receive("session=v2; Max-Age=3600", from: url("https://api.test/"))
            return ada
        }
        #expect(try registry.usedJar(for: "ada") === ada)
        #expect(ada.cookieHeader(for: url("https://api.test/")) == "session=v2")
        registry.closeAll()
        #expect(try openTestJar(directory.file("ada.sqlite"), clock: clock).cookieHeader(for: url("https://api.test/")) == "session=v2")
    }

    /// Past the capacity only while requests use the jars: once they return them, the registry closes the
    /// jars used least recently until it holds `capacity` again.
    @Test func theCapacityComesBackWhenJarsAreReturned() throws {
        let (registry, clock, made) = makeRegistry(capacity: 1)
        try registry.withJarSynchronously(for: "ada") { _ in
            clock.advance(seconds: 1)
            try registry.withJarSynchronously(for: "bob") { _ in
                clock.advance(seconds: 1)
                _ = try registry.usedJar(for: "cy")
                #expect(registry.count == 2, "cy's, unused, closed at once; ada's and bob's in use")
            }
        }
        #expect(registry.count == 1)
        clock.advance(seconds: 1)
        _ = try registry.usedJar(for: "ada")
        #expect(made.all == ["ada", "bob", "cy"], "ada's jar, returned last, is the one kept")
    }

    /// `closeJar(for:)` on a jar in use closes it when the request returns it: until then it stays the
    /// key's jar, and what the request stores meanwhile is written.
    @Test func closingAJarInUseWaitsForItsReturn() throws {
        let (registry, clock) = makeFileRegistry(capacity: 10, idleTimeout: 600)
        try registry.withJarSynchronously(for: "ada") { (ada: CookieJar) throws in
            #expect(registry.closeJar(for: "ada"))
            #expect(try registry.usedJar(for: "ada") === ada)
            ada.receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        }
        registry.closeAll()  // waits for the close on the registry's queue
        #expect(registry.count == 0)
        #expect(try openTestJar(directory.file("ada.sqlite"), clock: clock).cookieHeader(for: url("https://api.test/")) == "id=1")
    }

    /// Sign-out deletes the user's cookies, from the file too, whether or not the registry held the jar;
    /// closing alone keeps them (the next request loads them again).
    @Test func deletingAUsersCookies() async throws {
        let (registry, clock) = makeFileRegistry(capacity: 10, idleTimeout: 600)
        try registry.usedJar(for: "ada").receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        try registry.usedJar(for: "bob").receive("id=2; Max-Age=3600", from: url("https://api.test/"))
        registry.closeAll()
        #expect(try registry.usedJar(for: "ada").cookieHeader(for: url("https://api.test/")) == "id=1", "closed, not deleted")
        #expect(try await registry.deleteAllCookies(of: "ada") == 1)
        #expect(try await registry.deleteAllCookies(of: "bob") == 1, "not held: made to delete its file's cookies")
        registry.closeAll()
        #expect(registry.count == 0)
        for key in ["ada", "bob"] {
            #expect(try openTestJar(directory.file("\(key).sqlite"), clock: clock).count == 0)
        }
    }

    /// A jar in use whose close by `closeAll()` fails stays the key's jar as used by its request: once the
    /// request returns it, later requests' jars do not evict it while it is used again, and what it stores
    /// then is written.
    @Test(.timeLimit(.minutes(1))) func aJarInUseThatFailsToCloseStaysInUse() throws {
        let (registry, clock, failures, path) = makeAdaRegistry(capacity: 1, busyTimeout: .milliseconds(100))
        let ada = try registry.withJarSynchronously(for: "ada") { (jar: CookieJar) throws in
            jar.receive("id=1; Max-Age=3600", from: url("https://api.test/"))
            let holder = try SQLiteConnection(path: path, flags: .readWrite)
            try holder.execute("BEGIN IMMEDIATE")
            registry.closeAll()
            try holder.execute("ROLLBACK")
            return jar
        }
        #expect(failures.all == ["ada: \(CookieFileError.Code.busy)"])
        try registry.withJarSynchronously(for: "ada") { (jar: CookieJar) throws in
            #expect(jar === ada)
            clock.advance(seconds: 1)
            _ = try registry.usedJar(for: "bob")
            #expect(try registry.usedJar(for: "ada") === jar)
            jar.receive("late=2; Max-Age=3600", from: url("https://api.test/"))
        }
        registry.closeAll()
        #expect(try openTestJar(path, clock: clock).allCookies().map(\.name).sorted() == ["id", "late"])
    }

    /// How a jar that no request uses leaves the registry.
    enum Release: CaseIterable, Sendable {
        case idle, evicted, closed
    }

    /// A jar in use whose close by `closeAll()` fails (another connection holds the file's write lock past
    /// the busy timeout), and which its request returns while that close runs, is put back as used by no
    /// request: it is closed as idle, evicted for another key's jar (the capacity is 1) or closed by
    /// `closeJar(for:)` like any unused jar, and the key's next jar loads what it wrote. Put back as used
    /// by the request that had returned it, it would stay the key's jar, and the registry over its
    /// capacity, for ever.
    @Test(.timeLimit(.minutes(1)), arguments: Release.allCases)
    func aJarReturnedWhileItFailsToCloseIsUnused(_ release: Release) throws {
        let (registry, clock, failures, path) = makeAdaRegistry(capacity: 1, busyTimeout: .milliseconds(500))
        let ada = JarBox()
        let inUse = DispatchSemaphore(value: 0), giveBack = DispatchSemaphore(value: 0), returned = DispatchSemaphore(value: 0)
        Thread {
            _ = try? registry.withJarSynchronously(for: "ada") { jar in
                jar.receive("id=1; Max-Age=3600", from: url("https://api.test/"))
                ada.jar = jar
                inUse.signal()
                giveBack.wait()
            }
            returned.signal()
        }.start()
        inUse.wait()
        let holder = try SQLiteConnection(path: path, flags: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        let closedAll = DispatchSemaphore(value: 0)
        Thread {
            registry.closeAll()
            closedAll.signal()
        }.start()
        while registry.count > 0 { Thread.sleep(forTimeInterval: 0.01) }  // taken: its close waits for the lock
        giveBack.signal()
        returned.wait()
        closedAll.wait()
        try holder.execute("ROLLBACK")
        #expect(failures.all == ["ada: \(CookieFileError.Code.busy)"])
        switch release {
        case .idle:
            clock.advance(seconds: 600)
            #expect(registry.closeIdleJars() == 1)
        case .evicted:
            clock.advance(seconds: 1)
            _ = try registry.usedJar(for: "bob")
        case .closed:
            #expect(registry.closeJar(for: "ada"))
        }
        let next = try registry.usedJar(for: "ada")
        #expect(next !== ada.jar)
        #expect(next.cookieHeader(for: url("https://api.test/")) == "id=1")
        registry.closeAll()
    }

    /// `closeAll()` waits for the closes already running on the registry's queue, and tries again the jar
    /// one of them failed to write: `closeFailed` has heard of it when `closeAll()` returns.
    @Test(.timeLimit(.minutes(1))) func closeAllReportsTheFailuresOfTheClosesItWaitedFor() throws {
        let (registry, clock, failures, path) = makeAdaRegistry(capacity: 10, busyTimeout: .milliseconds(100))
        try registry.usedJar(for: "ada").receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        let holder = try SQLiteConnection(path: path, flags: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        _ = try registry.withJarSynchronously(for: "ada") { _ in registry.closeJar(for: "ada") }  // closed on the queue
        registry.closeAll()
        #expect(failures.all.contains("ada: \(CookieFileError.Code.busy)"))
        try holder.execute("ROLLBACK")
        registry.closeAll()
        #expect(registry.count == 0)
        #expect(try openTestJar(path, clock: clock).allCookies().map(\.name) == ["id"])
    }

    /// `closeAll()` waits for closes, not for jars being made: a `makeJar` that calls it (to free file
    /// descriptors) returns.
    @Test(.timeLimit(.minutes(1))) func closeAllFromMakeJar() throws {
        let box = RegistryBox()
        let registry = CookieJarRegistry<String>(
            capacity: 10, idleTimeout: 600, clock: ManualCookieClock(testEpoch),
            makeJar: { key in
                if key == "new" { box.registry?.closeAll() }
                return CookieJar(publicSuffixList: testPublicSuffixList)
            },
            closeFailed: { key, error in Issue.record("closing \(key)'s jar failed: \(error)") })
        box.registry = registry
        _ = try registry.usedJar(for: "old")
        _ = try registry.usedJar(for: "new")
        #expect(registry.count == 1)
    }

    /// A jar another thread is making while `closeAll()` runs is closed as soon as it is made, as the jars
    /// in use were: after a shutdown's `closeAll()`, the registry holds no jar (it kept that one open, its
    /// file and pending changes with it, until something else closed it).
    @Test(.timeLimit(.minutes(1))) func closeAllClosesAJarBeingMade() throws {
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let clock = ManualCookieClock(testEpoch)
        let registry = CookieJarRegistry<String>(
            capacity: 10, idleTimeout: 600, clock: clock,
            makeJar: { [directory] key in
                started.signal()
                proceed.wait()
                return try openTestJar(directory.file("\(key).sqlite"), clock: clock)
            },
            closeFailed: { key, error in Issue.record("closing \(key)'s jar failed: \(error)") })
        let request = DispatchGroup()
        DispatchQueue.global().async(group: request) {
            _ = try? registry.withJarSynchronously(for: "ada") { $0.receive("id=1; Max-Age=3600", from: url("https://api.test/")) }
        }
        started.wait()
        registry.closeAll()
        proceed.signal()
        request.wait()
        #expect(registry.count == 0)
        // Closed before its request had it: what the request stored was not written.
        #expect(try openTestJar(directory.file("ada.sqlite"), clock: clock).count == 0)
    }

    /// A request whose task is cancelled while it waits for its key's jar stops waiting
    /// (`CancellationError`) and does not run its body.
    @Test(.timeLimit(.minutes(1))) func aCancelledRequestStopsWaiting() async throws {
        let opening = DispatchSemaphore(value: 0), open = DispatchSemaphore(value: 0)
        let registry = CookieJarRegistry<String>(
            capacity: 10, idleTimeout: 600, clock: ManualCookieClock(testEpoch),
            makeJar: { _ in
                opening.signal()
                open.wait()
                return CookieJar(publicSuffixList: testPublicSuffixList)
            },
            closeFailed: { key, error in Issue.record("closing \(key)'s jar failed: \(error)") })
        Thread { _ = try? registry.usedJar(for: "ada") }.start()
        await withCheckedContinuation { started in DispatchQueue.global().async { opening.wait(); started.resume() } }
        let ran = CookieLock(false)
        let second = Task.detached { try await registry.withJar(for: "ada") { _ in ran.withLock { $0 = true } } }
        try await Task.sleep(for: .milliseconds(50))
        second.cancel()
        let outcome = await second.result
        open.signal()
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(!ran.withLock { $0 })
    }

    /// Each jar the registry closes by itself is closed apart: one whose file is locked by another
    /// connection delays only its own key, not a user whose jar was evicted after it.
    @Test(.timeLimit(.minutes(1))) func aSlowCloseDelaysOnlyItsOwnKey() throws {
        let clock = ManualCookieClock(testEpoch)
        var busyAfter2s = testFileOptions()
        busyAfter2s.busyTimeout = .seconds(2)
        let options = busyAfter2s
        let registry = CookieJarRegistry<String>(
            capacity: 1, idleTimeout: 600, clock: clock,
            makeJar: { [directory] key in try openTestJar(directory.file("\(key).sqlite"), options: options, clock: clock) },
            closeFailed: { key, error in Issue.record("closing \(key)'s jar failed: \(error)") })
        try registry.usedJar(for: "ada").receive("id=1; Max-Age=3600", from: url("https://api.test/"))
        let holder = try SQLiteConnection(path: directory.file("ada.sqlite"), flags: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        clock.advance(seconds: 1)
        try registry.usedJar(for: "bob").receive("id=2; Max-Age=3600", from: url("https://api.test/"))  // evicts ada
        clock.advance(seconds: 1)
        _ = try registry.usedJar(for: "cy")  // evicts bob
        let start = ContinuousClock.now
        #expect(try registry.usedJar(for: "bob").cookieHeader(for: url("https://api.test/")) == "id=2")
        #expect(ContinuousClock.now - start < .seconds(1), "bob's close did not wait behind ada's")
        try holder.execute("ROLLBACK")
        registry.closeAll()
    }
}
