import Cookies
import Foundation

/// Reads a cookie file of any format the library reads; an error becomes one line on stderr and exit 3.
/// A Firefox database is read as it is on disk, without its write-ahead log: when that log holds
/// changes (Firefox running, or quit without a checkpoint), a warning says that they are not read. An
/// empty file (read as a cookies.txt without cookies: a file a failed download or a shell's `>` left)
/// is said to be one. A `path` of "-" is standard input, read through /dev/stdin (a format of text or
/// bytes, or a database redirected from its file), and named "standard input" in messages.
func readCookieFile(_ argument: String, now: CookieTime, lenient: Bool = false) throws -> CookieFileContents {
    let isStandardInput = argument == InputBytes.standardInputArgument
    let path = isStandardInput ? "/dev/stdin" : argument
    let name = isStandardInput ? "standard input" : argument
    // A closed standard input (`<&-`) has no /dev/stdin: said as `explain` says it.
    if isStandardInput, fcntl(STDIN_FILENO, F_GETFD) < 0 {
        printError("standard input: cannot read it: \(String(cString: strerror(errno)))")
        throw ToolExit.unreadableInput
    }
    let contents: CookieFileContents
    do {
        contents = try CookieImportFile.read(path: path, now: now, lenient: lenient)
    } catch {
        printError(CookieFileError(error.code, path: name, line: error.line, offset: error.offset, detail: error.detail).description)
        throw ToolExit.unreadableInput
    }
    for leftOut in contents.leftOut { printError("\(name): \(leftOut)") }
    if contents.cookies.isEmpty, CookieFileSystem.state(path)?.isEmptyRegularFile == true {
        printError("\(name): empty file: no cookies")
    }
    if contents.format == .firefox, let size = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int, size > 0 {
        printError("\(path): its write-ahead log \(path)-wal holds changes not read here (Firefox is running, or quit without a checkpoint): close Firefox, or copy both files and run sqlite3 COPY 'PRAGMA wal_checkpoint' on the copy")
    }
    return contents
}
