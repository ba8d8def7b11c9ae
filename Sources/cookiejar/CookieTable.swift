import Cookies

/// The table `inspect` prints: one section per site, columns aligned, values masked unless asked.
struct CookieTable {
    var showValues: Bool
    var now: CookieTime
    var terminal: Terminal

    /// `7f…(12)`: the first two characters and the length, so that secrets stay off screens and logs.
    func displayValue(_ value: String) -> String {
        if showValues { return value }
        if value.isEmpty { return "" }
        let count = value.count
        return count <= 2 ? String(repeating: "•", count: count) : String(value.prefix(2)) + "…(\(count))"
    }

    func expiry(_ cookie: Cookie) -> String {
        guard let expiry = cookie.expiry else { return "session" }
        let relative = TimeFormatting.relative(expiry, now: now)
        let date = String(TimeFormatting.date(expiry).dropLast(7))  // "YYYY-MM-DD HH:MM"
        return expiry <= now ? "expired \(relative)" : "\(date) (\(relative))"
    }

    func flags(_ cookie: Cookie) -> String {
        var flags: [String] = []
        if cookie.isSecure { flags.append("Secure") }
        if cookie.isHTTPOnly { flags.append("HttpOnly") }
        flags.append(cookie.sameSite == .default ? "SameSite=Default" : "SameSite=\(cookie.sameSite.rawValue)")
        if let partition = cookie.partitionKey { flags.append("Partitioned(\(partition))") }
        return flags.joined(separator: " ")
    }

    /// The domain column: a leading dot marks a domain cookie, as browsers' tools show it.
    func domain(_ cookie: Cookie) -> String {
        cookie.isHostOnly ? cookie.domain : "." + cookie.domain
    }

    /// Rows of cells, aligned in columns (the last column is not padded).
    static func align(_ rows: [[String]], indent: String) -> [String] {
        guard let columns = rows.lazy.map({ $0.count }).max() else { return [] }
        // Each cell's width in Unicode scalars (the table's text has no combining marks), counted once.
        let cellWidths = rows.map { row in row.map { $0.unicodeScalars.count } }
        var widths = Array(repeating: 0, count: columns)
        for row in cellWidths {
            for (index, width) in row.enumerated() { widths[index] = max(widths[index], width) }
        }
        let padding = String(repeating: " ", count: (widths.max() ?? 0) + 2)
        return zip(rows, cellWidths).map { row, rowWidths in
            var line = indent
            line.reserveCapacity(indent.utf8.count + widths.reduce(0, +) + 2 * columns + 16)
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 { line += padding.prefix(widths[index] - rowWidths[index] + 2) }
            }
            return line
        }
    }

    /// Every cookie, grouped by site (sites in order), each site headed by its counts.
    func render(_ cookies: [Cookie], site siteOf: (Cookie) -> String) -> String {
        var groups: [String: [Cookie]] = [:]
        for cookie in cookies { groups[siteOf(cookie), default: []].append(cookie) }
        let header = ["NAME", "VALUE", "DOMAIN", "PATH", "EXPIRES", "FLAGS"]
        var rows: [[String]] = [header]
        var sections: [(title: String, range: Range<Int>)] = []
        for site in groups.keys.sorted() {
            let members = groups[site]!.sorted { ($0.domain, $0.path, $0.name) < ($1.domain, $1.path, $1.name) }
            let persistent = members.filter(\.isPersistent).count
            let expired = members.filter { $0.isExpired(at: now) }.count
            var counts = "\(members.count) cookie\(members.count == 1 ? "" : "s"): \(persistent) persistent, \(members.count - persistent) session"
            if expired > 0 { counts += ", \(expired) expired" }
            let start = rows.count
            for cookie in members {
                rows.append([cookie.name, displayValue(cookie.value), domain(cookie), cookie.path, expiry(cookie), flags(cookie)])
            }
            sections.append(("\(site)  (\(counts))", start..<rows.count))
        }
        let lines = CookieTable.align(rows, indent: "  ")
        var out = terminal.dim(lines[0]) + "\n"
        for section in sections {
            out += terminal.bold(section.title) + "\n"
            for line in lines[section.range] { out += line + "\n" }
        }
        let total = cookies.count
        out += "\(total) cookie\(total == 1 ? "" : "s") in \(sections.count) site\(sections.count == 1 ? "" : "s")\n"
        return out
    }
}
