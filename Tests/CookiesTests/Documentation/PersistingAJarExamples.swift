import Cookies
import TestSupport
import Testing

/// The code of the article "Persisting a jar" (Sources/Cookies/Cookies.docc/PersistingAJar.md), compiled
/// and run (DocumentationCodeTests checks that every block of the article is here, in order).
struct PersistingAJarExamples {
    let directory = TemporaryDirectory()

    @Test func fileFlushCloseAndRelaunch() throws {
        let appSupport = directory.path
        let url = CookieURL("https://api.example.com/api/v1/login")!
        let setCookieFields = ["session=7f3c9a; Secure; HttpOnly", "remember_me=b41d; Max-Age=2592000; Secure"]

        let path = appSupport + "/cookies.sqlite"
        let jar = try CookieJar(contentsOf: path)               // creates the file (0600) if missing, else loads it
        jar.receive(setCookieFields, from: url)                 // written about a second later, with what else changed
        try jar.flush()                                         // now: when it returns, the changes survive a crash of the app
        try jar.close()                                         // when the app ends

        let relaunched = try CookieJar(contentsOf: path)
        let names = relaunched.allCookies().map(\.name)         // ["remember_me"]: session cookies end with the app
        #expect(names == ["remember_me"])
        try relaunched.close()

        var options = CookieJarFileOptions()
        options.persistsSessionCookies = true                   // an app that is suspended rather than ended
        options.durability = .powerLoss                         // one fsync per flush: survives a power loss too
        options.unreadableFile = .moveAside                     // a damaged file is renamed and the jar starts empty
                                                                // (another application's database is left as it is)
        let kept = try CookieJar(contentsOf: path, options: options)
        #expect(kept.count == 1)

        do {
            try kept.flush()
        } catch where error.code == .busy {
            // another process held the file beyond options.busyTimeout: the changes stay pending
        } catch {
            print(error)                                        // names the file; the jar keeps working in memory
        }
        try kept.close()
    }
}
