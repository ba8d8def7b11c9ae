import Testing
@testable import Cookies

/// Apple binarycookies import. Facts: the structure documented on `BinaryCookies` (the "Safari cookies"
/// page of the Just Solve the File Format Problem wiki and interstateone/BinaryCookies' README), fixtures
/// made by `BinaryCookiesWriter` from that structure and by hand below.
struct BinaryCookiesTests {
    /// The persistent sample cookies in two pages; the SameSite value the format holds (None is not
    /// known to have a flag: it reads back as Default).
    static let persistent = CookieFileSamples.cookies.filter(\.isPersistent)
    static let twoPages = BinaryCookiesWriter.file([
        BinaryCookiesWriter.page(persistent.prefix(2).map { BinaryCookiesWriter.cookie(BinaryCookiesWriter.record($0)) }),
        BinaryCookiesWriter.page(persistent.dropFirst(2).map { BinaryCookiesWriter.cookie(BinaryCookiesWriter.record($0)) }),
    ])

    @Test func roundTripKeepsWhatTheFormatHolds() throws {
        let contents = try BinaryCookies.parse(Self.twoPages)
        #expect(contents.format == .binaryCookies)
        #expect(contents.skipped.isEmpty)
        #expect(contents.cookies.count == Self.persistent.count)
        for (original, copy) in zip(Self.persistent, contents.cookies) {
            CookieFileSamples.expectSameCoreFields(copy, original)
            #expect(copy.sameSite == (original.sameSite == .none ? .default : original.sameSite))
            // Float64 seconds since 2001 keep microseconds to within one.
            #expect(abs(copy.expiry!.microsecondsSinceEpoch - original.expiry!.microsecondsSinceEpoch) <= 1)
            #expect(abs(copy.creation.microsecondsSinceEpoch - original.creation.microsecondsSinceEpoch) <= 1)
            #expect(copy.lastAccess == copy.creation)
            #expect(copy.partitionKey == nil)
            #expect(copy.sourcePort == nil)
        }
    }

    /// Written byte by byte from the documented structure: one page, one cookie `.example.com / sid=1`,
    /// Secure + HttpOnly, expiry 2026-01-01T00:00:00Z (788,918,400 s after 2001), creation 2001-01-01.
    static let handWritten: [UInt8] = [
        0x63, 0x6F, 0x6F, 0x6B,  // "cook"
        0x00, 0x00, 0x00, 0x01,  // 1 page (BE)
        0x00, 0x00, 0x00, 0x5D,  // page size 93 (BE)
        0x00, 0x00, 0x01, 0x00,  // page tag
        0x01, 0x00, 0x00, 0x00,  // 1 cookie (LE)
        0x10, 0x00, 0x00, 0x00,  // the cookie at 16 (LE)
        0x00, 0x00, 0x00, 0x00,  // end of the page header
        0x4D, 0x00, 0x00, 0x00,  // cookie size 77
        0x00, 0x00, 0x00, 0x00,  // version
        0x05, 0x00, 0x00, 0x00,  // flags: Secure | HttpOnly
        0x00, 0x00, 0x00, 0x00,  // no port
        0x38, 0x00, 0x00, 0x00,  // domain at 56
        0x45, 0x00, 0x00, 0x00,  // name at 69
        0x49, 0x00, 0x00, 0x00,  // path at 73
        0x4B, 0x00, 0x00, 0x00,  // value at 75
        0x00, 0x00, 0x00, 0x00,  // no comment
        0x00, 0x00, 0x00, 0x00,  // no comment URL
        0x00, 0x00, 0x00, 0x40, 0xF8, 0x82, 0xC7, 0x41,  // expiry 788918400.0 (LE Float64)
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // creation 0.0
        0x2E, 0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x2E, 0x63, 0x6F, 0x6D, 0x00,  // ".example.com"
        0x73, 0x69, 0x64, 0x00,  // "sid"
        0x2F, 0x00,  // "/"
        0x31, 0x00,  // "1"
        0x00, 0x00, 0x03, 0x35,  // checksum 821: the page's bytes at 0, 4, 8, … added up
        0x07, 0x17, 0x20, 0x05, 0x00, 0x00, 0x00, 0x4B,  // footer
    ]

