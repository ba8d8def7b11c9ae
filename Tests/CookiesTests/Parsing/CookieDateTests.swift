import Foundation
import Testing
@_spi(Fuzzing) @testable import Cookies

/// One cookie-date and what §5.1.1 makes of it: an ISO 8601 UTC instant, or nil when the
/// algorithm fails. Expected instants go through Foundation, so the tables check the
/// parser's calendar arithmetic against an independent one.
struct CookieDateCase: Sendable, CustomTestStringConvertible {
    let input: String
    let expected: String?
    init(_ input: String, _ expected: String?) {
        self.input = input
        self.expected = expected
    }
    var testDescription: String { "\(input.debugDescription) → \(expected ?? "fails")" }
}

/// Seconds since the epoch of an ISO 8601 UTC instant, computed by Foundation.
private func epochSeconds(_ iso: String) -> Int64 {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: iso) else {
        Issue.record("bad ISO 8601 instant in table: \(iso)")
        return 0
    }
    return Int64(date.timeIntervalSince1970.rounded())
}

private func expectParse(_ entry: CookieDateCase) {
    #expect(CookieDate.parse(entry.input) == entry.expected.map(epochSeconds))
}

@Suite("CookieDate")
struct CookieDateTests {
    // RFC 9110 §5.6.7 lists the preferred IMF-fixdate and the two obsolete forms (RFC 850,
    // asctime) a recipient must accept; rfc6265bis-22 §3.1 uses "Wed, 09 Jun 2021 10:18:14 GMT"
    // in its examples. §5.1.1 reads all of them.
    static let httpDateForms: [CookieDateCase] = [
        .init("Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"),    // IMF-fixdate
        .init("Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37Z"),   // RFC 850 (step 3: 94 → 1994)
        .init("Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z"),         // asctime
        .init("Wed, 09 Jun 2021 10:18:14 GMT", "2021-06-09T10:18:14Z"),    // §3.1 example
        .init("Thu, 01 Jan 1970 00:00:00 GMT", "1970-01-01T00:00:00Z"),
        .init("Wed, 31 Dec 1969 23:59:59 GMT", "1969-12-31T23:59:59Z"),    // negative instant
    ]

    @Test("RFC 9110 §5.6.7 forms", arguments: httpDateForms)
    func httpDateForm(_ entry: CookieDateCase) { expectParse(entry) }

    // Legacy forms seen in the wild, as in the http-state date suite: numeric zones, zone
    // names and JavaScript's Date.toString. §5.1.1 has no zone production, so a zone's
    // tokens match nothing still missing and the instant is read as UTC.
    static let legacyForms: [CookieDateCase] = [
        .init("Thu, 10 Apr 2008 12:00:00 -0700", "2008-04-10T12:00:00Z"),
        .init("Tue, 18 Mar 2031 14:00:00 +0100", "2031-03-18T14:00:00Z"),
        .init("Sat, 15-Aug-2026 07:05:03 UTC", "2026-08-15T07:05:03Z"),
        .init("Fri Mar 14 2025 09:30:00 GMT+0000 (Coordinated Universal Time)", "2025-03-14T09:30:00Z"),
        .init("Mon, 3-Feb-2025 7:5:3 GMT", "2025-02-03T07:05:03Z"),          // one-digit fields
        .init("Tue,  4 Feb 2025 10:00:00 GMT", "2025-02-04T10:00:00Z"),      // doubled SP
        .init("Wednesday, 05-Feb-25 10:00:00 GMT", "2025-02-05T10:00:00Z"),
        .init("2026-08-15T07:05:03Z", nil),                                  // ISO 8601: no month name
        .init("1755324303", nil),                                            // a bare timestamp
    ]

    @Test("Legacy forms", arguments: legacyForms)
    func legacyForm(_ entry: CookieDateCase) { expectParse(entry) }

