import Testing

@_spi(Fuzzing) @testable import Cookies

/// A site's name-value pairs: each as the Cookie header carries it (rfc6265bis-22 §5.8.3 step 4), written
/// over in place when a replacement fits, at the end when it does not, the garbage dropped once it
/// outweighs the live pairs.
struct CookiePairsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var value: String
        /// What the header carries for the cookie.
        var pair: String
        var source: String
        var testDescription: String { source }
    }

    static let rows: [Row] = [
        Row(name: "sid", value: "31d4d96e407aad42", pair: "sid=31d4d96e407aad42", source: "§5.8.3 step 4: name=value"),
        Row(name: "", value: "token", pair: "token", source: "§5.8.3 step 4: a nameless cookie sends its value alone"),
        Row(name: "", value: "a=b", pair: "a=b", source: "§5.6: a value after a leading = keeps its own ="),
        Row(name: "empty", value: "", pair: "empty=", source: "§5.6: an empty value"),
        Row(name: "nick", value: "na\u{EF}ve", pair: "nick=na\u{EF}ve", source: "UTF-8 is kept byte for byte"),
    ]

    static func entry(_ pairs: inout CookiePairs, _ name: String, _ value: String) -> StoredCookie {
        var entry = StoredCookie(
            isHostOnly: true, expiry: nil, creation: testEpoch, lastAccess: testEpoch, isSecure: false, isHTTPOnly: false,
            sameSite: .default, isSourceSecure: true, sourcePort: nil, domain: 0, path: 0, partition: StoredCookie.unpartitioned)
        name.withUTF8Bytes { name in value.withUTF8Bytes { value in pairs.append(name: name, value: value, isKnownASCII: false, to: &entry) } }
        return entry
    }

    static func pair(_ pairs: CookiePairs, _ entry: StoredCookie) -> String {
        pairs.withBytes { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.pairStart)..<Int(entry.pairStart) + Int(entry.pairLength)]), as: UTF8.self)
        }
    }

    @Test(arguments: rows)
    func aPairIsWhatTheHeaderCarries(_ row: Row) {
        var pairs = CookiePairs()
        let entry = Self.entry(&pairs, row.name, row.value)
        #expect(Self.pair(pairs, entry) == row.pair)
        #expect(pairs.withBytes { CookiePairs.nameAndValue(of: entry, in: $0) } == (row.name, row.value))
        row.name.withUTF8Bytes { name in pairs.withBytes { #expect(CookiePairs.name(of: entry, in: $0, is: name)) } }
    }

    /// The ASCII check reads words, the last one overlapping: a non-ASCII byte anywhere is found.
    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 31])
    func asciiCheckFindsANonASCIIByteAnywhere(count: Int) {
        let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: count)
        #expect(ascii.withUnsafeBufferPointer(\.isASCII))
        for position in 0..<count {
            var bytes = ascii
            bytes[position] = 0xC3
            #expect(!bytes.withUnsafeBufferPointer(\.isASCII), "0xC3 at \(position) of \(count)")
        }
    }

    @Test func aReplacementThatFitsIsWrittenInPlaceAndALongerOneAtTheEnd() {
        var pairs = CookiePairs()
        let first = Self.entry(&pairs, "a", "12345")
        let second = Self.entry(&pairs, "b", "x")
        var shorter = first
        "a".withUTF8Bytes { name in "123".withUTF8Bytes { value in pairs.replace(first, with: &shorter, name: name, value: value, isKnownASCII: false) } }
        #expect(shorter.pairStart == first.pairStart && Self.pair(pairs, shorter) == "a=123")
        #expect(pairs.garbage == 2 && Self.pair(pairs, second) == "b=x")
        var longer = shorter
        "a".withUTF8Bytes { name in "1234567".withUTF8Bytes { value in pairs.replace(shorter, with: &longer, name: name, value: value, isKnownASCII: false) } }
        #expect(longer.pairStart > second.pairStart && Self.pair(pairs, longer) == "a=1234567")
        #expect(pairs.garbage == 7, "the whole first place is garbage now")
        #expect(pairs.bytes.count == 7 + 3 + 9)
    }

    @Test func compactionKeepsTheLivePairsInEntryOrder() {
        var pairs = CookiePairs()
        var entries = (0..<100).map { Self.entry(&pairs, "n\($0)", String(repeating: "v", count: 20)) }
        for entry in entries.indices where entry % 3 != 0 { pairs.release(entries[entry]) }
        entries = entries.indices.filter { $0 % 3 == 0 }.map { entries[$0] }.reversed()
        #expect(pairs.needsCompaction)
        entries.withUnsafeMutableBufferPointer { pairs.compact($0) }
        #expect(pairs.garbage == 0 && !pairs.needsCompaction)
        #expect(entries.map { Self.pair(pairs, $0) } == stride(from: 99, through: 0, by: -3).map { "n\($0)=" + String(repeating: "v", count: 20) })
        #expect(entries.first?.pairStart == 0, "rewritten in the order of the entries")
    }

    /// A site whose cookies are replaced by ever longer values and removed keeps its bookkeeping, and its
    /// header stays the pairs of the cookies it holds.
    @Test func aSiteUnderChurnKeepsItsPairsConsistent() {
        let (jar, _) = makeTestJar()
        let site = url("https://churn.test/")
        for round in 0..<200 {
            for name in ["a", "b", "c", "d"] {
                jar.receive("\(name)=" + String(repeating: "x", count: (round * 7 + name.utf8.count) % 90), from: site)
            }
            if round % 5 == 0 { jar.receive("b=; Max-Age=0", from: site) }
            #expect(jar.storeStructureViolation() == nil)
        }
        let expected = jar.cookies(for: site).map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        #expect(jar.cookieHeader(for: site) == expected)
    }
}
