import ArgumentParser
import Cookies

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import the cookies of a file into a jar file (created if missing).",
        discussion: """
            The source may be any format the library reads (cookies.txt, JSON, a jar, Firefox \
            cookies.sqlite, Cookies.binarycookies). Nothing is imported when the source has an error, \
            unless --lenient, which skips bad entries and lists them. Expired cookies are dropped; \
            session cookies are not kept in the jar file unless --keep-session-cookies.

            Examples:
              cookiejar import cookies.txt --into jar.sqlite
              cookiejar import ~/Library/Cookies/Cookies.binarycookies \\
                  --into jar.sqlite --keep-session-cookies

            Exit status: 0 all well, 2 usage, 3 unreadable input or jar.
            """
    )

    @Argument(help: "The file to import.", completion: .file())
    var source: String

    @Option(help: "The jar file to import into.", completion: .file())
    var into: String

    @Flag(help: "Skip bad entries (listed on stderr) instead of importing nothing.")
    var lenient = false

    @Flag(help: "Keep session cookies in the jar file too.")
    var keepSessionCookies = false

    @Option(help: "Import at this instant (Unix seconds) instead of now.")
    var at: Double?

    func run() throws {
        let clock = clock(at: at)
        let contents = try readCookieFile(source, now: clock.now(), lenient: lenient)
        for skipped in contents.skipped { printError("skipped: \(skipped.description)") }
        var options = CookieFileOptions()
        options.persistsSessionCookies = keepSessionCookies
        options.flushDelay = nil
        let jar: CookieJar
        do {
            jar = try CookieJar(contentsOf: into, options: options, clock: clock)
        } catch {
            printError(error.description)
            throw ToolExit.unreadableInput
        }
        func kept() -> Int { keepSessionCookies ? jar.count : jar.allCookies().filter(\.isPersistent).count }
        let before = kept()
        let imported = jar.insert(contentsOf: contents.cookies)
        do {
            try jar.close()
        } catch {
            printError(error.description)
            throw ToolExit.unreadableInput
        }
        let now = clock.now()
        let expired = contents.cookies.filter { $0.isExpired(at: now) }.count
        let sessions = contents.cookies.filter { !$0.isPersistent }.count
        var summary = "imported \(imported) of \(contents.cookies.count) cookies from \(source) (\(contents.format.displayName)) into \(into)"
        summary += "; the jar file holds \(kept()) (had \(before))"
        print(summary)
        if expired > 0 { print("\(expired) expired cookie\(expired == 1 ? " was" : "s were") dropped") }
        if sessions > 0, !keepSessionCookies {
            print("\(sessions) session cookie\(sessions == 1 ? " is" : "s are") not kept in the file (use --keep-session-cookies)")
        }
    }
}