    // §5.1.1 step 1: delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E, any number of
    // them between tokens and before or after the token list.
    static let delimiters: [CookieDateCase] = [
        .init("06\tNov\t1994\t08:49:37", "1994-11-06T08:49:37Z"),           // %x09
        .init("06 Nov!1994\"08:49:37", "1994-11-06T08:49:37Z"),             // %x20-2F
        .init("06/Nov/1994,08:49:37", "1994-11-06T08:49:37Z"),              // %x20-2F (ends)
        .init("06;Nov=1994?08:49:37", "1994-11-06T08:49:37Z"),              // %x3B-40
        .init("06<Nov>1994@08:49:37", "1994-11-06T08:49:37Z"),              // %x3B-40 (ends)
        .init("06[Nov]1994_08:49:37", "1994-11-06T08:49:37Z"),              // %x5B-60
        .init("06\\Nov^1994`08:49:37", "1994-11-06T08:49:37Z"),             // %x5B-60
        .init("06{Nov}1994~08:49:37", "1994-11-06T08:49:37Z"),              // %x7B-7E
        .init("06|Nov|1994|08:49:37", "1994-11-06T08:49:37Z"),              // %x7B-7E
        .init("  ,;Sun, 06 Nov 1994 08:49:37 GMT;;  ", "1994-11-06T08:49:37Z"), // leading, trailing
        .init("@@06@@Nov@@1994@@08:49:37@@", "1994-11-06T08:49:37Z"),
        .init("06 Nov 1994 08:49:37.123", "1994-11-06T08:49:37Z"),          // "." splits off "123"
        .init("06\u{1}Nov 1994 08:49:37", nil),                             // %x01 is a non-delimiter
        .init("06\u{7F}Nov 1994 08:49:37", nil),                            // %x7F is a non-delimiter
        .init("", nil),
        .init(" ,;-/ ", nil),
    ]

    @Test("§5.1.1 delimiters", arguments: delimiters)
    func delimiter(_ entry: CookieDateCase) { expectParse(entry) }

    // §5.1.1 productions: time, day-of-month, month and year may be followed by any octets once
    // a non-digit comes, so numbers glued to text still count; month is a case-insensitive
    // three-letter prefix (RFC 5234 §2.3).
    static let productions: [CookieDateCase] = [
        .init("06th Nov 1994 08:49:37", "1994-11-06T08:49:37Z"),             // day-of-month + text
        .init("06 Nov 1994AD 08:49:37", "1994-11-06T08:49:37Z"),             // year + text
        .init("06 Nov 1994 08:49:37GMT", "1994-11-06T08:49:37Z"),            // time + text
        .init("06 Nov 1994 8:9:7", "1994-11-06T08:09:07Z"),                  // 1*2DIGIT fields
        .init("06 November 1994 08:49:37", "1994-11-06T08:49:37Z"),
        .init("06 Noviembre 1994 08:49:37", "1994-11-06T08:49:37Z"),         // any *OCTET after "nov"
        .init("06 Nov. 1994 08:49:37", "1994-11-06T08:49:37Z"),
        .init("06 NOV 1994 08:49:37", "1994-11-06T08:49:37Z"),
        .init("06 nov 1994 08:49:37", "1994-11-06T08:49:37Z"),
        .init("06 nOv 1994 08:49:37", "1994-11-06T08:49:37Z"),
        .init("01 jan 2000 00:00:00", "2000-01-01T00:00:00Z"),
        .init("01 FEB 2000 00:00:00", "2000-02-01T00:00:00Z"),
        .init("01 mAr 2000 00:00:00", "2000-03-01T00:00:00Z"),
        .init("01 Apr 2000 00:00:00", "2000-04-01T00:00:00Z"),
        .init("01 may 2000 00:00:00", "2000-05-01T00:00:00Z"),
        .init("01 JUN 2000 00:00:00", "2000-06-01T00:00:00Z"),
        .init("01 Jul 2000 00:00:00", "2000-07-01T00:00:00Z"),
        .init("01 aug 2000 00:00:00", "2000-08-01T00:00:00Z"),
        .init("01 SeP 2000 00:00:00", "2000-09-01T00:00:00Z"),
        .init("01 oct 2000 00:00:00", "2000-10-01T00:00:00Z"),
        .init("01 NoV 2000 00:00:00", "2000-11-01T00:00:00Z"),
        .init("01 DEC 2000 00:00:00", "2000-12-01T00:00:00Z"),
        .init("06Nov1994 08:49:37", nil),            // one token: a day-of-month, so no month
        .init("Nov06 1994 08:49:37", nil),           // one token: a month, so no day-of-month
        .init("06 No 1994 08:49:37", nil),           // fewer than three letters
        .init("06 Növ 1994 08:49:37", nil),          // not ASCII "nov"
        .init("06 Nov 1994 08:49", nil),             // two time-fields are not a time
        .init("06 Nov 1994 08:49:371", nil),         // a third DIGIT after a time-field
        .init("06 Nov 1994 108:49:37", nil),         // three DIGITs in a time-field
        .init("106 Nov 1994 08:49:37", nil),         // three DIGITs: no day-of-month (it is year 106)
        .init("06 Nov 7 08:49:37", nil),             // year needs 2*4DIGIT
        .init("06 Nov 19940 08:49:37", nil),         // five DIGITs
    ]

