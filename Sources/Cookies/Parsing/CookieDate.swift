// The cookie-date of rfc6265bis-22 §5.1.1 ("Dates"), unchanged from RFC 6265 §5.1.1,
// and the IMF-fixdate of RFC 9110 §5.6.7 used to write one back out.
//
// Instants are whole seconds since 1970-01-01T00:00:00Z in the proleptic Gregorian
// calendar, as Int64. Parsing reads the bytes in place and allocates nothing.

@_spi(Fuzzing) public enum CookieDate {
    /// §5.1.1: the cookie-date in `bytes`, as seconds since 1970-01-01T00:00:00Z, or nil when the algorithm fails.
    @_spi(Fuzzing) public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        if let fields = Fields(imfFixdateLayout: bytes) { return fields.instant() }
        return Fields(dateTokensOf: bytes).instant()
    }

    /// §5.1.1 through its date-tokens, whatever the layout; `parse` gives the same result faster for the
    /// usual layout.
    static func parseDateTokens(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        Fields(dateTokensOf: bytes).instant()
    }

    /// §5.1.1 on the UTF-8 of `string`; reads a native string's storage in place.
    static func parse(_ string: String) -> Int64? {
        if let result = string.utf8.withContiguousStorageIfAvailable({ parse($0) }) {
            return result
        }
        var native = string
        return native.withUTF8 { parse($0) }
    }

    /// IMF-fixdate (RFC 9110 §5.6.7), e.g. "Sun, 06 Nov 1994 08:49:37 GMT", for any Int64 seconds value from year 1601 through 9999.
    ///
    /// A value outside that span is clamped to its nearer end (1601-01-01T00:00:00Z or
    /// 9999-12-31T23:59:59Z): IMF-fixdate has a four-digit year, and §5.1.1 step 5 refuses
    /// years before 1601, so the text always parses back.
    @_spi(Fuzzing) public static func format(_ seconds: Int64) -> String {
        let (date, secondOfDay, weekday) = breakdown(seconds)

        // IMF-fixdate  = day-name "," SP date1 SP time-of-day SP GMT
        // date1        = day SP month SP year        ; e.g., 02 Jun 1982
        // time-of-day  = hour ":" minute ":" second  ; 00:00:00 - 23:59:60 (leap second)
        return String(unsafeUninitializedCapacity: imfFixdateLength) { out in
            var at = 0
            func put(_ byte: UInt8) {
                out[at] = byte
                at += 1
            }
            func put(_ names: StaticString, _ index: Int) {
                names.withUTF8Buffer { all in
                    for offset in 0..<3 { put(all[index * 3 + offset]) }
                }
            }
            func put(_ value: Int, digits: Int) {
                var divisor = 1
                for _ in 1..<digits { divisor *= 10 }
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                    divisor /= 10
                }
            }
            put(dayNames, weekday)
            put(UInt8(ascii: ","))
            put(UInt8(ascii: " "))
            put(date.day, digits: 2)
            put(UInt8(ascii: " "))
            put(monthNames, date.month - 1)
            put(UInt8(ascii: " "))
            put(date.year, digits: 4)
            put(UInt8(ascii: " "))
            put(secondOfDay / 3600, digits: 2)
            put(UInt8(ascii: ":"))
            put(secondOfDay / 60 % 60, digits: 2)
            put(UInt8(ascii: ":"))
            put(secondOfDay % 60, digits: 2)
            put(UInt8(ascii: " "))
            for byte in "GMT".utf8 { put(byte) }
            return at
        }
    }
}

// MARK: - §5.1.1 step 2: the four fields

