import ArgumentParser
import Cookies
import Foundation

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the cookies of a jar file, or which of them a request would carry and why not.",
        discussion: """
            Reads every format the library reads, recognised from the content: our SQLite jar, JSON, \
            cookies.txt, Firefox cookies.sqlite and Apple Cookies.binarycookies. The file is only read. \
            Values are shortened and masked unless --show-values.

            Examples:
              cookiejar inspect Tests/Samples/app-jar.sqlite
              cookiejar inspect cookies.txt --site example.com --session
              cookiejar inspect jar.sqlite --url https://api.example.com/me
              cookiejar inspect jar.sqlite --url https://api.example.com/ \\
                  --site-for-cookies https://other.test
              cookiejar inspect jar.sqlite --json

            Exit status: 0 all well, 2 usage, 3 unreadable input, 4 unwritable output.
            """
    )

    @Argument(help: "The jar file ('-': standard input).", completion: .file())
    var file: String

    @Option(help: "Only cookies of this site (a host, a registrable domain, or a URL of it).")
    var site: String?

    @Option(help: "Only cookies with this name.")
    var name: String?

    @Flag(help: "Only expired cookies.")
    var expired = false

    @Flag(help: "Only session cookies.")
    var session = false

    @Flag(help: "Show cookie values in full.")
    var showValues = false

    @Flag(help: "Print the cookies as swift-cookiejar JSON instead of a table (values in full).")
    var json = false

    @Option(help: "Show the Cookie header of a request to this URL, and why each other cookie of its site stays off it.")
    var url: String?

    @OptionGroup var request: RequestContextOptions

    @Option(help: InstantArgument.help("Evaluate at this instant instead of now:"))
    var at: InstantArgument?

    func validate() throws {
        if url != nil, json { throw ValidationError("--json and --url cannot be combined") }
        if let url { _ = try parseRequestURL(url) }
        if let site, Self.host(ofSite: site) == nil {
            throw ValidationError("--site: not a host, a registrable domain or a URL of one: \(site)")
        }
        // The context is a request's: without --url there is none for it to change.
        let given = request.given
        if url == nil, !given.isEmpty {
            throw ValidationError("\(given.joined(separator: ", ")) \(given.count == 1 ? "needs" : "need") --url: without it there is no request to describe")
        }
    }

    /// The host `--site` names: a host or domain as the user wrote it (any case, U-labels), with or without
    /// the leading "." the DOMAIN column writes a domain cookie's domain with, or a URL's host; nil when it
    /// names none.
    static func host(ofSite site: String) -> CanonicalHost? {
        CanonicalHost(site.hasPrefix(".") ? String(site.dropFirst()) : site) ?? CookieURL(site)?.host
    }

    func run() throws {
        let now = clock(at: at).now()
        let contents = try readCookieFile(file, now: now)
        let list = SystemPublicSuffixList.shared
        let wantedSite = site.flatMap(Self.host(ofSite:)).map(list.site(of:))
        let isShown = { (cookie: Cookie) in
            (wantedSite == nil || list.site(of: cookie) == wantedSite) && (name == nil || cookie.name == name)
                && (!expired || cookie.isExpired(at: now)) && (!session || !cookie.isPersistent)
        }
        let cookies = contents.cookies.filter(isShown)
        let terminal = Terminal.standardOutput
        let table = CookieTable(showValues: showValues, now: now, terminal: terminal)
        if json {
            // Written a chunk at a time: the document is never whole in memory. After a failed write the
            // rest is dropped (`StandardOutput`).
            CookieJSON.serialize(cookies) { chunk in OutputText.writeToStandardOutput(chunk) }
            return
        }
        var out = OutputText(streaming: true)
        if let url {
            // The header is the request's, of every cookie of the file; the filters choose the rows shown.
            requestReport(
                try parseRequestURL(url), cookies: contents.cookies, showing: isShown, list: list, now: now, table: table,
                to: &out)
        } else {
            out.append(contentsOf: terminal.dim("\(file) (\(contents.format.displayName))") + "\n")
            table.render(cookies, site: list.site(of:), to: &out)
        }
        out.writeToStandardOutput()
    }

    /// The `Cookie` header of a request (of `cookies`, every cookie of the file) and, for each cookie of its
    /// site that `isShown`, whether it goes on the request, or the reason it stays off.
    private func requestReport(
        _ requestURL: CookieURL, cookies: [Cookie], showing isShown: (Cookie) -> Bool, list: any PublicSuffixList,
        now: CookieTime, table: CookieTable, to out: inout OutputText
    ) {
        let jar = CookieJar(publicSuffixList: list, clock: ManualCookieClock(now))
        let requestSite = list.site(of: requestURL.host)
        let ofSite = cookies.filter { list.site(of: $0) == requestSite }
        let unexpired = ofSite.unexpired(at: now)
        // What a jar would not keep of the file is listed too: a cookie it refuses (one no `Set-Cookie`
        // line could have given), with why, one that a later cookie of the file of its identity replaces
        // (§5.7 step 23), and one over its limit of cookies a site. A stored cookie is looked for by the
        // identity the jar gave it (a partition key canonical, a public suffix's domain cookie host-only),
        // not the file's.
        var refused: [(cookie: Cookie, reason: CookieRejection)] = []
        var stored: [(cookie: Cookie, identity: CookieIdentity)] = []
        // The position in `stored` of the file's last cookie of each identity.
        var last: [CookieIdentity: Int] = [:]
        for cookie in unexpired {
            switch jar.insert(cookie) {
            case .rejected(let reason): refused.append((cookie, reason))
            case .stored(let inJar), .replaced(let inJar, _):
                let identity = CookieIdentity(inJar)
                last[identity] = stored.count
                stored.append((cookie, identity))
            case .deleted, .expired: break
            }
        }
        let kept = Set(jar.allCookies().map(CookieIdentity.init))
        var replaced: [Cookie] = []
        var evicted: [Cookie] = []
        for (position, entry) in stored.enumerated() {
            if last[entry.identity] != position {
                replaced.append(entry.cookie)
            } else if !kept.contains(entry.identity) {
                evicted.append(entry.cookie)
            }
        }
        let expired = ofSite.expired(at: now)
        let report = jar.retrievalReport(for: requestURL, context: request.context)
        let sent = report.filter { $0.exclusion == nil }.map(\.cookie)
        let terminal = table.terminal
        out.append(contentsOf: terminal.bold("\(request.method) \(requestURL)") + "\n")
        let header = CookieHeader.serialize(sent.map { CookiePair(name: $0.name, value: table.displayValue($0.value)) })
        out.append(contentsOf: sent.isEmpty ? "no Cookie header\n" : "Cookie: \(header.showingControls)\n")
        var rows = AlignedColumns()
        for decision in report where isShown(decision.cookie) {
            let cookie = decision.cookie
            let status = decision.exclusion == nil ? terminal.green("sent") : terminal.red("not sent")
            rows.appendRow([status] + table.identityCells(cookie) + [decision.exclusion.map { "\($0.rawValue): \($0.explanation)" } ?? ""])
        }
        let replacedReason = "replaced: a later cookie of the file of the same name, domain, path and partition replaces it"
        for cookie in replaced where isShown(cookie) {
            rows.appendRow([terminal.red("not sent")] + table.identityCells(cookie) + [replacedReason])
        }
        let evictedReason = "evicted: over the \(jar.limits.maxCookiesPerSite) cookies a jar keeps a site, the least recently used go"
        for cookie in evicted where isShown(cookie) {
            rows.appendRow([terminal.red("not sent")] + table.identityCells(cookie) + [evictedReason])
        }
        for (cookie, reason) in refused where isShown(cookie) {
            rows.appendRow([terminal.red("not sent")] + table.identityCells(cookie) + ["refused by a jar: \(reason.rawValue): \(reason.explanation)"])
        }
        for cookie in expired where isShown(cookie) {
            let exclusion = CookieExclusion.expired
            rows.appendRow([terminal.red("not sent")] + table.identityCells(cookie) + ["\(exclusion.rawValue): \(exclusion.explanation) (\(table.expiry(cookie)))"])
        }
        if rows.rowCount == 0 {
            let filtered = site != nil || name != nil || self.expired || session
            out.append(contentsOf: filtered && !ofSite.isEmpty
                ? "none of the cookies of \(requestSite) in \(file) is of --site, --name, --expired or --session\n"
                : "no cookies of \(requestSite) in \(file)\n")
        } else {
            rows.writeRows(indent: "  ", to: &out)
        }
    }
}

extension CookieFileFormat {
    /// The format's name for people.
    var displayName: String {
        switch self {
        case .sqlite: return "swift-cookiejar SQLite jar"
        case .firefox: return "Firefox cookies.sqlite"
        case .json: return "swift-cookiejar JSON"
        case .cookiesTxt: return "Netscape cookies.txt"
        case .binaryCookies: return "Apple Cookies.binarycookies"
        }
    }
}
