import Cookies

/// Reads a cookie file of any format the library reads; an error becomes one line on stderr and exit 3.
func readCookieFile(_ path: String, now: CookieTime, lenient: Bool = false) throws -> CookieFileContents {
    do {
        return try CookieImportFile.read(path: path, now: now, lenient: lenient)
    } catch {
        printError(error.description)
        throw ToolExit.unreadableInput
    }
}

/// The site each cookie belongs to: the registrable domain of its domain, or the domain itself; one
/// public-suffix lookup per distinct domain.
struct SiteIndex {
    private var sites: [String: String] = [:]
    let list: any PublicSuffixList

    init(list: any PublicSuffixList = SystemPublicSuffixList.shared) {
        self.list = list
    }

    mutating func site(of cookie: Cookie) -> String {
        if let site = sites[cookie.domain] { return site }
        let site = SiteIndex.site(ofHost: cookie.domain, list: list)
        sites[cookie.domain] = site
        return site
    }

    /// The site of a host or domain the user named (any case): its registrable domain, or itself.
    static func site(ofHost text: String, list: any PublicSuffixList = SystemPublicSuffixList.shared) -> String {
        CanonicalHost(text).map { list.registrableDomain(of: $0) ?? $0.name } ?? text.lowercased()
    }
}