extension CookieDate {
    /// The found-time, found-day-of-month, found-month and found-year flags of §5.1.1, each
    /// with its value: nil while the flag is not set.
    private struct Fields {
        var time: (hour: Int, minute: Int, second: Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?

        /// §5.1.1 steps 1–2: every date-token of `bytes` processed in order.
        init(dateTokensOf bytes: UnsafeBufferPointer<UInt8>) {
            // Step 1: divide the cookie-date into date-tokens.
            //   cookie-date     = *delimiter date-token-list *delimiter
            //   date-token-list = date-token *( 1*delimiter date-token )
            //   date-token      = 1*non-delimiter
            var index = 0
            while index < bytes.count {
                while index < bytes.count, isDelimiter(bytes[index]) { index += 1 }
                let start = index
                while index < bytes.count, !isDelimiter(bytes[index]) { index += 1 }
                if start < index {
                    // Step 2: process each date-token in order.
                    process(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                }
            }
        }

        /// Steps 1–2 for a cookie-date laid out as an IMF-fixdate (RFC 9110 §5.6.7) or as its variant
        /// with "-" around the month, "Sun, 06 Nov 1994 08:49:37 GMT" or "Sun, 06-Nov-1994 08:49:37 GMT";
        /// nil for any other layout. The date-tokens are then a day name, which matches no production
        /// (three letters that are not a month), the day-of-month, the month, the year and the time, each
        /// taken by the production the step-2 order gives it. Once all four flags are set no later token
        /// matters, so the bytes after the time are not read beyond the one that ends it.
        init?(imfFixdateLayout bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count >= 25 else { return nil }
            func digit(_ index: Int) -> Int? {
                let value = Int(bytes[index] &- UInt8(ascii: "0"))
                return value < 10 ? value : nil
            }
            func twoDigits(_ index: Int) -> Int? {
                guard let tens = digit(index), let ones = digit(index + 1) else { return nil }
                return tens * 10 + ones
            }
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
            let base = bytes.baseAddress.unsafelyUnwrapped
            let monthSeparator = bytes[7]
            guard isLetter(bytes[0]), isLetter(bytes[1]), isLetter(bytes[2]),
                  CookieDate.matchMonth(UnsafeBufferPointer(rebasing: bytes[0..<3])) == nil,
                  bytes[3] == UInt8(ascii: ","), bytes[4] == UInt8(ascii: " "),
                  let dayOfMonth = twoDigits(5),
                  monthSeparator == UInt8(ascii: " ") || monthSeparator == UInt8(ascii: "-"),
                  let month = CookieDate.matchMonth(UnsafeBufferPointer(rebasing: bytes[8..<11])),
                  bytes[11] == monthSeparator,
                  // "YYYY HH:" (bytes 12-19) and "HH:MM:SS" (bytes 17-24), each read as one word.
                  let year = CookieDate.digitValues(
                      UnsafeRawPointer(base + 12).loadUnaligned(as: UInt64.self), layout: CookieDate.yearLayout),
                  let time = CookieDate.digitValues(
                      UnsafeRawPointer(base + 17).loadUnaligned(as: UInt64.self), layout: CookieDate.timeLayout),
                  // time = hms-time [ non-digit *OCTET ]
                  bytes.count == 25 || digit(25) == nil
            else { return nil }
            func value(_ values: UInt64, _ index: Int) -> Int { Int(truncatingIfNeeded: values &>> (index * 8)) & 0xFF }
            let hour = value(time, 0) * 10 + value(time, 1)
            let minute = value(time, 3) * 10 + value(time, 4)
            let second = value(time, 6) * 10 + value(time, 7)
            let century = value(year, 0) * 10 + value(year, 1)
            let yearOfCentury = value(year, 2) * 10 + value(year, 3)
            self.time = (hour, minute, second)
            self.dayOfMonth = dayOfMonth
            self.month = month
            self.year = century * 100 + yearOfCentury
        }

        /// §5.1.1 step 2: the first production (time, day-of-month, month, year, in that order)
        /// whose flag is not yet set and which the token matches takes the token; the rest of
        /// the token's sub-steps are skipped. A token nothing takes is ignored.
        ///
        ///     day-of-month = 1*2DIGIT [ non-digit *OCTET ]
        ///     year         = 2*4DIGIT [ non-digit *OCTET ]
        ///
        /// time, day-of-month and year start with a DIGIT, month with three letters, so the token's
        /// leading DIGITs decide which productions can match: time needs one or two before its ":",
        /// day-of-month one or two, year two to four (a fifth would be a DIGIT after them); month none.
        mutating func process(_ token: UnsafeBufferPointer<UInt8>) {
            let number = CookieDate.leadingNumber(token, from: 0, maxDigits: 4)
            // `[ non-digit *OCTET ]` after the number: at most four DIGITs in a row.
            let endsAfterNumber = CookieDate.endsOrNonDigit(token, at: number.digits)
            if number.digits == 0 {
                if month == nil, let value = CookieDate.matchMonth(token) { month = value }
            } else if time == nil, number.digits <= 2, let value = CookieDate.matchTime(token) {
                time = value
            } else if dayOfMonth == nil, number.digits <= 2 {
                dayOfMonth = number.value
            } else if year == nil, number.digits >= 2, endsAfterNumber {
                year = number.value
            }
        }

        /// §5.1.1 steps 3 to 7.
        @inline(__always)
        func instant() -> Int64? {
            // Step 5, first bullet: every flag must be set.
            guard let time, let dayOfMonth, let month, var year else { return nil }
            // Step 3: 70-99 are 1970-1999.
            if (70...99).contains(year) { year += 1900 }
            // Step 4: 0-69 are 2000-2069.
            if (0...69).contains(year) { year += 2000 }
            // Step 5: day-of-month 1-31, year from 1601, hour to 23, minute and second to 59.
            guard (1...31).contains(dayOfMonth), year >= 1601,
                  time.hour <= 23, time.minute <= 59, time.second <= 59
            else { return nil }
            // Step 6: "If no such date exists, abort these steps and fail".
            guard dayOfMonth <= CookieDate.daysIn(month: month, year: year) else { return nil }
            // Step 7.
            let days = CookieDate.daysFromEpoch(year: year, month: month, day: dayOfMonth)
            return days * secondsPerDay
                + Int64(time.hour * 3600 + time.minute * 60 + time.second)
        }
    }

    /// time       = hms-time [ non-digit *OCTET ]
    /// hms-time   = time-field ":" time-field ":" time-field
    /// time-field = 1*2DIGIT
    private static func matchTime(_ token: UnsafeBufferPointer<UInt8>) -> (hour: Int, minute: Int, second: Int)? {
        var at = 0
        func timeField() -> Int? {
            let field = leadingNumber(token, from: at, maxDigits: 2)
            guard field.digits >= 1 else { return nil }
            at += field.digits
            return field.value
        }
        func colon() -> Bool {
            guard at < token.count, token[at] == UInt8(ascii: ":") else { return false }
            at += 1
            return true
        }
        guard let hour = timeField(), colon(),
              let minute = timeField(), colon(),
              let second = timeField(),
              endsOrNonDigit(token, at: at)
        else { return nil }
        return (hour, minute, second)
    }

    /// month = ( "jan" / "feb" / "mar" / "apr" / "may" / "jun" /
    ///           "jul" / "aug" / "sep" / "oct" / "nov" / "dec" ) *OCTET
    ///
    /// ABNF strings are case-insensitive (RFC 5234 §2.3). The result is 1 for January.
    private static func matchMonth(_ token: UnsafeBufferPointer<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        // Or-ing 0x20 lower-cases a letter and makes no other byte one: the names are all letters, so
        // the three bytes or-ed with 0x20 are a name's exactly when they are that name in some case.
        let month: Int? = switch UInt32(token[0] | 0x20) << 16 | UInt32(token[1] | 0x20) << 8 | UInt32(token[2] | 0x20) {
        case 0x6A_61_6E: 1 // "jan"
        case 0x66_65_62: 2 // "feb"
        case 0x6D_61_72: 3 // "mar"
        case 0x61_70_72: 4 // "apr"
        case 0x6D_61_79: 5 // "may"
        case 0x6A_75_6E: 6 // "jun"
        case 0x6A_75_6C: 7 // "jul"
        case 0x61_75_67: 8 // "aug"
        case 0x73_65_70: 9 // "sep"
        case 0x6F_63_74: 10 // "oct"
        case 0x6E_6F_76: 11 // "nov"
        case 0x64_65_63: 12 // "dec"
        default: nil
        }
        return month
    }

    /// A layout of eight bytes for `digitValues`: "0" where a DIGIT goes, the byte itself elsewhere,
    /// the first byte lowest; and for each byte what, added to it, carries into its high bit from 10 on
    /// (a DIGIT's place) or from 1 on (elsewhere).
    struct DigitLayout {
        let bytes: UInt64
        let carries: UInt64
    }

    /// The eight bytes of `word` (read little-endian: its lowest byte first) xor `layout.bytes` when each
    /// is a DIGIT where the layout has "0" and the layout's byte elsewhere: the DIGITs' values 0-9 in
    /// their places, zeros elsewhere. nil otherwise. The xor leaves a DIGIT at most 9 and a matching
    /// byte 0; adding the carries to the low seven bits sets a byte's high bit when it is more (no
    /// carry crosses into the next byte: at most 0x7F + 0x7F), and a byte from 0x80 on has its own.
    @inline(__always)
    static func digitValues(_ word: UInt64, layout: DigitLayout) -> UInt64? {
        let values = UInt64(littleEndian: word) ^ layout.bytes
        let over = ((values & 0x7F7F_7F7F_7F7F_7F7F) &+ layout.carries) | values
        return over & 0x8080_8080_8080_8080 == 0 ? values : nil
    }

    /// The value of the run of at most `maxDigits` DIGITs at `from`, and how many there were.
    @inline(__always)
    private static func leadingNumber(
        _ token: UnsafeBufferPointer<UInt8>, from start: Int, maxDigits: Int
    ) -> (value: Int, digits: Int) {
        var value = 0
        var at = start
        while at < token.count, at - start < maxDigits, isDigit(token[at]) {
            value = value * 10 + Int(token[at] &- UInt8(ascii: "0"))
            at += 1
        }
        return (value, at - start)
    }

    /// `[ non-digit *OCTET ]` after the digits: the token ends at `at` or goes on with a non-digit.
    private static func endsOrNonDigit(_ token: UnsafeBufferPointer<UInt8>, at: Int) -> Bool {
        at == token.count || !isDigit(token[at])
    }
}

// MARK: - Byte classes of §5.1.1

extension CookieDate {
    /// delimiter     = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E
    /// non-delimiter = %x00-08 / %x0A-1F / DIGIT / ":" / ALPHA / %x7F-FF
    @inline(__always)
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        // Bit n of the first mask is byte n's, bit n of the second byte 0x40 + n's.
        let below40: UInt64 = 1 << 0x09 | 0xFFFF << 0x20 | 0x1F << 0x3B
        let from40: UInt64 = 1 << 0x00 | 0x3F << (0x5B - 0x40) | 0xF << (0x7B - 0x40)
        return byte < 0x80 && ((byte < 0x40 ? below40 : from40) >> (byte & 0x3F)) & 1 != 0
    }

