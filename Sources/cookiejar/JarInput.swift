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
