/// The cookie file formats this library recognises, told apart by content, never by file name.
public enum CookieFileFormat: String, Sendable, Hashable, CaseIterable {
    /// An SQLite database (magic "SQLite format 3\0", https://www.sqlite.org/fileformat.html §1.3.1):
    /// what sniffing says of the jar's own store and of Firefox's `cookies.sqlite`. `CookieImportFile.read`
    /// tells the two apart by their content: this case then names the jar's own store.
    case sqlite
    /// Firefox's `cookies.sqlite` (`FirefoxCookies`): an SQLite database with a `moz_cookies` table.
    /// Sniffing never gives it (it gives `sqlite`); reading a file does.
    case firefox
    /// A swift-cookiejar JSON document (`CookieJSON`).
    case json
    /// Netscape `cookies.txt` (`CookiesTxt`).
    case cookiesTxt
    /// Apple `Cookies.binarycookies` (`BinaryCookies`).
    case binaryCookies

    /// The format of `bytes`, or nil when they are none of these.
    ///
    /// - SQLite and binarycookies by their magic numbers (binarycookies unless the first line is a
    ///   cookies.txt line);
    /// - JSON when the first byte after an optional UTF-8 byte order mark and whitespace is `{`, or `[`
    ///   but for a cookies.txt line whose domain is an IPv6 literal (`[::1]` and a TAB);
    /// - cookies.txt for any other text: empty, or starting with `#`, or whose first line holds a TAB
    ///   (a first line starting with "cook", binarycookies' magic, included).
    public init?(sniffing bytes: some Collection<UInt8>) {
        var prefix: [UInt8] = []
        prefix.reserveCapacity(Self.sniffLength)
        for byte in bytes.prefix(Self.sniffLength) { prefix.append(byte) }
        guard let format = Self.sniff(prefix, isComplete: prefix.count == bytes.count) else { return nil }
        self = format
    }

    /// How many leading bytes sniffing looks at.
    static let sniffLength = 4096

    static let sqliteMagic = Array("SQLite format 3\0".utf8)
    private static let binaryCookiesMagic = Array("cook".utf8)

    private static func sniff(_ prefix: [UInt8], isComplete: Bool) -> CookieFileFormat? {
        if prefix.starts(with: sqliteMagic) { return .sqlite }
        // A cookies.txt line may start with "cook" too (cookpad.com): binarycookies' page count follows
        // its magic, big-endian, so a NUL comes before any line end.
        if prefix.starts(with: binaryCookiesMagic) { return isCookiesTxtLine(prefix[...]) ? .cookiesTxt : .binaryCookies }
        var index = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < prefix.count, prefix[index] == 0x20 || prefix[index] == 0x09 || prefix[index] == 0x0A
            || prefix[index] == 0x0D
        {
            index += 1
        }
        guard index < prefix.count else { return isComplete ? .cookiesTxt : nil }
        switch prefix[index] {
        case UInt8(ascii: "{"): return .json
        // A cookies.txt line whose domain is an IPv6 literal starts with "[" too.
        case UInt8(ascii: "["): return startsWithIPv6LiteralField(prefix[index...]) ? .cookiesTxt : .json
        case UInt8(ascii: "#"): return .cookiesTxt
        default: return isCookiesTxtLine(prefix[index...]) ? .cookiesTxt : nil
        }
    }

    /// True when `line` (to its first line end) holds a TAB and no NUL or other control byte: a cookies.txt
    /// line.
    private static func isCookiesTxtLine(_ line: ArraySlice<UInt8>) -> Bool {
        var sawTab = false
        for byte in line {
            if byte == 0x0A || byte == 0x0D { break }
            if byte == 0x09 { sawTab = true } else if byte < 0x20 || byte == 0x7F { return false }
        }
        return sawTab
    }

    /// True when `line` starts with an IPv6 literal in brackets (hex digits, ":" and "." for an embedded
    /// IPv4 address) and a TAB: the domain field of a cookies.txt line, which no JSON document starts with.
    private static func startsWithIPv6LiteralField(_ line: ArraySlice<UInt8>) -> Bool {
        guard let close = line.firstIndex(of: UInt8(ascii: "]")), close > line.startIndex + 1,
            close + 1 < line.endIndex, line[close + 1] == 0x09
        else { return false }
        return line[(line.startIndex + 1)..<close].allSatisfy { byte in
            byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") || (0x30...0x39).contains(byte)
                || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
    }
}
