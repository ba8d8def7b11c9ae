// The instants of the JSON format: RFC 3339 §5.6 date-time in UTC with exactly six fraction digits,
// e.g. "2025-01-01T00:00:00.000000Z", so that every microsecond of a CookieTime survives.
//
//   date-time = full-date "T" full-time
//   full-date = date-fullyear "-" date-month "-" date-mday      ; 4DIGIT "-" 2DIGIT "-" 2DIGIT
//   full-time = partial-time time-offset                        ; only "Z" is read and written here
//   partial-time = time-hour ":" time-minute ":" time-second [time-secfrac]

extension CookieTime {
    /// The first instant a four-digit year can name: 0001-01-01T00:00:00Z.
    static let earliestISO8601 = CookieTime(
        microsecondsSinceEpoch: CookieDate.daysFromEpoch(year: 1, month: 1, day: 1) * CookieDate.secondsPerDay * 1_000_000)
    /// The last one: 9999-12-31T23:59:59.999999Z.
    static let latestISO8601 = CookieTime(
        microsecondsSinceEpoch: CookieDate.daysFromEpoch(year: 10000, month: 1, day: 1) * CookieDate.secondsPerDay
            * 1_000_000 - 1)

    /// How many bytes `appendISO8601(to:)` writes.
    static let iso8601Length = 27

    /// Appends this instant as `YYYY-MM-DDTHH:MM:SS.ffffffZ`; an instant outside years 0001–9999 is
    /// clamped to the nearer end (no cookie the jar accepted from a server has one).
    func appendISO8601(to out: inout CookieFileWriter) {
        let clamped = min(max(self, Self.earliestISO8601), Self.latestISO8601).microsecondsSinceEpoch
        let fromEarliest = clamped - Self.earliestISO8601.microsecondsSinceEpoch  // non-negative
        let microsPerDay = CookieDate.secondsPerDay * 1_000_000
        let date = CookieDate.civil(
            fromDaysSinceEpoch: fromEarliest / microsPerDay + CookieDate.daysFromEpoch(year: 1, month: 1, day: 1))
        let microOfDay = fromEarliest % microsPerDay
        let secondOfDay = Int(microOfDay / 1_000_000)
        let micros = Int(microOfDay % 1_000_000)
        out.appendTwoDigits(date.year / 100)
        out.appendTwoDigits(date.year % 100)
        out.append(UInt8(ascii: "-"))
        out.appendTwoDigits(date.month)
        out.append(UInt8(ascii: "-"))
        out.appendTwoDigits(date.day)
        out.append(UInt8(ascii: "T"))
        out.appendTwoDigits(secondOfDay / 3600)
        out.append(UInt8(ascii: ":"))
        out.appendTwoDigits(secondOfDay / 60 % 60)
        out.append(UInt8(ascii: ":"))
        out.appendTwoDigits(secondOfDay % 60)
        out.append(UInt8(ascii: "."))
        out.appendTwoDigits(micros / 10_000)
        out.appendTwoDigits(micros / 100 % 100)
        out.appendTwoDigits(micros % 100)
        out.append(UInt8(ascii: "Z"))
    }

    /// The instant written as `YYYY-MM-DDTHH:MM:SS[.f…]Z` (0 to 6 fraction digits, "T" and "Z" in either
    /// case), or nil for anything else, including impossible dates and times.
    init?(iso8601 text: UnsafeBufferPointer<UInt8>) {
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= text.count else { return nil }
            var value = 0
            for _ in 0..<count {
                let byte = text[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }
        func separator(_ expected: UInt8) -> Bool {
            guard index < text.count, text[index] | 0x20 == expected | 0x20 else { return false }
            index += 1
            return true
        }
        guard let year = number(4), year >= 1, separator(UInt8(ascii: "-")),
            let month = number(2), (1...12).contains(month), separator(UInt8(ascii: "-")),
            let day = number(2), day >= 1, day <= CookieDate.daysIn(month: month, year: year),
            separator(UInt8(ascii: "t")),
            let hour = number(2), hour < 24, separator(UInt8(ascii: ":")),
            let minute = number(2), minute < 60, separator(UInt8(ascii: ":")),
            let second = number(2), second < 60
        else { return nil }
        var micros = 0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 100_000
            let start = index
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                guard scale > 0 else { return nil }
                micros += Int(text[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard separator(UInt8(ascii: "z")), index == text.count else { return nil }
        let days = CookieDate.daysFromEpoch(year: year, month: month, day: day)
        let seconds = days * CookieDate.secondsPerDay + Int64(hour * 3600 + minute * 60 + second)
        self.init(microsecondsSinceEpoch: seconds * 1_000_000 + Int64(micros))
    }
}
