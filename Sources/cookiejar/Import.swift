import ArgumentParser
import Cookies
import Foundation

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import the cookies of a file into a jar file (created if missing).",
        discussion: """
            The source may be any format the library reads (cookies.txt, JSON, a jar, Firefox \
            cookies.sqlite, Cookies.binarycookies). Nothing is imported when the source has an error, \
            unless --lenient, which skips bad entries and lists them. Expired cookies are dropped \
            (counted; they delete nothing); the source's session cookies are not kept in the jar file \
            unless --keep-session-cookies. The jar file's own cookies stay, apart from expired ones \
            (counted) and those the source holds a cookie of the same name, domain, path and partition \
            for, which replaces them (counted, and how many by an older cookie). The jar's limits \
            apply: beyond \(CookieLimits.default.maxCookiesPerSite) cookies a site, or \
            \(CookieLimits.default.maxCookies) in all, the least recently used are evicted, and the \
            evictions are listed by site; an expiry more than \(CookieLimits.default.maxAgeSeconds / 86_400) \
            days ahead is capped at that (counted), as for a cookie a server sets. A jar file holding \
            more (written with higher limits) is opened with them raised to what it holds: none of its \
            cookies is evicted, and an import beyond them evicts as many as it adds.

            --at sets the instant the import is evaluated at; it may not be later than now: the jar \
            file is opened at that instant, and opening a jar removes the cookies expired by then for \
            good (a cookie valid now would be lost).

            Examples:
              cookiejar import cookies.txt --into jar.sqlite
              cookiejar import ~/Library/Cookies/Cookies.binarycookies \\
                  --into jar.sqlite --keep-session-cookies

            Exit status: 0 all well, 2 usage, 3 unreadable input or jar file, 4 the jar file or standard \
            output cannot be written.
            """
    )

    @Argument(help: "The file to import ('-': standard input).", completion: .file())
    var source: String

    @Option(help: "The jar file to import into: a swift-cookiejar SQLite jar, created if missing.", completion: .file())
    var into: String

    @Flag(help: "Skip bad entries (listed on stderr) instead of importing nothing.")
    var lenient = false

    @Flag(help: "Keep session cookies in the jar file too.")
    var keepSessionCookies = false

    @Option(help: InstantArgument.help("Import at this instant (not later than now) instead of now:"))
    var at: InstantArgument?

    /// `--at` later than the wall clock's now is refused: the jar file is opened on the import's clock,
    /// and a jar removes the cookies expired by its clock's now from its file (rfc6265bis-22 §5.7: the
    /// user agent evicts expired cookies), so an instant to come would delete cookies still valid.
    func validate() throws {
        // "-" is standard input for every file argument of the tool; as --into it made a jar file named "-".
        if into == InputBytes.standardInputArgument {
            throw ValidationError("--into -: a jar file is read and written in place, not on standard input: give its path (it is created if missing)")
        }
        if let at, at.time > SystemCookieClock().now() {
            throw ValidationError(
                "--at: \(TimeFormatting.date(at.time)) is later than now: the jar file would be opened at that instant, and the cookies it holds that expire before then would be removed from it for good")
        }
    }

    func run() throws {
        try Import.checkIsAReadableFileIfItExists(into)
        let clock = clock(at: at)
        let now = clock.now()
        let contents = try readCookieFile(source, now: now, lenient: lenient)
        for skipped in contents.skipped { printError("skipped: \(skipped.description)") }
        // What the jar file holds is read first (read only), so that what opening it removes is told.
        let held = Import.cookiesHeld(in: into, now: now)
        var options = CookieJarFileOptions()
        // The file's own session cookies stay: importing is no relaunch of the app that keeps them. The
        // source's are left out unless --keep-session-cookies.
        options.persistsSessionCookies = true
        options.flushDelay = nil
        // Opened with the default limits, a file holding more (an app's with higher ones) lost cookies.
        let limits = ImportLimits(held: held ?? [], now: now)
        let jar: CookieJar
        do {
            jar = try CookieJar(contentsOf: into, options: options, limits: limits.limits, clock: clock)
        } catch {
            printError(error.description)
            if error.code == .notADatabase { printError(Import.notAJarHint(into)) }
            throw Import.exit(for: error)
        }
        let kept = keepSessionCookies ? contents.cookies : contents.cookies.filter(\.isPersistent)
        // Left out before the jar sees them: inserted, an expired cookie deletes the jar's of its identity.
        let imported = kept.unexpired(at: now)
        let jarCookies = jar.allCookies()
        let report = jar.insert(contentsOf: imported)
        let replacements = Import.replacements(of: jarCookies, in: jar, by: imported)
        do {
            try jar.close()
        } catch {
            printError(error.description)
            throw ToolExit.unwritableOutput
        }
        let sessions = contents.cookies.count - kept.count
        let expired = kept.count - imported.count + report.expired
        var summary = "imported \(report.stored) of \(contents.cookies.count) cookies from \(source) (\(contents.format.displayName)) into \(into)"
        summary += "; the jar file holds \(jar.count)" + (held.map { " (had \($0.count))" } ?? "")
        StandardOutput.print(summary)
        if let raised = limits.explanation { StandardOutput.print(raised) }
        if let expiredHeld = held?.count(where: { $0.isExpired(at: now) }), expiredHeld > 0 {
            StandardOutput.print("\(expiredHeld) cookie\(expiredHeld == 1 ? "" : "s") of the jar file had expired and \(expiredHeld == 1 ? "was" : "were") removed from it")
        }
        if !replacements.isEmpty {
            StandardOutput.print(Self.replacementText(replacements, sourceHasCreationTimes: contents.format != .cookiesTxt))
        }
        if report.superseded > 0 {
            let count = report.superseded
            StandardOutput.print(
                "\(count) cookie\(count == 1 ? " was" : "s were") replaced by a later one of the same name, domain, path and partition in \(source)")
        }
        if expired > 0 { StandardOutput.print("\(expired) expired cookie\(expired == 1 ? " was" : "s were") dropped") }
        if report.capped > 0 {
            let count = report.capped
            let days = jar.limits.maxAgeSeconds / 86_400
            StandardOutput.print(
                "\(count) cookie\(count == 1 ? "" : "s") expiring more than \(days) days ahead \(count == 1 ? "was" : "were") capped at \(days) days (§5.5)")
        }
        if !report.rejections.isEmpty { StandardOutput.print(Self.rejectionText(report), terminator: "") }
        if report.evictedCount > 0 {
            StandardOutput.print(Self.evictionText(report, limits: jar.limits, jarHeldCookies: held.map { !$0.isEmpty } ?? true), terminator: "")
        }
        if sessions > 0 {
            StandardOutput.print("\(sessions) session cookie\(sessions == 1 ? " is" : "s are") not kept in the file (use --keep-session-cookies)")
        }
    }

    /// Refuses a jar file `path` that exists and is no regular file once its links are followed (a named
    /// pipe, a device, a directory), before it is read or opened, as a jar file that cannot be read (exit 3):
    /// SQLite's open of a named pipe waits for a writer for ever, and of a device (`/dev/null`, as root)
    /// fails on its first write, leaving a `-journal` made beside it. A regular file that cannot be read
    /// (no read permission) is refused so too, as `inspect` and `export` refuse it: SQLite's open fails
    /// then as it fails for a file it cannot write, which is the import's output (exit 4).
    static func checkIsAReadableFileIfItExists(_ path: String) throws {
        guard let found = CookieFileSystem.state(path) else { return }
        guard found.isRegularFile else {
            printError("\(path): not a regular file: --into takes a swift-cookiejar SQLite jar file (created if missing)")
            throw ToolExit.unreadableInput
        }
        do {
            _ = try FileBytes.contents(atPath: path, limit: 1, prefix: 1)
        } catch {
            printError("\(path): cannot read the jar file: \(error.explanation)")
            throw ToolExit.unreadableInput
        }
    }

    /// The exit code of a jar file that cannot be opened: 3 when it cannot be read as a jar (another
    /// application's file, a damaged one, a newer schema), 4 when it cannot be written (a read-only file
    /// or directory, a full disk, a missing directory, its lock held by another connection).
    static func exit(for error: CookieFileError) -> ExitCode {
        switch error.code {
        case .notADatabase, .corrupt, .foreign, .newerSchema: ToolExit.unreadableInput
        default: ToolExit.unwritableOutput
        }
    }

    /// What to do about a jar file `path` that is no SQLite database: --into takes a jar, and a file whose
    /// content is a cookie file of another format (`CookieFileFormat(sniffing:)`) is said to be one, the
    /// source of an import rather than its target.
    static func notAJarHint(_ path: String) -> String {
        var hint = "--into takes a swift-cookiejar SQLite jar (created if missing)"
        let bytes = (try? FileBytes.contents(atPath: path, limit: CookieImportFile.maximumSize)) ?? []
        if !bytes.isEmpty, let format = CookieFileFormat(sniffing: bytes) {
            hint += "; \(path) looks like a \(format.displayName) file: import it into a jar with cookiejar import \(path) --into JAR.sqlite"
        }
        return hint
    }

    /// The cookies of the jar file at `path`, expired ones included, read without changing it: none when
    /// there is no file yet, nil when it cannot be read so (opening it as a jar then says why, or migrates
    /// an older schema).
    static func cookiesHeld(in path: String, now: CookieTime) -> [Cookie]? {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try? CookieImportFile.read(path: path, now: now).cookies
    }
}

