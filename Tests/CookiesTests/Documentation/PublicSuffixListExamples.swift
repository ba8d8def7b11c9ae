import Cookies
import Foundation
import Testing

/// The code of the article "The public suffix list" (Sources/Cookies/Cookies.docc/ChoosingAPublicSuffixList.md),
/// compiled and run (DocumentationCodeTests checks that every block of the article is here, in order),
/// with the test list Fixtures/public_suffix_list.dat for a downloaded one.
struct PublicSuffixListExamples {
    @Test func defaultAndDownloadedLists() throws {
        let downloaded = try #require(Bundle.module.path(forResource: "public_suffix_list", ofType: "dat", inDirectory: "Fixtures"))

        let jar = CookieJar()                                   // the default list
        let rules = try PublicSuffixRules(contentsOfFile: downloaded)
        let pinned = CookieJar(publicSuffixList: rules)         // exactly this list, on every platform
        let site = rules.registrableDomain(of: "WWW.Example.co.uk")   // "example.co.uk"
        let suffix = rules.isPublicSuffix("co.uk")                    // true: no cookie may name it
        #expect(site == "example.co.uk" && suffix)
        #expect(jar.setCookie("a=1; Domain=co.uk", from: CookieURL("https://www.example.co.uk/")!).rejection != nil)
        #expect(pinned.setCookie("a=1; Domain=co.uk", from: CookieURL("https://www.example.co.uk/")!).rejection != nil)
    }
}
