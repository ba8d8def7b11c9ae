import Foundation
@testable import Cookies

/// Host names generated from a list file so that every rule kind is exercised: each rule's name, one and two labels
/// below it, "www." below it, and its parent (normal, wildcard, wildcard-parent and exception cases), plus names
/// under unlisted TLDs.
enum PublicSuffixDifferentialHosts {
    static func generated(fromListAt path: String) throws -> [String] {
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
}