    /// DIGIT     = %x30-39                ; RFC 5234 Appendix B.1
    /// non-digit = %x00-2F / %x3A-FF
    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39: true
        default: false
        }
    }

    /// ALPHA = %x41-5A / %x61-7A          ; RFC 5234 Appendix B.1
    /// The upper-case half (%x41-5A) maps to the lower-case half; every other byte is itself.
    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x41...0x5A: byte | 0x20
        default: byte
        }
    }
}

// MARK: - Proleptic Gregorian calendar

extension CookieDate {
    static let secondsPerDay: Int64 = 86_400
    /// "0000 00:", the year, SP and the hour with its ":" of an IMF-fixdate (bytes 12-19).
    static let yearLayout = DigitLayout(bytes: 0x3A30_3020_3030_3030, carries: 0x7F76_767F_7676_7676)
    /// "00:00:00", the time-of-day of an IMF-fixdate (bytes 17-24).
    static let timeLayout = DigitLayout(bytes: 0x3030_3A30_303A_3030, carries: 0x7676_7F76_767F_7676)
    /// Length of "Sun, 06 Nov 1994 08:49:37 GMT".
    private static let imfFixdateLength = 29
    /// day-name of RFC 9110 §5.6.7, Sunday first, three bytes each.
    private static let dayNames: StaticString = "SunMonTueWedThuFriSat"
    /// month of RFC 9110 §5.6.7, January first, three bytes each.
    private static let monthNames: StaticString = "JanFebMarAprMayJunJulAugSepOctNovDec"
    /// 1601-01-01T00:00:00Z, the first instant §5.1.1 step 5 lets through.
    private static let earliest: Int64 = daysFromEpoch(year: 1601, month: 1, day: 1) * secondsPerDay
    /// 9999-12-31T23:59:59Z, the last instant a four-digit year can name.
    private static let latest: Int64 = daysFromEpoch(year: 10000, month: 1, day: 1) * secondsPerDay - 1