    @Test("§5.1.1 productions", arguments: productions)
    func production(_ entry: CookieDateCase) { expectParse(entry) }

    // §5.1.1 step 2: tokens may come in any order; for each field the first token that matches
    // wins, and a token is tried as time, day-of-month, month, year in that order.
    static let tokenOrder: [CookieDateCase] = [
        .init("1994 Nov 06 08:49:37", "1994-11-06T08:49:37Z"),
        .init("08:49:37 06 Nov 1994", "1994-11-06T08:49:37Z"),
        .init("Nov 1994 06 08:49:37", "1994-11-06T08:49:37Z"),
        .init("06 1994 08:49:37 November", "1994-11-06T08:49:37Z"),
        .init("06 94 Nov 08:49:37", "1994-11-06T08:49:37Z"),               // "94" is the year: day is taken
        .init("94 06 Nov 08:49:37", nil),                                  // "94" is the day-of-month: > 31
        .init("06 07 Nov 1994 08:49:37", "2007-11-06T08:49:37Z"),          // "07" is the year, "1994" ignored
        .init("Nov Dec 06 1994 08:49:37", "1994-11-06T08:49:37Z"),         // second month ignored
        .init("Sun, 06 Nov 1994 08:49:37 GMT 12:00:00", "1994-11-06T08:49:37Z"), // second time ignored
        .init("Sun, 06 Nov 1994 08:49:37 GMT 2000", "1994-11-06T08:49:37Z"),     // second year ignored
    ]

    @Test("§5.1.1 step 2 token order", arguments: tokenOrder)
    func order(_ entry: CookieDateCase) { expectParse(entry) }

    // §5.1.1 steps 3 and 4: year-values 70-99 gain 1900, 0-69 gain 2000; the rule is on the
    // value, whatever the number of digits. Step 5: years before 1601 fail.
    static let years: [CookieDateCase] = [
        .init("06 Nov 00 08:49:37", "2000-11-06T08:49:37Z"),
        .init("06 Nov 69 08:49:37", "2069-11-06T08:49:37Z"),
        .init("06 Nov 70 08:49:37", "1970-11-06T08:49:37Z"),
        .init("06 Nov 99 08:49:37", "1999-11-06T08:49:37Z"),
        .init("06 Nov 0070 08:49:37", "1970-11-06T08:49:37Z"),
        .init("06 Nov 069 08:49:37", "2069-11-06T08:49:37Z"),
        .init("06 Nov 100 08:49:37", nil),
        .init("06 Nov 1600 08:49:37", nil),
        .init("31 Dec 1600 23:59:59", nil),
        .init("01 Jan 1601 00:00:00", "1601-01-01T00:00:00Z"),
        .init("31 Dec 9999 23:59:59", "9999-12-31T23:59:59Z"),
    ]

    @Test("§5.1.1 steps 3-5 years", arguments: years)
    func year(_ entry: CookieDateCase) { expectParse(entry) }

