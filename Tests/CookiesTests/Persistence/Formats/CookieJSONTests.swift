import Foundation
import Testing
@testable import Cookies

/// The swift-cookiejar JSON format. Facts: the schema documented on `CookieJSON` and in README.md
/// "File formats"; JSON syntax from RFC 8259; times from RFC 3339 §5.6. Foundation's JSONSerialization
/// and ISO8601DateFormatter serve as independent oracles.
struct CookieJSONTests {
    @Test func roundTripIsLossless() throws {
        let text = CookieJSON.serialize(CookieFileSamples.cookies)
        let read = try CookieJSON.parse(Array(text.utf8))
        #expect(read.format == .json)
        #expect(read.cookies == Cookie.inExportOrder(CookieFileSamples.cookies))
        #expect(CookieJSON.serialize(read.cookies) == text)
    }

    /// A cookie whose path is the default-path of a request path holding ";" (§5.1.4: "/a;b" from
    /// https://h.test/a;b/c) is written, read back and taken by a jar again.
    @Test func aDefaultPathWithASemicolonRoundTrips() throws {
        let (jar, _) = makeTestJar()
        jar.setCookie("a=1; Max-Age=60", from: url("https://h.test/a;b/c"))
        let saved = jar.allCookies()
        #expect(saved.map(\.path) == ["/a;b"])
        let read = try CookieJSON.parse(Array(CookieJSON.serialize(saved).utf8))
        #expect(read.cookies == saved)
        let (relaunched, _) = makeTestJar()
        #expect(read.cookies.map { relaunched.insert($0) } == saved.map { .stored($0) })
    }

