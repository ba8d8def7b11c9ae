import Cookies
import Testing

/// The code of the article "The request context" (Sources/Cookies/Cookies.docc/RequestContext.md),
/// compiled and run (DocumentationCodeTests checks that every block of the article is here, in order).
/// What each request carries follows rfc6265bis-22 §5.8.3 (SameSite) and CHIPS (partitions).
struct RequestContextExamples {
    @Test func sameSiteAndPartitions() {
        let jar = CookieJar()
        let api = CookieURL("https://api.example.com/")!
        let shop = CookieURL("https://shop.example.net/")!
        jar.receive(["strict=1; SameSite=Strict", "lax=1; SameSite=Lax", "none=1; SameSite=None; Secure", "plain=1"], from: api)

        let own = jar.cookieHeader(for: api)                    // "strict=1; lax=1; none=1; plain=1"
        let embedded = CookieRequestContext(siteForCookies: .origin(shop))
        let image = jar.cookieHeader(for: api, context: embedded)              // "none=1"
        let link = CookieRequestContext(siteForCookies: .origin(shop), isTopLevelNavigation: true)
        let followed = jar.cookieHeader(for: api, context: link)               // "lax=1; none=1; plain=1"
        let form = CookieRequestContext(siteForCookies: .origin(shop), isTopLevelNavigation: true, method: "POST")
        let posted = jar.cookieHeader(for: api, context: form)                 // "none=1"
        #expect(own == "strict=1; lax=1; none=1; plain=1")
        #expect(image == "none=1")
        #expect(followed == "lax=1; none=1; plain=1")
        #expect(posted == "none=1")

        let widgets = CookieURL("https://widgets.example.org/")!
        let underShop = CookieRequestContext(siteForCookies: .origin(shop), partition: shop)
        jar.receive("prefs=1; Secure; SameSite=None; Partitioned", from: widgets, context: underShop)
        let inShop = jar.cookieHeader(for: widgets, context: underShop)        // "prefs=1"
        let other = CookieURL("https://other.example/")!
        let underOther = CookieRequestContext(siteForCookies: .origin(other), partition: other)
        let elsewhere = jar.cookieHeader(for: widgets, context: underOther)    // nil: another partition
        #expect(inShop == "prefs=1")
        #expect(elsewhere == nil)

        jar.receive("token=1; HttpOnly", from: api)
        let script = CookieRequestContext(api: .nonHTTP)
        let visible = jar.cookies(for: api, context: script).map(\.name)       // no "token": HttpOnly
        #expect(!visible.contains("token") && visible.contains("plain"))
    }
}