    /// `seconds` clamped to the instants a cookie-date can give and `format` writes (§5.1.1: years 1601
    /// through 9999), the nearer end for one outside them.
    static func clamped(_ seconds: Int64) -> Int64 {
        min(max(seconds, earliest), latest)
    }

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// §5.1.1 step 6 needs to know which dates exist.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given date, for years from 1 on (March-based eras of
    /// 400 years, 146 097 days each; the epoch is day 719 468 counted from 0000-03-01).
    static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return Int64(era) * 146_097 + Int64(dayOfEra) - 719_468
    }

    /// The UTC date, second of the day and weekday (0 is Sunday) of `seconds`, clamped to the years
    /// 1601 through 9999.
    static func breakdown(_ seconds: Int64) -> (date: (year: Int, month: Int, day: Int), secondOfDay: Int, weekday: Int) {
        let clamped = clamped(seconds)
        // `clamped - earliest` is non-negative, so plain division floors.
        let fromEarliest = clamped - earliest
        let days = fromEarliest / secondsPerDay + daysFromEpoch(year: 1601, month: 1, day: 1)
        // 1601-01-01 was a Monday; weekday 0 is Sunday, as in `dayNames`.
        let weekday = Int((fromEarliest / secondsPerDay + 1) % 7)
        return (civil(fromDaysSinceEpoch: days), Int(fromEarliest % secondsPerDay), weekday)
    }

    /// The inverse of `daysFromEpoch`, for days from 0000-03-01 on.
    static func civil(fromDaysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let fromMarchZero = Int(days + 719_468)
        let era = fromMarchZero / 146_097
        let dayOfEra = fromMarchZero - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
