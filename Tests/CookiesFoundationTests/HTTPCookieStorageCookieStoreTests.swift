import Cookies
import CookiesFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `HTTPCookieStorage` adapter on a storage of its own (a new ephemeral configuration's: Linux's
/// `HTTPCookieStorage` has no public initializer, checked with Swift 6.3.1), never `.shared`.
@Suite("HTTPCookieStorageCookieStore")
struct HTTPCookieStorageCookieStoreTests {
    static func storage() throws -> HTTPCookieStorage {
        try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
    }

    @Test("each ephemeral configuration has a storage of its own, apart from .shared")
    func storagesOfTheirOwn() throws {
        let first = try Self.storage()
        let second = try Self.storage()
        #expect(first !== second && first !== HTTPCookieStorage.shared)
    }

    @Test("a jar's cookies pushed, read back and deleted: host-only and domain cookies, session and persistent, Secure and HttpOnly")
    func roundTrip() async throws {
        // Foundation's storage drops expired cookies by the real clock: the test's clock starts now.
        let now = CookieTime(Date())
        let jar = CookieJar(publicSuffixList: testPublicSuffixList, clock: ManualCookieClock(now))
        let cookies = [
            Cookie(name: "session", value: "1", domain: "www.example.com", creation: now, isSecure: true,
                   isHTTPOnly: true, sameSite: .lax),
            Cookie(name: "remember", value: "2", domain: "example.com", isHostOnly: false, path: "/app",
                   expiry: now.adding(seconds: 3_600), creation: now),
        ]
        for cookie in cookies { jar.insert(cookie) }
        let storage = try Self.storage()
        let store = HTTPCookieStorageCookieStore(storage, clock: jar.clock)
        let sync = CookieStoreSync(jar: jar, store: store, domains: ["example.com"])
        try await sync.push()
        let stored = Dictionary((storage.cookies ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(stored["session"]?.domain == "www.example.com" && stored["session"]?.isSessionOnly == true)
        #expect(stored["session"]?.isHTTPOnly == true && stored["session"]?.isSecure == true)
        #expect(stored["remember"]?.domain == ".example.com" && stored["remember"]?.path == "/app")
        #expect(stored["remember"]?.expiresDate == Date(now.adding(seconds: 3_600)))
        #expect(try await sync.reconcile().changedNothing, "what the storage gives back is what the jar holds")
        try await sync.signOut(site: "example.com")
        #expect(storage.cookies?.isEmpty == true && jar.count == 0)
    }

    #if !canImport(Darwin)
    /// swift-corelibs-foundation (Swift 6.3.1) writes a group container's storage to a file, and a storage
    /// read from it at the next launch gives its cookies back without HttpOnly and without Secure: taken for
    /// the web view's changes, these stripped the jar's cookie of both, and it went over plain http.
    @Test("at a relaunch, a group container's storage read from its file leaves the jar's cookies Secure and HttpOnly (Linux: the file loses both)")
    func relaunchFromTheStorageFileKeepsSecureAndHTTPOnly() async throws {
        let now = CookieTime(Date())
        let jar = CookieJar(publicSuffixList: testPublicSuffixList, clock: ManualCookieClock(now))
        jar.insert(Cookie(
            name: "remember_me", value: "b41d", domain: "example.com", isHostOnly: false,
            expiry: now.adding(seconds: 30 * 86_400), creation: now, isSecure: true, isHTTPOnly: true, isSourceSecure: true))
        let identifier = "cookiejar-tests-\(UInt64.random(in: 0 ... .max))"
        let firstLaunch = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: identifier)
        let sync = CookieStoreSync(jar: jar, store: HTTPCookieStorageCookieStore(firstLaunch, clock: jar.clock), domains: ["example.com"])
        try await sync.push()
        let record = sync.synchronisedCookies
        // The next launch: a storage read from a copy of the file (within a process, an identifier's
        // storage is one object, never read again).
        let file = try #require(Self.storageFile(of: identifier))
        let relaunched = identifier + "-relaunched"
        let copy = (file as NSString).deletingLastPathComponent + "/.cookies." + relaunched
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        defer { for path in [file, copy] { try? FileManager.default.removeItem(atPath: path) } }
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: relaunched)
        #expect(storage.cookies?.map(\.name) == ["remember_me"])
        let resumed = CookieStoreSync(
            jar: jar, store: HTTPCookieStorageCookieStore(storage, clock: jar.clock), domains: ["example.com"], record: record)
        #expect(try await resumed.reconcile().changedNothing)
        let cookie = try #require(jar.allCookies().first)
        #expect(cookie.isSecure && cookie.isHTTPOnly)
        #expect(jar.cookieHeader(for: CookieURL("http://example.com/")!) == nil)
    }

    /// The file of the storage of a group container `identifier`: `~/.local/share/<program>/.cookies.<identifier>`.
    static func storageFile(of identifier: String) -> String? {
        let base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
        let programs = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return programs.lazy.map { base + "/" + $0 + "/.cookies." + identifier }.first { FileManager.default.fileExists(atPath: $0) }
    }
    #endif

    @Test("a cookie Foundation stored from a response with Max-Age keeps its expiry in the jar (swift-corelibs-foundation sets no expiresDate for a version-0 Max-Age)")
    func maxAgeExpiry() throws {
        let response = try #require(HTTPCookie.cookies(
            withResponseHeaderFields: ["Set-Cookie": "remember=1; Path=/; Max-Age=3600"],
            for: foundationURL("https://www.example.com/")).first)
        let cookie = Cookie(response, creation: testEpoch)
        let expiry = try #require(cookie.expiry)
        let expected = CookieTime(Date()).adding(seconds: 3_600)
        #expect(abs(expiry.secondsSinceEpoch - expected.secondsSinceEpoch) <= 5)
    }
}
