import Cookies

/// Reads a cookie file of any format the library reads; an error becomes one line on stderr and exit 3.
func readCookieFile(_ path: String, now: CookieTime, lenient: Bool = false) throws -> CookieFileContents {
    do {
        return try CookieFile.read(path: path, now: now, lenient: lenient)
    } catch {
        printError(error.description)
        throw ToolExit.unreadableInput
    }
}

/// The site a cookie belongs to: the registrable domain of its domain, or the domain itself.
func siteOfCookie(_ cookie: Cookie, list: any PublicSuffixList = SystemPublicSuffixList.shared) -> String {
    guard let host = CanonicalHost(cookie.domain) else { return cookie.domain }
    return list.registrableDomain(of: host) ?? host.name
}

/// The site the user named with `--site` (a host or registrable domain, any case).
func siteFilter(_ text: String, list: any PublicSuffixList = SystemPublicSuffixList.shared) -> String {
    guard let host = CanonicalHost(text) else { return text.lowercased() }
    return list.registrableDomain(of: host) ?? host.name
}
