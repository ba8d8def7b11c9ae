import Testing
@testable import Cookies

/// A `Cookie` header value and the pairs a server reads from it, as (name, value).
struct CookieHeaderCase: Sendable, CustomTestStringConvertible {
    let header: String
    let pairs: [CookiePair]
    init(_ header: String, _ pairs: [(String, String)]) {
        self.header = header
        self.pairs = pairs.map { CookiePair(name: $0.0, value: $0.1) }
    }
    var testDescription: String { header.debugDescription }
}

@Suite("CookieHeader")
struct CookieHeaderTests {
    // rfc6265bis-22 §4.2.1: cookie-string = cookie-pair *( ";" SP cookie-pair ), the form user
    // agents send (§5.8.3 step 4).
    static let wellFormed: [CookieHeaderCase] = [
        .init("a=b", [("a", "b")]),
        .init("a=b; c=d", [("a", "b"), ("c", "d")]),
        .init("SID=31d4d96e407aad42; lang=en-US", [("SID", "31d4d96e407aad42"), ("lang", "en-US")]), // §3.1
        .init("a=", [("a", "")]),                                      // empty cookie-value
        .init("a=\"b\"", [("a", "\"b\"")]),                            // DQUOTEs are part of the value
        .init("a=\"\"", [("a", "\"\"")]),
        .init("a=b; a=c", [("a", "b"), ("a", "c")]),                   // duplicates kept, in order
    ]

    @Test("§4.2.1 cookie-string", arguments: wellFormed)
    func parsesCookieString(_ entry: CookieHeaderCase) {
        #expect(CookieHeader.parse(entry.header) == entry.pairs)
    }

    // Lenient reading, as servers do: ";" alone separates, SP/HTAB around pairs, names and
    // values is dropped (§5.6 trims name and value the same way), empty pieces are skipped,
    // the first "=" splits, a piece without "=" is a nameless cookie (§5.6), and a piece
    // with neither name nor value is ignored (§5.6).
    static let lenient: [CookieHeaderCase] = [
        .init("", []),
        .init(";", []),
        .init(" ; ;\t; ", []),
        .init("a=b;c=d", [("a", "b"), ("c", "d")]),                    // no SP
        .init("  a=b  ;   c=d  ", [("a", "b"), ("c", "d")]),           // extra SP
        .init("\ta=b;\tc=d\t", [("a", "b"), ("c", "d")]),              // HTAB
        .init("a = b", [("a", "b")]),                                  // BWS around "="
        .init("a=b;; c=d;", [("a", "b"), ("c", "d")]),                 // empty pieces
        .init("a=b=c", [("a", "b=c")]),                                // first "=" splits
        .init("a==", [("a", "=")]),
        .init("token=abc==; x=1", [("token", "abc=="), ("x", "1")]),   // base64 padding
        .init("nameless", [("", "nameless")]),                         // §5.6: no "=" → nameless
        .init("a=b; nameless; c=d", [("a", "b"), ("", "nameless"), ("c", "d")]),
        .init("=b", [("", "b")]),                                      // empty name
        .init("=", []),                                                // §5.6: both empty → ignored
        .init(" = ; a=b", [("a", "b")]),
        .init("a=b, c=d", [("a", "b, c=d")]),                          // "," does not separate
        .init("a=b c", [("a", "b c")]),                                // inner SP kept
        .init("a=\"b; c\"", [("a", "\"b"), ("", "c\"")]),               // DQUOTEs do not protect ";"
        .init("caf\u{E9}=cr\u{E8}me", [("caf\u{E9}", "cr\u{E8}me")]),  // UTF-8 passes through
    ]

    @Test("Lenient parsing (§4.2.1, §5.6)", arguments: lenient)
    func parsesLeniently(_ entry: CookieHeaderCase) {
        #expect(CookieHeader.parse(entry.header) == entry.pairs)
    }

    /// Never crashes, whatever the bytes: every single octet, and ill-formed UTF-8, which
    /// String decoding turns into U+FFFD before the parser sees it.
    @Test("Any octet", arguments: 0...255)
    func anyOctet(_ value: Int) {
        let bytes = Array("a=".utf8) + [UInt8(value)] + Array("; \u{FF}=\u{80}".utf8) + [0xC3]
        let pairs = CookieHeader.parse(String(decoding: bytes, as: UTF8.self))
        #expect(!pairs.isEmpty)
        for pair in pairs {
            #expect(!pair.name.contains(";") && !pair.value.contains(";"))
            #expect(pair.name.first != " " && pair.value.last != " ")
        }
    }

    @Test("Ill-formed UTF-8 becomes U+FFFD")
    func illFormedUTF8() {
        let header = String(decoding: [0x61, 0x3D, 0xFF, 0x3B, 0x20, 0xC3, 0x3D, 0x62] as [UInt8], as: UTF8.self)
        #expect(CookieHeader.parse(header) == [
            CookiePair(name: "a", value: "\u{FFFD}"),
            CookiePair(name: "\u{FFFD}", value: "b"),
        ])
    }

    // §5.8.3 step 4: "name=value", or the value alone for an empty name, joined by "; ".
    static let serialized: [CookieHeaderCase] = [
        .init("", []),
        .init("a=b", [("a", "b")]),
        .init("a=b; c=d", [("a", "b"), ("c", "d")]),
        .init("a=", [("a", "")]),
        .init("nameless", [("", "nameless")]),
        .init("a=b; nameless; c=\"d\"", [("a", "b"), ("", "nameless"), ("c", "\"d\"")]),
        .init("a=b; a=c", [("a", "b"), ("a", "c")]),
        .init("", [("", "")]),
    ]

    @Test("§5.8.3 step 4 serialisation", arguments: serialized)
    func serializes(_ entry: CookieHeaderCase) {
        #expect(CookieHeader.serialize(entry.pairs) == entry.header)
    }

    /// parse(serialize(pairs)) == pairs for pairs a user agent can hold and send unchanged:
    /// trimmed, no ";" anywhere, no "=" in a nameless value, not both empty.
    @Test("serialize → parse round trip", arguments: [
        [CookiePair(name: "a", value: "b")],
        [CookiePair(name: "SID", value: "31d4d96e407aad42"), CookiePair(name: "lang", value: "en-US")],
        [CookiePair(name: "a", value: ""), CookiePair(name: "", value: "b"), CookiePair(name: "a", value: "c=d")],
        [CookiePair(name: "q", value: "\"quoted value\""), CookiePair(name: "q", value: "x==")],
    ])
    func roundTrip(_ pairs: [CookiePair]) {
        #expect(CookieHeader.parse(CookieHeader.serialize(pairs)) == pairs)
    }
}
