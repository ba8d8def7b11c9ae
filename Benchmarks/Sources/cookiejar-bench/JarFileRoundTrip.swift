import Cookies

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The persistence phases of the driver contract with the library's SQLite jar file
/// (`CookieJar(contentsOf:)`): WAL journal, `synchronous=NORMAL` (`CookieJarFileOptions`' defaults), one
/// row per persistent cookie; session cookies are not written (`persistsSessionCookies` false, as
/// Rust's `save_json`). `flushDelay` is nil, so nothing is written before `close()`.
///
/// - save: before each run, untimed, the file is removed and a jar opened on it receives every cookie
///   of the large jar (`insert(contentsOf:)`, which records each as a pending row); timed is `close()`:
///   one transaction upserting every row, then the WAL checkpoint into the database file.
/// - load: timed is `CookieJar(contentsOf:)` on that file: open, schema check, read every row, purge
///   expired rows, insert into a new jar. The previous run's jar is closed untimed.
struct JarFileRoundTrip {
    let path: String
    let limits: CookieLimits
    let publicSuffixList: any PublicSuffixList

    static let description =
        "SQLite jar file (WAL, synchronous=NORMAL; one row per persistent cookie, session cookies not written): "
        + "save = close() writing every cookie pending in a CookieJar(contentsOf:) in one transaction + checkpoint; "
        + "load = CookieJar(contentsOf:)"

    var options: CookieJarFileOptions {
        var options = CookieJarFileOptions()
        options.flushDelay = nil
        return options
    }

    /// Times saving `jar` and loading the file back; sets `save_ms`, `file_bytes`, `load_ms`,
    /// `loaded_cookies` and `persist`.
    func measure(_ jar: CookieJar, timer: inout PhaseTimer, report: inout DriverReport) {
        let cookies = jar.allCookies()
        var saving: CookieJar?
        let saveSeconds = timer.median("save", prepare: {
            removeFiles()
            saving = open()
            saving?.insert(contentsOf: cookies)
        }) {
            close(saving)
        }
        report.set("save_ms", saveSeconds * 1000)
        report.set("file_bytes", fileBytes(path) + fileBytes(path + "-wal"))

        var loaded: CookieJar?
        var loadedCount = 0
        let loadSeconds = timer.median("load", prepare: {
            close(loaded)
            loaded = nil
        }) {
            loaded = open()
            loadedCount = loaded?.count ?? 0
        }
        close(loaded)
        report.set("load_ms", loadSeconds * 1000)
        report.set("loaded_cookies", loadedCount)
        report.set("persist", Self.description)
        removeFiles()
    }

    private func open() -> CookieJar {
        do {
            return try CookieJar(contentsOf: path, options: options, publicSuffixList: publicSuffixList, limits: limits)
        } catch {
            printError(error.description)
            exit(3)
        }
    }

    private func close(_ jar: CookieJar?) {
        do {
            try jar?.close()
        } catch {
            printError(error.description)
            exit(3)
        }
    }

    /// The jar file and SQLite's companions of it.
    private func removeFiles() {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// The size of the file at `path`; 0 when there is none.
    private func fileBytes(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
}
