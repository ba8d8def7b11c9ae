import Testing
@_spi(Fuzzing) @testable import Cookies

/// One jar shared by many tasks: every operation is atomic (run under ThreadSanitizer too, see the
/// README's command).
struct ConcurrencyTests {
    /// Eight tasks receive, look up and delete on one jar at once. The jar's changes arrive in the order
    /// of its lock (`CookieJar.changes`); the receipts and deletions they show, replayed one at a time on
    /// a fresh jar in that order, make the same cookies (names, values, creation times): every operation
    /// took effect whole, as in some serial order. Every header a lookup read carries each task's cookie
    /// at most once.
    @Test func manyTasksShareOneJar() async {
        let (jar, _) = makeTestJar()
        let changes = CookieLock<[CookieChange]>([])
        jar.addObserver { change in changes.withLock { $0.append(change) } }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        let site = url("http://s\(index % 10).test/")
                        jar.setCookie("w\(worker)=\(index)", from: site)
                        let names = (jar.cookieHeader(for: site) ?? "").split(separator: "; ").map { $0.prefix { $0 != "=" } }
                        #expect(Set(names).count == names.count, "a header carries each cookie once")
                        if index % 50 == 0 { jar.deleteCookies(forSite: "s\(index % 10).test") }
                    }
                }
            }
        }
        let all = jar.allCookies()
        #expect(all.count == jar.count)
        var identities = Set<String>()
        for cookie in all { #expect(identities.insert("\(cookie.name) \(cookie.domain) \(cookie.path)").inserted) }

        // The serial replay: a receipt is the change that stored its cookie; a deletion is a run of
        // deleted cookies of one site (a deletion of an empty site changes nothing, nor does its replay).
        let (replayed, _) = makeTestJar()
        var deleting: String?
        for change in changes.withLock({ $0 }) {
            switch change {
            case .added(let cookie), .replaced(_, let cookie):
                deleting = nil
                replayed.setCookie("\(cookie.name)=\(cookie.value)", from: url("http://\(cookie.domain)/"))
            case .removed(let cookie, cause: let cause):
                #expect(cause == .deleted, "nothing expires or is evicted")
                if deleting != cookie.domain { replayed.deleteCookies(forSite: cookie.domain) }
                deleting = cookie.domain
            }
        }
        func contents(_ jar: CookieJar) -> [String] {
            jar.allCookies().map { "\($0.domain) \($0.name)=\($0.value) \($0.creation)" }
        }
        #expect(contents(replayed) == contents(jar))
        #expect(jar.count > 0, "the run left cookies to compare")
    }

    /// Lookups on eight tasks at once, most sharing the lock and some holding it alone (hosts not known
    /// yet, last-access times due as the clock moves a second at a time), make the headers a lookup alone
    /// makes (run under ThreadSanitizer too).
    @Test func concurrentLookupsMakeTheHeadersOfOneLookupAlone() async {
        let (jar, clock) = makeTestJar()
        let urls = (0..<20).map { url("http://h\($0).s\($0 % 5).test/") }
        for (index, page) in urls.enumerated() {
            jar.setCookie("c\(index)=\(index); Domain=s\(index % 5).test", from: page)
            jar.setCookie("own\(index)=1", from: page)
        }
        let (alone, _) = makeTestJar()
        for (index, page) in urls.enumerated() {
            alone.setCookie("c\(index)=\(index); Domain=s\(index % 5).test", from: page)
            alone.setCookie("own\(index)=1", from: page)
        }
        let expected = urls.map { alone.cookieHeader(for: $0) }
        for (index, page) in urls.enumerated() {
            #expect(jar.cookieHeader(for: page) == expected[index])
            #expect(jar.sharedLookupHeader(for: page) == .some(expected[index]), "from here on, lookups share the lock")
        }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<400 {
                        if task == 0, round % 40 == 0 { clock.advance(seconds: 1) }
                        let index = (round * 7 + task) % urls.count
                        #expect(jar.cookieHeader(for: urls[index]) == expected[index], "\(urls[index])")
                    }
                }
            }
        }
    }
}