    // §5.1.1 step 5 (missing field, ranges) and step 6 ("If no such date exists ... fail").
    static let validation: [CookieDateCase] = [
        .init("06 Nov 1994", nil),                                  // no time
        .init("Nov 1994 08:49:37", nil),                            // no day-of-month
        .init("06 1994 08:49:37", nil),                             // no month
        .init("06 Nov 08:49:37", nil),                              // no year
        .init("00 Nov 1994 08:49:37", nil),                         // day-of-month < 1
        .init("32 Dec 1994 08:49:37", nil),                         // day-of-month > 31
        .init("31 Dec 1994 08:49:37", "1994-12-31T08:49:37Z"),
        .init("06 Nov 1994 24:00:00", nil),                         // hour > 23
        .init("06 Nov 1994 23:59:59", "1994-11-06T23:59:59Z"),
        .init("06 Nov 1994 23:60:00", nil),                         // minute > 59
        .init("06 Nov 1994 23:59:60", nil),                         // second > 59 (no leap seconds)
        .init("06 Nov 1994 99:99:99", nil),
        .init("29 Feb 2024 12:00:00", "2024-02-29T12:00:00Z"),      // leap year
        .init("29 Feb 2000 12:00:00", "2000-02-29T12:00:00Z"),      // divisible by 400
        .init("29 Feb 2023 12:00:00", nil),                         // not a leap year
        .init("29 Feb 1900 12:00:00", nil),                         // divisible by 100 only
        .init("30 Feb 2024 12:00:00", nil),
        .init("31 Apr 2024 12:00:00", nil),
        .init("31 Jun 2024 12:00:00", nil),
        .init("31 Sep 2024 12:00:00", nil),
        .init("31 Nov 2024 12:00:00", nil),
        .init("30 Apr 2024 12:00:00", "2024-04-30T12:00:00Z"),
    ]

    @Test("§5.1.1 steps 5-6 validation", arguments: validation)
    func validate(_ entry: CookieDateCase) { expectParse(entry) }

    /// §5.1.1 step 1 for every octet: a lone delimiter splits "06" from "Nov" (and the time from
    /// the year), so the date parses; any non-delimiter glues the two into one token and a
    /// field goes missing. The oracle is the delimiter ABNF itself.
    @Test("§5.1.1 byte sweep of the delimiter set", arguments: 0...255)
    func byteSweep(_ value: Int) {
        let byte = UInt8(value)
        let delimiter: [ClosedRange<UInt8>] = [0x09...0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E]
        let isDelimiter = delimiter.contains { $0.contains(byte) }
        let expected: Int64? = isDelimiter ? epochSeconds("1994-11-06T08:49:37Z") : nil
        let splitsDayFromMonth = Array("06".utf8) + [byte] + Array("Nov 1994 08:49:37".utf8)
        let splitsTimeFromYear = Array("06 Nov 08:49:37".utf8) + [byte] + Array("1994".utf8)
        #expect(splitsDayFromMonth.withUnsafeBufferPointer { CookieDate.parse($0) } == expected)
        #expect(splitsTimeFromYear.withUnsafeBufferPointer { CookieDate.parse($0) } == expected)
    }

    /// §5.1.1 month, for each of the twelve names: every octet at each of its three positions, in
    /// "06 ??? 1994 08:49:37". A month matches exactly when the three octets are its name in any mix of
    /// cases (ABNF strings are case-insensitive, RFC 5234 §2.3); otherwise no token is a month and the
    /// date fails. The oracle folds A–Z to a–z (`asciiLowercased`) and looks the result up in the names.
    @Test("§5.1.1 month names, every octet at every position", arguments: 1...12)
    func monthName(_ month: Int) {
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let name = Array(names[month - 1].utf8)
        func expected(_ month: Int) -> Int64 { epochSeconds("1994-\(month < 10 ? "0" : "")\(month)-06T08:49:37Z") }
        for position in 0..<3 {
            for byte in UInt8(0)...UInt8(255) {
                var token = name
                token[position] = byte
                let date = Array("06 ".utf8) + token + Array(" 1994 08:49:37".utf8)
                let matched = names.firstIndex { Array($0.utf8) == token.map(\.asciiLowercased) }.map { expected($0 + 1) }
                #expect(date.withUnsafeBufferPointer { CookieDate.parse($0) } == matched, "\(token)")
            }
        }
        for cases in 0..<8 {
            let mixed = name.enumerated().map { cases >> $0.offset & 1 == 1 ? $0.element - 0x20 : $0.element }
            let date = Array("Sun, 06 ".utf8) + mixed + Array(" 1994 08:49:37 GMT".utf8)
            #expect(date.withUnsafeBufferPointer { CookieDate.parse($0) } == expected(month), "\(mixed)")
        }
    }

