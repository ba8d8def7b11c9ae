#if canImport(CLibPSL)
import Testing
@testable import Cookies

/// The machine's list on Linux (libpsl; elsewhere it depends on whether a list file is installed). Facts: the real list's well-known rules (publicsuffix.org/list: "com", "co.uk", "github.io"
/// in the PRIVATE section), which have been in it for many years, so any installed copy knows them; on Linux
/// `LibPSLList.latest()` must never come back without data.
private let systemVectors: [(domain: String, expected: String?)] = [
    ("com", nil),
    ("www.example.com", "example.com"),
    ("co.uk", nil),
    ("www.example.co.uk", "example.co.uk"),
    ("github.io", nil),
    ("user.github.io", "user.github.io"),
]

@Test(arguments: systemVectors)
func systemPublicSuffixList(domain: String, expected: String?) {
    #expect(SystemPublicSuffixList.shared.registrableDomain(of: domain) == expected)
    #expect(LibPSLList.latest().registrableDomain(of: domain) == expected)
}
#endif
