#if LibPSL && canImport(CLibPSL)
import Foundation
import Testing
@testable import Cookies

/// PublicSuffixRules against LibPSLList, both loaded from the system's copy of the real list (Debian package
/// "publicsuffix"), on hosts generated from the list (`PublicSuffixDifferentialHosts`). Facts: libpsl is the
/// reference; the two must agree on every name, and LibPSLList's remembered answers (a second pass, after its
/// memory was emptied more than once) on libpsl's.
struct PublicSuffixDifferentialTests {
    static let systemListPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: systemListPath),
                   "needs \(systemListPath) (Debian package publicsuffix)"))
    func rulesAgreeWithLibPSL() throws {
        let rules = try PublicSuffixRules(contentsOfFile: Self.systemListPath)
        let libpsl = try LibPSLList(contentsOfFile: Self.systemListPath)
        let hosts = try PublicSuffixDifferentialHosts.generated(fromListAt: Self.systemListPath)
        #expect(hosts.count > 30_000)
        var mismatches: [String] = []
        for host in hosts where rules.registrableDomain(of: host) != libpsl.registrableDomain(of: host) {
            mismatches.append("\(host): rules \(rules.registrableDomain(of: host) ?? "nil"), "
                + "libpsl \(libpsl.registrableDomain(of: host) ?? "nil")")
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(hosts.count) differ: \(mismatches.prefix(20))")
        let fresh = try LibPSLList(contentsOfFile: Self.systemListPath)
        let first = hosts.map(fresh.registrableDomain(of:))
        #expect(hosts.map(fresh.registrableDomain(of:)) == first)
        #expect(hosts.reversed().map(fresh.registrableDomain(of:)) == first.reversed())
    }
}
#endif
