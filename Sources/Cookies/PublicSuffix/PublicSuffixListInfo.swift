/// Which public suffix list a `PublicSuffixList` holds: where it came from and how old it is, so that the
/// newest one can be chosen (`SystemPublicSuffixList`) and a stale one noticed (`cookiejar psl --info`).
public struct PublicSuffixListInfo: Sendable, Hashable {
    /// Where a list's rules come from.
    public enum Source: String, Sendable, Hashable {
        /// Compiled into `Cookies` from the repository's copy of the list (`CompiledPublicSuffixList`).
        case compiledIn = "compiled-in"
        /// libpsl's newest list: its built-in data or the distribution's list file (`LibPSLList.latest()`).
        case libpsl
        /// A list file loaded at run time (`PublicSuffixRules(contentsOfFile:)`, `LibPSLList(contentsOfFile:)`).
        case file
    }

    /// Where the rules come from.
    public var source: Source
    /// When the list was published, as well as it is known: the upstream commit's date for the compiled-in
    /// list, the newer of libpsl's built-in data and its list file's modification time for libpsl, the
    /// file's modification time for a file. Nil when unknown (such a list is never preferred as newer).
    public var date: CookieTime?
    /// How many rules the list holds (normal, wildcard and exception rules, both sections), when known.
    public var ruleCount: Int?
    /// The upstream revision (`publicsuffix/list@<commit>`), when known.
    public var revision: String?
    /// The SHA-256 of the list file the rules came from (64 lower-case hex digits), when known.
    public var sha256: String?
    /// The file the rules were read from, when they were.
    public var path: String?

    /// Describes a list; only `source` and `date` are required.
    public init(
        source: Source, date: CookieTime?, ruleCount: Int? = nil, revision: String? = nil, sha256: String? = nil,
        path: String? = nil
    ) {
        self.source = source
        self.date = date
        self.ruleCount = ruleCount
        self.revision = revision
        self.sha256 = sha256
        self.path = path
    }
}
