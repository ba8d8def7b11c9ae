import Testing
@testable import Cookies

/// One canonical-domain check (§5.1.2) for request hosts and imported cookie domains, "_" included: the
/// common-case test (`CanonicalHost.isCanonicalDomainName`) must give what the full canonicalisation
/// gives, and an import must take what a URL takes, but for names with an empty label.
struct CanonicalDomainTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var text: String
        /// The canonical host, nil when there is none.
        var host: String?
        /// What an import keeps, nil when it refuses the domain.
        var imported: String?
        var source: String
        var testDescription: String { "\(text.debugDescription): \(source)" }
    }

    static let rows: [Row] = [
        Row(text: "_dmarc.example.com", host: "_dmarc.example.com", imported: "_dmarc.example.com",
            source: "§5.1.2: not an NR-LDH label, ToASCII (UseSTD3ASCIIRules off, WHATWG URL) keeps \"_\""),
        Row(text: "a_b.example", host: "a_b.example", imported: "a_b.example", source: "\"_\" inside a label"),
        Row(text: "A_B.Example", host: "a_b.example", imported: "a_b.example", source: "§5.1.2: lower-cased, \"_\" kept"),
        Row(text: "_", host: "_", imported: "_", source: "a label of \"_\" alone"),
        Row(text: "bücher_x.example", host: "xn--bcher_x-n2a.example", imported: "xn--bcher_x-n2a.example",
            source: "§5.1.2: an A-label keeps \"_\" among its basic code points (RFC 3492 §6.3)"),
        Row(text: "a_b..example", host: "a_b..example", imported: nil, source: "an empty label: a URL's host may have one, no cookie domain does"),
        Row(text: "_.example.", host: "_.example.", imported: "_.example.", source: "a trailing dot kept"),
        Row(text: "a_b/c.example", host: nil, imported: nil, source: "WHATWG URL forbidden host code point \"/\""),
        Row(text: "a_b%c.example", host: nil, imported: nil, source: "WHATWG URL forbidden host code point \"%\""),
        Row(text: "a_b.example.1", host: nil, imported: nil, source: "WHATWG URL \"ends in a number\": no valid IPv4 address"),
        Row(text: "a_b example", host: nil, imported: nil, source: "WHATWG URL forbidden host code point: space"),
        // XN-labels that are no A-labels (RFC 5890 §2.3.2.1 "Fake A-label"), which a browser refuses (UTS #46
        // §4 step 4: Punycode that does not decode, or decodes to nothing or to ASCII alone, is an error):
        // ASCII labels, kept as written, names of their own as in the DNS, never the name they would decode to.
        Row(text: "xn--a.example", host: "xn--a.example", imported: "xn--a.example", source: "RFC 5890 §2.3.2.1: \"a\" decodes to U+0080, no A-label; kept"),
        Row(text: "xn--.example", host: "xn--.example", imported: "xn--.example", source: "RFC 5890 §2.3.2.1: no Punycode after the prefix; kept"),
        Row(text: "xn--ls8h-.example", host: "xn--ls8h-.example", imported: "xn--ls8h-.example",
            source: "UTS #46 §4 step 4: Punycode of the ASCII \"ls8h\"; kept, not \"ls8h.example\""),
        Row(text: "XN--Example-.com", host: "xn--example-.com", imported: "xn--example-.com",
            source: "§5.1.2: lower-cased; Punycode of \"example\", kept: not a second spelling of example.com (CVE-2026-39821)"),
    ]

    @Test(arguments: rows)
    func canonicalDomain(_ row: Row) {
        #expect(CanonicalHost(row.text)?.name == row.host)
        #expect(CanonicalHost(canonicalising: row.text)?.name == row.host, "the full canonicalisation agrees")
        if row.text.withUTF8Bytes(CanonicalHost.isCanonicalDomainName) { #expect(row.host == row.text) }
        #expect((try? ImportChecks.canonicalDomain(row.text)) == row.imported)
        if let host = row.host, !row.text.contains(" ") {
            #expect(CookieURL("https://" + row.text + "/")?.host.name == host, "a URL's host")
        }
    }
}