extension Import {
    /// A cookie of the jar file that the import replaced with another of its identity, and the import's
    /// cookie of that identity (nil when the jar changed it: a partition key made canonical).
    struct Replacement {
        var held: Cookie
        var imported: Cookie?
    }

    /// The cookies of `held` (the jar's before the import) that `jar` now holds changed: replaced by a
    /// cookie of `imported` of the same identity (§5.7 step 23), the same cookie again not counted.
    static func replacements(of held: [Cookie], in jar: CookieJar, by imported: [Cookie]) -> [Replacement] {
        let before = Dictionary(held.map { (CookieIdentity($0), $0) }, uniquingKeysWith: { first, _ in first })
        let importedByIdentity = Dictionary(imported.map { (CookieIdentity($0), $0) }, uniquingKeysWith: { _, later in later })
        return jar.allCookies().compactMap { cookie in
            let identity = CookieIdentity(cookie)
            guard let previous = before[identity], previous != cookie else { return nil }
            return Replacement(held: previous, imported: importedByIdentity[identity])
        }
    }

    /// The jar file's cookies an import replaced, and how many of them with an older cookie (by creation
    /// time, which `sourceHasCreationTimes` says the source holds: cookies.txt does not).
    static func replacementText(_ replacements: [Replacement], sourceHasCreationTimes: Bool) -> String {
        let count = replacements.count
        var text = "\(count) cookie\(count == 1 ? "" : "s") of the jar file \(count == 1 ? "was" : "were") replaced by the import's of the same name, domain, path and partition"
        if !sourceHasCreationTimes {
            text += " (cookies.txt holds no creation times: which was newer is not known)"
        } else {
            let older = replacements.count { replacement in
                replacement.imported.map { $0.creation < replacement.held.creation } ?? false
            }
            if older > 0 { text += " (\(older) by an older cookie, by creation time)" }
        }
        return text
    }

