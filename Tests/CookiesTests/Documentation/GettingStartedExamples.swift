import Cookies
import Testing

/// The code of the article "Getting started" (Sources/Cookies/Cookies.docc/GettingStarted.md), compiled
/// and run: every block of the article is in this file, in order (DocumentationCodeTests checks it), with
/// checks of what its comments say. The machine's public suffix list and the wall clock, as an app has.
struct GettingStartedExamples {
    @Test func receiveSendAndOutcomes() {
        let jar = CookieJar()
        let login = CookieURL("https://api.example.com/api/v1/login")!
        jar.receive(
            [
                "session=7f3c9a; Path=/; Secure; HttpOnly; SameSite=Lax",
                "remember_me=b41d; Domain=example.com; Path=/; Max-Age=2592000; Secure",
            ], from: login)

        let me = CookieURL("https://api.example.com/api/v1/me")!
        let header = jar.cookieHeader(for: me)                  // "session=7f3c9a; remember_me=b41d"
        #expect(header == "session=7f3c9a; remember_me=b41d")
        let www = CookieURL("https://www.example.com/")!
        let wwwHeader = jar.cookieHeader(for: www)              // "remember_me=b41d": session is host-only
        #expect(wwwHeader == "remember_me=b41d")

        var field: [UInt8] = []                                 // kept from one request to the next
        field.removeAll(keepingCapacity: true)
        let sent = jar.appendCookieHeader(for: me, to: &field)  // true; field holds header's UTF-8
        #expect(sent)
        #expect(field == Array("session=7f3c9a; remember_me=b41d".utf8))

        func describe(_ outcome: SetCookieOutcome) -> String {
            switch outcome {
            case .stored(let cookie): "stored \(cookie.name)"
            case .replaced(let cookie, let previous): "\(cookie.name) replaced \(previous.value)"
            case .deleted(let previous): "removed \(previous.name)"
            case .expired: "already expired: nothing stored"
            case .rejected(let reason): "ignored: \(reason.explanation)"
            }
        }
        let first = describe(jar.setCookie("theme=dark; Path=/", from: login))            // "stored theme"
        let second = describe(jar.setCookie("theme=light; Path=/", from: login))          // "theme replaced dark"
        let third = describe(jar.setCookie("theme=; Path=/; Max-Age=0", from: login))     // "removed theme"
        let fourth = describe(jar.setCookie("a=b; Domain=com", from: login))              // "ignored: the Domain attribute is a public suffix"
        #expect(first == "stored theme")
        #expect(second == "theme replaced dark")
        #expect(third == "removed theme")
        #expect(fourth == "ignored: the Domain attribute is a public suffix")

        jar.deleteSessionCookies()                              // an app relaunch: session cookies end
        jar.signOut(from: me)                                   // everything example.com stored
        #expect(jar.count == 0)
    }
}
