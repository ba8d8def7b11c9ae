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
    /// - SQLite and binarycookies by their magic numbers;
    /// - JSON when the first byte after an optional UTF-8 byte order mark and whitespace is `{` or `[`;
    /// - cookies.txt for any other text: empty, or starting with `#`, or whose first line holds a TAB.
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
        if prefix.starts(with: binaryCookiesMagic) { return .binaryCookies }
        var index = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < prefix.count, prefix[index] == 0x20 || prefix[index] == 0x09 || prefix[index] == 0x0A
            || prefix[index] == 0x0D
        {
            index += 1
        }
        guard index < prefix.count else { return isComplete ? .cookiesTxt : nil }
        switch prefix[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        case UInt8(ascii: "#"): return .cookiesTxt
        default:
            // A first line holding a TAB and no NUL or other control byte: a cookies.txt line.
            var sawTab = false
            for byte in prefix[index...] {
                if byte == 0x0A || byte == 0x0D { break }
                if byte == 0x09 { sawTab = true } else if byte < 0x20 || byte == 0x7F { return nil }
            }
            return sawTab ? .cookiesTxt : nil
        }
    }
}