    /// The cookies of an import that the jar refused (`CookieJar.insert(_:)`: none a `Set-Cookie` line
    /// could have given), by reason.
    static func rejectionText(_ report: CookieInsertionReport) -> String {
        let total = report.rejections.values.reduce(0, +)
        var text = "\(total) cookie\(total == 1 ? " was" : "s were") refused by the jar (no Set-Cookie line could set \(total == 1 ? "it" : "them")):\n"
        for (reason, count) in report.rejections.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            text += "  \(count) \(reason.rawValue): \(reason.explanation)\n"
        }
        return text
    }

    /// Sites listed by name in an eviction report; the rest are counted.
    static let listedSites = 10

    /// The evictions of an import: how many each limit evicted, from which sites, and why no import can
    /// keep them (a jar file does not record limits: a jar opened on it with the default ones evicts
    /// them again); `jarHeldCookies`: the jar file held cookies before, which may be among them.
    static func evictionText(_ report: CookieInsertionReport, limits: CookieLimits, jarHeldCookies: Bool) -> String {
        let total = report.evictedCount
        var text = "\(total) cookie\(total == 1 ? " was" : "s were") evicted by the jar's limits (the least recently used first):\n"
        for limit in CookieEviction.Limit.allCases {
            let evictions = report.evictions.filter { $0.limit == limit }
            guard !evictions.isEmpty else { continue }
            let count = report.evictedCount(by: limit)
            let rule = switch limit {
            case .perSite:
                "per-site limit (over \(limits.maxCookiesPerSite) cookies a site, or a partition of it, is cut to "
                    + "\(limits.maxCookiesPerSite - limits.sitePurgeCount), non-Secure cookies first)"
            case .total:
                "jar-wide limit (over \(limits.maxCookies) cookies the jar is cut to \(limits.maxCookies - limits.purgeCount))"
            }
            text += "  \(count) by the \(rule):"
            text += evictions.prefix(listedSites).map { " \($0.site) \($0.count)" }.joined(separator: ",")
            if evictions.count > listedSites { text += " and \(evictions.count - listedSites) more sites" }
            text += "\n"
        }
        text += "the jar's limits apply: a jar file does not record limits, and a jar opened on it with the default ones would evict these again; "
        text += jarHeldCookies ? "the least recently used may be cookies the jar file held before\n" : "the source file still has them all\n"
        return text
    }
}
