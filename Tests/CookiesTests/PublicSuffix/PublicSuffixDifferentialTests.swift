#if canImport(CLibPSL)
import Foundation
import Testing
@testable import Cookies

/// PublicSuffixRules against LibPSLList, both loaded from the system's copy of the real list (Debian package
/// "publicsuffix"). Host names are generated from the list itself so that every rule kind is exercised: each rule's
/// name, one and two labels below it, and its parent (covering normal, wildcard, wildcard-parent and exception
/// cases), plus names under unlisted TLDs. Facts: libpsl is the reference; the two must agree on every name, and
/// LibPSLList's remembered answers (a second pass, after its memory was emptied more than once) on libpsl's.
struct PublicSuffixDifferentialTests {
    static let systemListPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    static func generatedHosts(fromListAt path: String) throws -> [String] {
        var hosts: Set<String> = ["example", "a.example", "b.a.example", "localhost", "a.b.c.d.e.f"]
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(whereSeparator: \.isNewline) {
            guard let token = line.split(whereSeparator: \.isWhitespace).first, !token.hasPrefix("//") else { continue }
            let name = token.drop(while: { $0 == "!" || $0 == "*" || $0 == "." })
            guard let ascii = IDNA.toASCII(String(name)), !ascii.isEmpty else { continue }
            hosts.insert(ascii)
            hosts.insert("x." + ascii)
            hosts.insert("y.x." + ascii)
            hosts.insert("www." + ascii)
            if let dot = ascii.firstIndex(of: ".") {
                hosts.insert(String(ascii[ascii.index(after: dot)...]))
            }
        }
        return hosts.sorted()
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: systemListPath),
                   "needs \(systemListPath) (Debian package publicsuffix)"))
    func rulesAgreeWithLibPSL() throws {
        let rules = try PublicSuffixRules(contentsOfFile: Self.systemListPath)
        let libpsl = try LibPSLList(contentsOfFile: Self.systemListPath)
        let hosts = try Self.generatedHosts(fromListAt: Self.systemListPath)
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