    @Test func outputIsJSONFoundationReads() throws {
        let text = CookieJSON.serialize(CookieFileSamples.cookies)
        let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "swift-cookiejar")
        #expect(object["version"] as? Int == 1)
        let cookies = try #require(object["cookies"] as? [[String: Any]])
        let ordered = Cookie.inExportOrder(CookieFileSamples.cookies)
        #expect(cookies.map { $0["value"] as? String } == ordered.map(\.value))
        #expect(cookies.map { $0["domain"] as? String } == ordered.map(\.domain))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for (json, cookie) in zip(cookies, ordered) {
            let text = try #require(json["creation"] as? String)
            let creation = try #require(formatter.date(from: text))
            // Foundation keeps milliseconds.
            #expect(abs(Int64((creation.timeIntervalSince1970 * 1000).rounded()) - cookie.creation.microsecondsSinceEpoch / 1000) <= 1)
            #expect((json["expires"] == nil) == (cookie.expiry == nil))
        }
    }

    /// The characters a terminal would obey are written as `\uXXXX` escapes, in every string member, so
    /// that the document can be printed as it is (README.md: a cookie's control characters are "shown as
    /// escapes, never sent to the terminal"): the C1 controls (U+009B is a CSI to some terminals;
    /// §5.6 step 1 refuses only %x00-08 / %x0A-1F / %x7F, so a server can set it) and the bidirectional
    /// formatting characters of Unicode Standard Annex #9 (U+202E reverses the rest of a line). Other
    /// characters of the same UTF-8 lead bytes (U+00A0, U+00E9, U+0620, U+2026, U+2069's neighbour
    /// U+206A) are written as they are. Read back (RFC 8259 §7: any character may be escaped), the
    /// cookie is the same.
    @Test(arguments: [
        ("x\u{9B}31mRED", #""x\u009b31mRED""#), ("a\u{202E}b", #""a\u202eb""#), ("\u{80}\u{9F}", #""\u0080\u009f""#),
        ("\u{61C}\u{200E}\u{200F}", #""\u061c\u200e\u200f""#), ("\u{202A}\u{202D}\u{2066}\u{2069}", #""\u202a\u202d\u2066\u2069""#),
        ("\u{A0}\u{E9}\u{620}\u{2026}\u{206A}", "\"\u{A0}\u{E9}\u{620}\u{2026}\u{206A}\""),
    ])
    func charactersATerminalWouldObeyAreEscaped(_ text: String, _ written: String) throws {
        let cookie = Cookie(
            name: "n" + text, value: text, domain: "example.com", path: "/" + text, expiry: testEpoch.adding(seconds: 60),
            creation: testEpoch)
        let json = CookieJSON.serialize([cookie])
        for member in ["\"name\": \"n" + written.dropFirst(), "\"value\": " + written, "\"path\": \"/" + written.dropFirst()] {
            #expect(json.contains(member), "\(member) in \(json)")
        }
        let bidi: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        #expect(!json.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || bidi.contains($0.value) })
        #expect(try CookieJSON.parse(Array(json.utf8)).cookies == [cookie])
    }

    @Test func emptyJarRoundTrips() throws {
        let text = CookieJSON.serialize([])
        #expect(try CookieJSON.parse(Array(text.utf8)).cookies.isEmpty)
    }

    /// A document written by hand: members in another order, optional members absent, unknown members at
    /// every level (ignored, also those one letter off a known name), escapes (in member names and times
    /// too), fewer fraction digits, a byte order mark.
    @Test func readsHandWrittenDocument() throws {
        let text = """
            \u{FEFF}{"cookies": [
              {"p\\u0061th": "/", "name": "a\\u00e9\\ud83d\\ude00", "value": "x\\/y", "domain": "Example.COM",
               "hostOnly": false, "creation": "2025-01-01T00:00:00Z", "future": {"nested": [1, 2.5e3, null]},
               "sameSitX": 7, "httpOnlY": "no", "secures": [], "expires": "2025-06-30T12:34:56.5\\u007a"}
            ], "comment": "from a later version", "version": 1, "format": "swift-cookiejar"}
            """
        let cookie = try #require(CookieJSON.parse(Array(text.utf8)).cookies.first)
        #expect(cookie == Cookie(
            name: "a\u{e9}\u{1F600}", value: "x/y", domain: "example.com", isHostOnly: false, path: "/",
            expiry: CookieTime(microsecondsSinceEpoch: 1_751_286_896_500_000), creation: testEpoch))
    }

    /// Malformed documents: code, line and byte offset of the error (the offending byte; for a bad escape,
    /// its backslash; for a cookie that is not an object, the element).
    static let malformed: [(text: String, code: CookieFileError.Code, line: Int, offset: Int)] = [
        ("", .notCookieJSON, 1, 0),
        ("[]", .notCookieJSON, 1, 0),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": []", .jsonSyntax, 1, 57),
        ("{\"format\": \"swift-cookiejar\",\n\"version\": 1,\n\"cookies\": [],}", .jsonSyntax, 3, 58),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": []} x", .jsonSyntax, 1, 59),
        ("{\"format\": \"other\", \"version\": 1, \"cookies\": []}", .notCookieJSON, 1, 0),
        ("{\"version\": 1, \"cookies\": []}", .notCookieJSON, 1, 0),
        ("{\"format\": \"swift-cookiejar\", \"cookies\": []}", .missingMember, 1, 0),
        ("{\"format\": \"swift-cookiejar\", \"version\": 2, \"cookies\": [{\"new\": 1}]}", .unsupportedVersion, 1, 0),
        ("{\"format\": \"swift-cookiejar\", \"version\": \"1\", \"cookies\": []}", .unsupportedVersion, 1, 41),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1}", .missingMember, 1, 0),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": {}}", .invalidMember, 1, 55),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": [{\"x\": \"a\\x\"}]}", .jsonSyntax, 1, 64),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": [{\"x\": \"\\ud800\"}]}", .jsonSyntax, 1, 63),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": [{\"x\": 01}]}", .jsonSyntax, 1, 63),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": [{\"x\": tru}]}", .jsonSyntax, 1, 62),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": [\"a\"]}", .invalidMember, 1, 56),
        ("{\"format\": \"swift-cookiejar\", \"version\": 1, \"x\": " + String(repeating: "[", count: 100), .jsonSyntax, 1, 113),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedDocument(text: String, code: CookieFileError.Code, line: Int, offset: Int) {
        let error = #expect(throws: CookieFileError.self) { try CookieJSON.parse(Array(text.utf8)) }
        #expect(error?.code == code)
        #expect(error?.line == line)
        #expect(error?.offset == offset)
    }

    static let good = "\"name\": \"a\", \"value\": \"b\", \"domain\": \"example.com\", \"hostOnly\": true, \"path\": \"/\", \"creation\": \"2025-01-01T00:00:00.000000Z\""

    /// Bad cookie objects (each after a good one, on line 3): the code names what is wrong.
    static let badCookies: [(members: String, code: CookieFileError.Code)] = [
        ("\"value\": \"b\", \"domain\": \"example.com\", \"hostOnly\": true, \"path\": \"/\", \"creation\": \"2025-01-01T00:00:00Z\"", .missingMember),
        (good.replacingOccurrences(of: "\"hostOnly\": true", with: "\"hostOnly\": 1"), .invalidMember),
        (good + ", \"sameSite\": \"lax\"", .invalidMember),
        (good + ", \"sameSite\": \"Nonf\"", .invalidMember),
        (good + ", \"sameSite\": \"\"", .invalidMember),
        (good + ", \"sameSite\": 1", .invalidMember),
        (good + ", \"sourcePort\": 70000", .invalidMember),
        (good + ", \"sourcePort\": 1.5", .invalidMember),
        (good + ", \"expires\": 1767225600", .invalidMember),
        (good + ", \"expires\": \"2025-02-30T00:00:00Z\"", .invalidTime),
        (good + ", \"expires\": \"2025-01-01T00:00:00+01:00\"", .invalidTime),
        (good + ", \"expires\": \"2025-01-01T00:00:00.1234567Z\"", .invalidTime),
        (good.replacingOccurrences(of: "example.com", with: "exa mple.com"), .invalidDomain),
        (good.replacingOccurrences(of: "\"path\": \"/\"", with: "\"path\": \"x\""), .invalidPath),
        (good.replacingOccurrences(of: "\"value\": \"b\"", with: "\"value\": \"b\\u0000\""), .invalidCookie),
        ("", .missingMember),
    ]

    private static func document(_ objects: [String]) -> String {
        "{\"format\": \"swift-cookiejar\", \"version\": 1, \"cookies\": [\n"
            + objects.map { "{\($0)}" }.joined(separator: ",\n") + "\n]}"
    }

    @Test(arguments: badCookies)
    func rejectsBadCookie(members: String, code: CookieFileError.Code) {
        let text = Self.document([Self.good, members])
        let error = #expect(throws: CookieFileError.self) { try CookieJSON.parse(Array(text.utf8)) }
        #expect(error?.code == code)
        #expect(error?.line == 3)
    }

    /// Every same-site flag by its name, as the schema on `CookieJSON` lists them.
    @Test(arguments: SameSite.allCases)
    func readsSameSite(flag: SameSite) throws {
        let text = Self.document([Self.good + ", \"sameSite\": \"\(flag.rawValue)\""])
        #expect(try CookieJSON.parse(Array(text.utf8)).cookies.map(\.sameSite) == [flag])
    }

    /// Member names one byte off a known one (each byte of each name in the other case: RFC 8259 §8.3
    /// compares names by their code units), one byte short or long, are unknown members and ignored; an
    /// array is a valid value of no known member, so a name taken for a known one fails the cookie.
    static let nearMissNames: [String] = {
        let known = [
            "name", "value", "domain", "hostOnly", "path", "expires", "creation", "lastAccess", "secure", "httpOnly",
            "sameSite", "partitionKey", "sourceSecure", "sourcePort",
        ]
        return known.flatMap { name in
            let bytes = Array(name.utf8)
            let flipped = bytes.indices.map { index in
                var changed = bytes
                changed[index] ^= 0x20
                return String(decoding: changed, as: UTF8.self)
            }
            return flipped + [String(name.dropLast()), name + "s"]
        }
    }()

    @Test(arguments: nearMissNames)
    func ignoresMemberOneByteOff(name: String) throws {
        let text = Self.document([Self.good + ", \"\(name)\": []"])
        let cookies = try CookieJSON.parse(Array(text.utf8)).cookies
        let expected = try CookieJSON.parse(Array(Self.document([Self.good]).utf8)).cookies
        #expect(cookies == expected)
    }

    /// Strings with an escape, a non-ASCII character or an escaped quote at every position of the first
    /// two eight-byte words (the reader skips plain ASCII a word at a time): RFC 8259 §7.
    static let specialStrings: [(json: String, value: String)] = (0..<17).flatMap { offset in
        let plain = String(repeating: "v", count: offset)
        return [
            (plain + "\\u00e9w", plain + "\u{e9}w"), (plain + "\u{e9}w", plain + "\u{e9}w"), (plain + "\\\"w", plain + "\"w"),
            (plain + "\\\\w", plain + "\\w"),
        ]
    }

    @Test(arguments: specialStrings)
    func readsStringWithSpecialByteAnywhere(json: String, value: String) throws {
        let members = Self.good.replacingOccurrences(of: "\"value\": \"b\"", with: "\"value\": \"\(json)\"")
        let cookie = try #require(CookieJSON.parse(Array(Self.document([members]).utf8)).cookies.first)
        #expect(cookie.value == value)
    }

    /// The document written in chunks (of a byte or a hundred: each cookie then needs a larger buffer; of
    /// a thousand: a few cookies each; of a megabyte: one chunk) is the document written whole.
    @Test(arguments: [(1, false), (100, false), (1000, false), (1 << 20, true)])
    func chunksMakeTheWholeDocument(chunkSize: Int, inOneChunk: Bool) {
        var chunks: [[UInt8]] = []
        CookieJSON.serialize(CookieFileSamples.cookies, chunkSize: chunkSize) { chunks.append(Array($0)) }
        #expect(chunks.joined().elementsEqual(CookieJSON.serializedBytes(CookieFileSamples.cookies)))
        #expect(inOneChunk ? chunks.count == 1 : chunks.count > 1)
        #expect(!chunks.contains { $0.isEmpty })
    }

    @Test func lenientSkipsBadCookies() throws {
        let text = Self.document([Self.good] + Self.badCookies.map(\.members) + [Self.good])
        let contents = try CookieJSON.parse(Array(text.utf8), lenient: true)
        #expect(contents.cookies.count == 2)
        #expect(contents.skipped.map(\.code) == Self.badCookies.map(\.code))
        #expect(contents.skipped.map(\.line) == Array(3..<(3 + Self.badCookies.count)))
    }

    /// A document of 40,000 bad cookies (3 MB) is read leniently in time linear in its size: each error's
    /// line is counted on from the previous error's, not from the start (which took 16 s for this one).
    @Test(.timeLimit(.minutes(1))) func lenientReadOfManyBadCookiesIsLinear() throws {
        let bad = Self.badCookies[0].members
        let text = Self.document(Array(repeating: bad, count: 40_000))
        let contents = try CookieJSON.parse(Array(text.utf8), lenient: true)
        #expect(contents.skipped.count == 40_000 && contents.skipped.last?.line == 40_001)
    }

    @Test func lenientStillRefusesBrokenSyntax() {
        let text = Self.document([Self.good]) + "]"
        #expect(throws: CookieFileError.self) { try CookieJSON.parse(Array(text.utf8), lenient: true) }
    }

    /// RFC 3339 instants across the calendar, written and read back; Foundation formats the expected text
    /// (for years after 1582 only: before that it switches to the Julian calendar, RFC 3339 does not).
    @Test(arguments: [Int64(-1), 0, 951_782_400_123_456, 1_735_689_600_000_001, 253_402_300_799_999_999])
    func timesRoundTrip(micros: Int64) throws {
        let out = CookieFileWriter.bytes(capacity: CookieTime.iso8601Length) {
            CookieTime(microsecondsSinceEpoch: micros).appendISO8601(to: &$0)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let expectedPrefix = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))).dropLast()
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.hasPrefix(expectedPrefix))
        #expect(text.count == 27)
        let back = out.withUnsafeBufferPointer { CookieTime(iso8601: $0) }
        #expect(back?.microsecondsSinceEpoch == micros)
    }

    @Test func timesOutsideFourDigitYearsAreClamped() {
        for (time, expected) in [(CookieTime(microsecondsSinceEpoch: .max), "9999-12-31T23:59:59.999999Z"),
                                 (CookieTime.distantPast, "0001-01-01T00:00:00.000000Z"),
                                 // Proleptic Gregorian 0001-01-01 is 719,162 days before the Unix epoch.
                                 (CookieTime(microsecondsSinceEpoch: -719_162 * 86_400_000_000), "0001-01-01T00:00:00.000000Z"),
                                 (CookieTime(microsecondsSinceEpoch: -719_162 * 86_400_000_000 + 1), "0001-01-01T00:00:00.000001Z")] {
            let out = CookieFileWriter.bytes(capacity: CookieTime.iso8601Length) { time.appendISO8601(to: &$0) }
            #expect(String(decoding: out, as: UTF8.self) == expected)
        }
    }
}
