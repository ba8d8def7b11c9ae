/// The list a jar uses unless told otherwise: the newest one available.
///
/// - With libpsl linked (Linux, the `LibPSL` package trait, on by default): libpsl's newest list
///   (`LibPSLList.latest()`) when it is newer than the compiled-in list, else the compiled-in list. libpsl's
///   list is only loaded when it is the newer one.
/// - Everywhere else (iOS, macOS, Android, Windows, Linux without the trait): the compiled-in list
///   (`CompiledPublicSuffixList`).
///
/// No platform is ever left with the "*" rule alone. A caller wanting another list (one downloaded at run time:
/// `PublicSuffixRules(contentsOfFile:)`) passes it to the jar.
public enum SystemPublicSuffixList {
    /// The list, chosen and loaded once, on first use.
    public static let shared: any PublicSuffixList = load()

    #if LibPSL && canImport(CLibPSL)
    private static func load() -> any PublicSuffixList {
        newest(
            CompiledPublicSuffixList.shared, publishedAt: CompiledPublicSuffixList.publishedTime,
            or: LibPSLList.latestDate
        ) { LibPSLList.latest() }
    }
    #else
    private static func load() -> any PublicSuffixList {
        CompiledPublicSuffixList.shared
    }
    #endif

    /// The list `list` makes, published at `date`, unless the other candidate, published at `otherDate`, is
    /// strictly newer: then the list that `other` makes. Only the chosen list is made (the compiled-in list's
    /// table, libpsl's loading). A candidate of unknown date is never preferred.
    static func newest(
        _ list: @autoclosure () -> any PublicSuffixList, publishedAt date: CookieTime?, or otherDate: CookieTime?,
        other: () -> any PublicSuffixList
    ) -> any PublicSuffixList {
        guard let otherDate else { return list() }
        guard let date else { return other() }
        return otherDate > date ? other() : list()
    }
}