    @Test func readsHandWrittenFile() throws {
        let cookies = try BinaryCookies.parse(Self.handWritten).cookies
        #expect(cookies == [
            Cookie(name: "sid", value: "1", domain: "example.com", isHostOnly: false, path: "/",
                   expiry: CookieTime(secondsSinceEpoch: Int64(1_767_225_600)),
                   creation: CookieTime(secondsSinceEpoch: Int64(978_307_200)), isSecure: true, isHTTPOnly: true,
                   isSourceSecure: true),
        ])
    }

    /// The smallest valid file: no page, checksum 0, the footer.
    @Test func readsEmptyFile() throws {
        let bytes: [UInt8] = [0x63, 0x6F, 0x6F, 0x6B, 0, 0, 0, 0, 0, 0, 0, 0, 0x07, 0x17, 0x20, 0x05, 0, 0, 0, 0x4B]
        #expect(try BinaryCookies.parse(bytes).cookies.isEmpty)
    }

    /// Flag bits: 0x1 Secure, 0x4 HttpOnly; 0x8 Lax, 0x10 Strict (NETBinaryCookie, dcas796/BinaryCookieReader).
    static let flags: [(flags: UInt32, secure: Bool, httpOnly: Bool, sameSite: SameSite)] = [
        (0x0, false, false, .default), (0x1, true, false, .default), (0x4, false, true, .default),
        (0x8, false, false, .lax), (0x10, false, false, .strict), (0x18, false, false, .strict),
        (0x1D, true, true, .strict), (0x100, false, false, .default),
    ]

    @Test(arguments: flags)
    func readsFlags(flags: UInt32, secure: Bool, httpOnly: Bool, sameSite: SameSite) throws {
        let record = BinaryCookiesWriter.Record(domain: "a.example", name: "n", path: "/", value: "v", flags: flags, expiry: 1e9, creation: 0)
        let cookie = try #require(BinaryCookies.parse(BinaryCookiesWriter.file([BinaryCookiesWriter.page([BinaryCookiesWriter.cookie(record)])])).cookies.first)
        #expect(cookie.isSecure == secure)
        #expect(cookie.isHTTPOnly == httpOnly)
        #expect(cookie.sameSite == sameSite)
        #expect(cookie.isHostOnly)
    }

    @Test func readsCommentBeforeStrings() throws {
        var record = BinaryCookiesWriter.record(Self.persistent[0])
        record.comment = "a comment"
        let cookie = try #require(BinaryCookies.parse(BinaryCookiesWriter.file([BinaryCookiesWriter.page([BinaryCookiesWriter.cookie(record)])])).cookies.first)
        #expect(cookie.name == Self.persistent[0].name)
    }

    /// Every prefix of a valid file that ends before the footer's signature does (inside the header, the
    /// page table, a page, the checksum or the signature) is an error, never a crash and never a partial
    /// import. What follows the signature, the property list's size and the list, is not read: a file cut
    /// anywhere after the signature gives every cookie (`endingAfterTheSignatureIsRead`).
    @Test func everyTruncationBeforeTheSignatureEndsIsAnError() {
        for file in [Self.handWritten, Self.twoPages] {
            // Both files end with the signature and the 4 bytes of a property list's size.
            for length in 0..<(file.count - 4) {
                #expect(throws: CookieFileError.self, "length \(length)") { try BinaryCookies.parse(file[..<length]) }
            }
        }
    }

    /// Older files end right after the footer's signature, 07 17 20 05 (securitylearn's
    /// BinaryCookieReader.py: the file "ends with an 8 byte value", the checksum and the signature); newer
    /// ones go on with the size of the accept policy's property list and the list (creachadair's "Binary
    /// cookies file format"). Each reads as the whole file does.
    static let endings: [(cut: Int, source: String)] = [
        (4, "an older file: nothing after the signature"),
        (2, "a file cut inside the property list's size, which is not read"),
        (0, "a newer file: the property list's size (no list)"),
    ]

    @Test(arguments: endings)
    func endingAfterTheSignatureIsRead(cut: Int, source: String) throws {
        for file in [Self.handWritten, Self.twoPages] {
            let whole = try BinaryCookies.parse(file).cookies
            #expect(try BinaryCookies.parse(file.dropLast(cut)).cookies == whole, "\(source)")
        }
        #expect(try BinaryCookies.parse(Self.handWritten.dropLast(cut)).cookies.map(\.name) == ["sid"], "\(source)")
    }

    /// Any byte changed to any of a few values gives cookies or an error: never a crash.
    @Test func everyByteChangeIsSafe() {
        var outcomes = (read: 0, refused: 0)
        for index in Self.handWritten.indices {
            for replacement: UInt8 in [0x00, 0xFF, 0x7F, Self.handWritten[index] ^ 0x01] {
                var bytes = Self.handWritten
                bytes[index] = replacement
                do {
                    _ = try BinaryCookies.parse(bytes)
                    outcomes.read += 1
                } catch {
                    outcomes.refused += 1
                }
            }
        }
        #expect(outcomes.read + outcomes.refused == Self.handWritten.count * 4)
        #expect(outcomes.refused > 0)
    }

    /// Damaged files: each change to the hand-written file, the error code and the byte offset it names.
    static let damaged: [(label: String, index: Int, byte: UInt8, code: CookieFileError.Code, offset: Int)] = [
        ("magic", 0, 0x43, .badSignature, 0),
        ("page count beyond the file", 7, 0x09, .truncated, 117),
        ("page size beyond the file", 11, 0xFF, .truncated, 117),
        ("page tag", 14, 0x02, .badSignature, 12),
        ("cookie count beyond the page", 16, 0x40, .invalidOffset, 16),
        ("cookie offset beyond the page", 20, 0x60, .invalidOffset, 20),
        ("cookie size beyond the page", 28, 0x7F, .invalidOffset, 28),
        ("domain offset inside the fixed part", 44, 0x10, .invalidOffset, 44),
        ("name offset beyond the cookie", 48, 0x60, .invalidOffset, 48),
        ("value without its NUL", 104, 0x32, .invalidOffset, 103),
        ("invalid UTF-8 in the name", 97, 0xFF, .invalidUTF8, 97),
        ("domain not a host", 85, 0x20, .invalidDomain, 28),
        ("path not starting with /", 101, 0x61, .invalidPath, 28),
        ("checksum", 108, 0x36, .checksumMismatch, 105),
        ("footer", 109, 0x08, .badSignature, 109),
    ]

    @Test(arguments: damaged)
    func refusesDamagedFile(label: String, index: Int, byte: UInt8, code: CookieFileError.Code, offset: Int) {
        var bytes = Self.handWritten
        bytes[index] = byte
        let error = #expect(throws: CookieFileError.self, "\(label)") { try BinaryCookies.parse(bytes) }
        #expect(error?.code == code, "\(label)")
        #expect(error?.offset == offset, "\(label)")
    }

    /// A time that is no number: the error names the Float64's offset (the one cookie sits at byte 28).
    @Test(arguments: [(Double.nan, 0.0, 68), (.infinity, 0.0, 68), (0.0, -Double.infinity, 76)])
    func refusesNonFiniteTimes(expiry: Double, creation: Double, offset: Int) {
        let record = BinaryCookiesWriter.Record(domain: "a.example", name: "n", path: "/", value: "v", expiry: expiry, creation: creation)
        let file = BinaryCookiesWriter.file([BinaryCookiesWriter.page([BinaryCookiesWriter.cookie(record)])])
        let error = #expect(throws: CookieFileError.self) { try BinaryCookies.parse(file) }
        #expect(error?.code == .invalidTime)
        #expect(error?.offset == offset)
    }

    @Test func lenientSkipsBadCookiesAndChecksum() throws {
        let good = BinaryCookiesWriter.cookie(BinaryCookiesWriter.record(Self.persistent[0]))
        var bad = good
        bad[20] = 0xFF  // name offset beyond the cookie
        var file = BinaryCookiesWriter.file([BinaryCookiesWriter.page([bad, good])])
        file[file.count - 9] ^= 0x01  // checksum
        #expect(throws: CookieFileError.self) { try BinaryCookies.parse(file) }
        let contents = try BinaryCookies.parse(file, lenient: true)
        #expect(contents.cookies.map(\.name) == [Self.persistent[0].name])
        #expect(contents.skipped.map(\.code) == [.invalidOffset, .checksumMismatch])
    }
}
