import Testing
@testable import Cookies

/// One jar shared by many tasks: every operation is atomic (run under TSan too, see the README).
struct ConcurrencyTests {
    @Test func manyTasksShareOneJar() async {
        let (jar, _) = makeTestJar()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        let site = url("http://s\(index % 10).test/")
                        jar.setCookie("w\(worker)=\(index)", from: site)
                        _ = jar.cookieHeader(for: site)
                        if index % 50 == 0 { jar.deleteCookies(forSite: "s\(index % 10).test") }
                    }
                }
            }
        }
        let all = jar.allCookies()
        #expect(all.count == jar.count)
        var identities = Set<String>()
        for cookie in all { #expect(identities.insert("\(cookie.name) \(cookie.domain) \(cookie.path)").inserted) }
    }
}
