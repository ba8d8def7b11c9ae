/// The public suffix list compiled into `Cookies`: the repository's copy of publicsuffix.org's list
/// (`public_suffix_list.dat` beside this file, MPL-2.0), generated into `CompiledPublicSuffixList+Rules.swift` by
/// `swift run PublicSuffixListGenerator` (README, "Public suffix list"). Both sections, ICANN and PRIVATE, as
/// `PublicSuffixRules` reads them, with IDN rules as A-labels.
///
/// It is the default list on every platform without libpsl (iOS, macOS, Android, Windows) and, where libpsl is
/// linked, unless libpsl's list is newer (`SystemPublicSuffixList`).
public enum CompiledPublicSuffixList {
    /// The list, built from the compiled-in rules on first use (about a millisecond; the lookups then
    /// allocate only the answer).
    public static let shared = makeList()

    /// When the compiled-in revision was published: midnight UTC of its day, in seconds since the Unix epoch.
    public static var publishedAt: Int64 {
        CookieDate.daysFromEpoch(year: publishedOn.year, month: publishedOn.month, day: publishedOn.day) * 86_400
    }

    /// `publishedAt` as an instant: the list's date, known without making the list.
    static var publishedTime: CookieTime { CookieTime(secondsSinceEpoch: publishedAt) }

    /// Parses the compiled-in rules into a list's table: what `shared` does once.
    @_spi(Benchmarking)
    public static func makeList() -> PublicSuffixRules {
        rules.withUTF8Buffer { rules in
            PublicSuffixRules(parsing: rules, info: PublicSuffixListInfo(
                source: .compiledIn, date: publishedTime, revision: revision,
                sha256: sha256))
        }
    }
}