    /// `digitValues` for both IMF-fixdate words (RFC 9110 §5.6.7: "YYYY HH:" and "HH:MM:SS"), every
    /// octet at each of the eight positions of a valid word. The oracle goes byte by byte: where the
    /// layout has "0" a DIGIT (RFC 5234 Appendix B.1) gives its value, elsewhere only the layout's octet
    /// is allowed (and gives 0); any other octet fails the word.
    @Test(arguments: [("1994 08:", "0000 00:", CookieDate.yearLayout), ("08:49:37", "00:00:00", CookieDate.timeLayout)])
    func digitValuesAtEveryPosition(_ sample: String, _ layoutText: String, _ layout: CookieDate.DigitLayout) {
        let layoutBytes = Array(layoutText.utf8)
        for position in 0..<8 {
            for byte in UInt8(0)...UInt8(255) {
                var bytes = Array(sample.utf8)
                bytes[position] = byte
                var expected: UInt64? = 0
                for (index, octet) in bytes.enumerated() {
                    if layoutBytes[index] == UInt8(ascii: "0"), (0x30...0x39).contains(octet) {
                        expected = expected.map { $0 | UInt64(octet - 0x30) << (index * 8) }
                    } else if layoutBytes[index] != UInt8(ascii: "0"), octet == layoutBytes[index] {
                        continue
                    } else {
                        expected = nil
                    }
                }
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(CookieDate.digitValues(word, layout: layout) == expected, "\(bytes)")
            }
        }
    }

    /// `parse` reads an IMF-fixdate layout (RFC 9110 §5.6.7, and its variant with "-" around the month)
    /// without dividing it into date-tokens; every octet at every position of such dates must give what
    /// §5.1.1 step 1–2 give through the date-tokens (`parseDateTokens`, the oracle). The dates are the
    /// layout itself, a day name that is a month, a time without its third field, one-digit fields, a
    /// date ending right after the time, and one whose time goes on with a letter.
    @Test("IMF-fixdate layout agrees with the date-tokens", arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Fri, 11-Jan-2036 03:38:33 GMT", "Mar, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49 GMT 37", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37Z",
        "sun, 29 feb 2023 23:59:59 gmt", "Mon, 3-Feb-2025 7:5:3 GMT",
    ])
    func imfFixdateLayout(_ date: String) {
        let original = Array(date.utf8)
        var differences = 0
        for position in original.indices {
            for byte in UInt8(0)...UInt8(255) {
                var bytes = original
                bytes[position] = byte
                let fast = bytes.withUnsafeBufferPointer { CookieDate.parse($0) }
                let tokens = bytes.withUnsafeBufferPointer { CookieDate.parseDateTokens($0) }
                if fast != tokens {
                    differences += 1
                    Issue.record("\(bytes): \(String(describing: fast)) instead of \(String(describing: tokens))")
                }
            }
        }
        #expect(differences == 0)
        #expect(original.withUnsafeBufferPointer { CookieDate.parse($0) == CookieDate.parseDateTokens($0) })
    }

    // RFC 9110 §5.6.7 IMF-fixdate, from 1601 (the first year §5.1.1 step 5 allows) to 9999;
    // values beyond either end are clamped to it.
    static let formatted: [(seconds: Int64, text: String)] = [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (1_623_233_894, "Wed, 09 Jun 2021 10:18:14 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (-11_644_473_600, "Mon, 01 Jan 1601 00:00:00 GMT"),
        (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
        (-11_644_473_601, "Mon, 01 Jan 1601 00:00:00 GMT"),
        (253_402_300_800, "Fri, 31 Dec 9999 23:59:59 GMT"),
        (.min, "Mon, 01 Jan 1601 00:00:00 GMT"),
        (.max, "Fri, 31 Dec 9999 23:59:59 GMT"),
    ]

    @Test("RFC 9110 §5.6.7 IMF-fixdate", arguments: formatted)
    func formats(_ seconds: Int64, _ text: String) {
        #expect(CookieDate.format(seconds) == text)
    }

    /// format then parse is the identity from 1601 through 9999, and format agrees with
    /// Foundation's Gregorian calendar.
    @Test("format → parse round trip")
    func roundTrip() {
        let first: Int64 = -11_644_473_600
        let last: Int64 = 253_402_300_799
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var checked = 0
        for seconds in Array(stride(from: first, through: last, by: 7_777_777)) + [last, -1, 0, 1] {
            let text = CookieDate.format(seconds)
            #expect(CookieDate.parse(text) == seconds, "\(seconds) → \(text)")
            if checked % 10 == 0 {
                let date = Date(timeIntervalSince1970: TimeInterval(seconds))
                #expect(text == formatter.string(from: date), "\(seconds)")
            }
            checked += 1
        }
    }
}
