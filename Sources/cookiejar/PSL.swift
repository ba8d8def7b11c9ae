import ArgumentParser
import Cookies

struct PSL: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "psl",
        abstract: "Show each host's public suffix and registrable domain, or which public suffix list is in use.",
        discussion: """
            Hosts are canonicalised as a request's host is (lower case, IDNA A-labels, IP literals); a URL \
            stands for its host. A host \
            that is itself a public suffix has no registrable domain: a cookie cannot name it in Domain=, \
            and cookies set by it stay host-only. The list is the jar's default (the newest of the \
            compiled-in list and, where linked, libpsl's) unless --psl names a file.

            Examples:
              cookiejar psl www.example.co.uk github.io user.github.io
              cookiejar psl https://api.example.com/v1/me
              cookiejar psl --info

            Exit status: 0 all well, 2 usage, 3 unreadable list or a host that is no host name nor URL, \
            4 unwritable output.
            """
    )

    @Argument(help: "Host names, or URLs (their host).")
    var hosts: [String] = []

    @Flag(help: "Print which list is in use: where it comes from, its date, rule count and revision.")
    var info = false

    @Option(help: "A public_suffix_list.dat to use instead of the default list.", completion: .file())
    var psl: String?

    func validate() throws {
        guard info || !hosts.isEmpty else { throw ValidationError("Name at least one host, or --info.") }
    }

    func run() throws {
        let list: any PublicSuffixList
        do {
            list = try publicSuffixList(file: psl)
        } catch let error as InputError {
            printError(error.description)
            throw ToolExit.unreadableInput
        }
        if info { printInfo(of: list) }
        if info && !hosts.isEmpty { StandardOutput.print() }
        var table = AlignedColumns()
        table.appendRow(["host", "public suffix", "registrable domain"])
        var unreadable: [String] = []
        for text in hosts {
            // A URL stands for its host, as --site of inspect takes it.
            guard let host = CanonicalHost(text) ?? CookieURL(text)?.host else {
                unreadable.append(text)
                continue
            }
            if host.isIPAddress {
                table.appendRow([host.name, "(an IP address)", "(none)"])
            } else if host.hasEmptyLabel {
                table.appendRow([host.name, "(none: an empty label)", "(none)"])
            } else if let registrable = list.registrableDomain(of: host) {
                // The public suffix follows the registrable domain's first label.
                let suffix = registrable.firstIndex(of: ".").map { String(registrable[registrable.index(after: $0)...]) }
                table.appendRow([host.name, suffix ?? "", registrable])
            } else {
                table.appendRow([host.name, host.name, "(none: a public suffix)"])
            }
        }
        if table.rowCount > 1 { write(table) }
        for text in unreadable { printError("\(text): not a host name or an http(s) URL") }
        if !unreadable.isEmpty { throw ToolExit.unreadableInput }
    }

    private func printInfo(of list: any PublicSuffixList) {
        guard let info = list.info else {
            StandardOutput.print("list: no information")
            return
        }
        var table = AlignedColumns()
        table.appendRow(["list", info.source.rawValue])
        table.appendRow(["date", info.date.map(TimeFormatting.date) ?? "unknown"])
        table.appendRow(["rules", info.ruleCount.map(String.init) ?? "unknown"])
        if let revision = info.revision { table.appendRow(["revision", revision]) }
        if let sha256 = info.sha256 { table.appendRow(["sha256", sha256]) }
        if let path = info.path { table.appendRow(["file", path]) }
        write(table)
    }

    /// Writes the rows of `table` to standard output.
    private func write(_ table: borrowing AlignedColumns) {
        var out = OutputText()
        table.writeRows(indent: "", to: &out)
        StandardOutput.print(out.string, terminator: "")
    }
}
