import Testing
#if LibPSL && canImport(CLibPSL)
import CLibPSL
#endif
@testable import Cookies

/// The default list: the newest available, never the "*" rule alone.
struct SystemPublicSuffixListTests {
    /// Facts: the real list's well-known rules (publicsuffix.org/list: "com", "co.uk", "github.io" in the PRIVATE
    /// section), in every copy of the list for many years, so whichever list is chosen knows them.
    @Test(arguments: [
        ("com", nil), ("www.example.com", "example.com"), ("co.uk", nil), ("www.example.co.uk", "example.co.uk"),
        ("github.io", nil), ("user.github.io", "user.github.io"),
    ] as [(String, String?)])
    func knowsTheRealList(domain: String, expected: String?) {
        #expect(SystemPublicSuffixList.shared.registrableDomain(of: domain) == expected)
        #if LibPSL && canImport(CLibPSL)
        #expect(LibPSLList.latest().registrableDomain(of: domain) == expected)
        #endif
    }

    /// The list chosen is the compiled-in one unless libpsl's is strictly newer.
    @Test func choosesTheNewestList() throws {
        let info = try #require(SystemPublicSuffixList.shared.info)
        #if LibPSL && canImport(CLibPSL)
        let compiledDate = try #require(CompiledPublicSuffixList.shared.info?.date)
        let libpslIsNewer = LibPSLList.latestDate.map { $0 > compiledDate } ?? false
        #expect(info.source == (libpslIsNewer ? .libpsl : .compiledIn))
        #else
        #expect(info.source == .compiledIn)
        #endif
    }

    #if LibPSL && canImport(CLibPSL)
    /// libpsl's date is no older than any file `psl_latest` may load in place of its built-in data: it stats
    /// the distribution's file and the list file the built-in data was made from (strace of `psl_latest(NULL)`
    /// on libpsl 0.21.2: `public_suffix_list.dafsa`, then `public_suffix_list.dat`).
    @Test func libpslsDateCoversEveryFileItLoadsFrom() throws {
        let date = try #require(LibPSLList.latestDate)
        for file in [psl_dist_filename(), psl_builtin_filename()].compactMap({ $0 }) {
            if let modified = FileBytes.modificationTime(atPath: String(cString: file)) {
                #expect(date >= modified, "\(String(cString: file))")
            }
        }
    }
    #endif

    static let old = PublicSuffixRules(parsing: "com\n", info: PublicSuffixListInfo(
        source: .file, date: CookieTime(secondsSinceEpoch: Int64(1_675_900_800)), path: "old.dat"))  // 2023-02-09
    static let new = PublicSuffixRules(parsing: "com\n", info: PublicSuffixListInfo(
        source: .file, date: CookieTime(secondsSinceEpoch: Int64(1_787_097_600)), path: "new.dat"))  // 2026-08-19
    static let undated = PublicSuffixRules(parsing: "com\n")

    /// (first list, the other's date, the other list) → the path of the list chosen, and whether the other was
    /// loaded at all (it is loaded only when chosen: libpsl's list costs a load).
    @Test(arguments: [
        (old, new, "new.dat"),  // the other is newer
        (new, old, "new.dat"),  // the first is newer: the other is never loaded
        (new, new, "new.dat"),  // same date: the first (the compiled-in list)
        (undated, new, "new.dat"),  // the first's date unknown: a dated list wins
    ])
    func newestOfTwo(first: PublicSuffixRules, other: PublicSuffixRules, chosen: String) {
        var loaded = false
        let list = SystemPublicSuffixList.newest(first, publishedAt: first.info?.date, or: other.info?.date) {
            loaded = true
            return other
        }
        #expect(list.info?.path == chosen)
        #expect(loaded == (other.info?.path == chosen && first.info?.path != chosen))
    }

    @Test func anUndatedOtherListIsNeverPreferred() {
        var loaded = false
        let list = SystemPublicSuffixList.newest(Self.old, publishedAt: Self.old.info?.date, or: nil) {
            loaded = true
            return Self.undated
        }
        #expect(list.info?.path == "old.dat")
        #expect(!loaded)
    }
}
