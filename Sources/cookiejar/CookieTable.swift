import Cookies

/// The table `inspect` prints: one section per site, columns aligned, values masked unless asked.
struct CookieTable {
    var showValues: Bool
    var now: CookieTime
    var terminal: Terminal

    /// `7f…(12)`: the first two characters and the length, so that secrets stay off screens and logs.
    func displayValue(_ value: String) -> String {
        var out = OutputText()
        appendDisplayValue(value, to: &out)
        return out.string
    }

    func appendDisplayValue(_ value: String, to out: inout OutputText) {
        if showValues { return out.append(value) }
        if value.isEmpty { return }
        // ASCII without CR (the usual value) has one Character per byte: its count and first two
        // Characters come from the bytes, without grapheme breaking.
        let isSimple = value.utf8.withContiguousStorageIfAvailable(Self.isASCIIWithoutCR) ?? false
        let count = isSimple ? value.utf8.count : value.count
        if count <= 2 {
            for _ in 0..<count { out.append("•") }
            return
        }
        if isSimple {
            value.utf8.prefix(2).forEach { out.append($0) }
        } else {
            out.append(String(value.prefix(2)))
        }
        out.append("…(")
        out.appendDecimal(count)
        out.append(UInt8(ascii: ")"))
    }

    /// True when every byte is ASCII and none is a CR. Reads eight bytes at a time: a word has a byte
    /// of 0x80 or more when a high bit is set, and a CR when `word ^ 0x0D0D…` has a zero byte ("determine
    /// if a word has a zero byte", Sean Eron Anderson, Bit Twiddling Hacks).
    private static func isASCIIWithoutCR(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let carriageReturns = word ^ (ones &* 0x0D)
            if (word | ((carriageReturns &- ones) & ~carriageReturns)) & highBits != 0 { return false }
            index += 8
        }
        return !bytes[index...].contains { $0 >= 0x80 || $0 == 0x0D }
    }

    func expiry(_ cookie: Cookie) -> String {
        var out = OutputText()
        appendExpiry(cookie, to: &out)
        return out.string
    }

    /// `session`, `expired 3 days ago` or `2027-05-21 09:00 (in 6 months)`.
    func appendExpiry(_ cookie: Cookie, to out: inout OutputText) {
        guard let expiry = cookie.expiry else { return out.append("session") }
        if expiry <= now {
            out.append("expired ")
            TimeFormatting.appendRelative(expiry, now: now, to: &out)
        } else {
            TimeFormatting.appendDate(expiry, withSeconds: false, to: &out)
            out.append(" (")
            TimeFormatting.appendRelative(expiry, now: now, to: &out)
            out.append(UInt8(ascii: ")"))
        }
    }

    func appendFlags(_ cookie: Cookie, to out: inout OutputText) {
        if cookie.isSecure { out.append("Secure ") }
        if cookie.isHTTPOnly { out.append("HttpOnly ") }
        out.append("SameSite=")
        out.append(cookie.sameSite == .default ? "Default" : cookie.sameSite.rawValue)
        if let partition = cookie.partitionKey {
            out.append(" Partitioned(")
            out.append(partition)
            out.append(UInt8(ascii: ")"))
        }
    }

    /// The domain column: a leading dot marks a domain cookie, as browsers' tools show it.
    func domain(_ cookie: Cookie) -> String {
        cookie.isHostOnly ? cookie.domain : "." + cookie.domain
    }

    /// One cookie's row, counted as persistent and expired.
    private func appendRow(_ cookie: borrowing Cookie, to table: inout AlignedColumns, persistent: inout Int, expired: inout Int) {
        if cookie.isPersistent { persistent += 1 }
        if cookie.isExpired(at: now) { expired += 1 }
        table.text.append(cookie.name)
        table.endCell()
        appendDisplayValue(cookie.value, to: &table.text)
        table.endCell()
        if !cookie.isHostOnly { table.text.append(UInt8(ascii: ".")) }
        table.text.append(cookie.domain)
        table.endCell()
        table.text.append(cookie.path)
        table.endCell()
        appendExpiry(cookie, to: &table.text)
        table.endCell()
        appendFlags(cookie, to: &table.text)
        table.endCell()
        table.endRow()
    }

    /// Every cookie, grouped by site (sites in order), each site headed by its counts; within a site by
    /// domain, path and name, ties in the given order.
    func render(_ cookies: [Cookie], site siteOf: (Cookie) -> String, to out: inout OutputText) {
        // Cookies are read in place (a copy of a Cookie retains each of its strings).
        cookies.withUnsafeBufferPointer { render($0, site: siteOf, to: &out) }
    }

    private func render(_ cookies: UnsafeBufferPointer<Cookie>, site siteOf: (Cookie) -> String, to out: inout OutputText) {
        // Grouped by domain first: each distinct domain has its site looked up and is compared once.
        var domainNumbers: [String: Int] = [:]
        var domains: [(site: String, domain: String, members: [Int])] = []
        for index in cookies.indices {
            if let number = domainNumbers[cookies[index].domain] {
                domains[number].members.append(index)
            } else {
                domainNumbers[cookies[index].domain] = domains.count
                domains.append((siteOf(cookies[index]), cookies[index].domain, [index]))
            }
        }
        domains.sort { $0.site < $1.site || ($0.site == $1.site && $0.domain < $1.domain) }

        var table = AlignedColumns()
        table.reserveCapacity(
            rows: cookies.count + 1, columns: 6,
            bytes: cookies.indices.reduce(0) { bytes, index in
                bytes + cookies[index].name.utf8.count + cookies[index].domain.utf8.count + cookies[index].path.utf8.count
                    + (showValues ? cookies[index].value.utf8.count : 8) + 80
            })
        table.appendRow(["NAME", "VALUE", "DOMAIN", "PATH", "EXPIRES", "FLAGS"])
        var sections: [(title: String, rows: Range<Int>)] = []
        var position = 0
        while position < domains.count {
            let site = domains[position].site
            let start = table.rowCount
            var persistent = 0
            var expired = 0
            while position < domains.count, domains[position].site == site {
                let members = domains[position].members.sorted { a, b in
                    if cookies[a].path != cookies[b].path { return cookies[a].path < cookies[b].path }
                    if cookies[a].name != cookies[b].name { return cookies[a].name < cookies[b].name }
                    return a < b
                }
                for index in members { appendRow(cookies[index], to: &table, persistent: &persistent, expired: &expired) }
                position += 1
            }
            let count = table.rowCount - start
            var counts = "\(count) cookie\(count == 1 ? "" : "s"): \(persistent) persistent, \(count - persistent) session"
            if expired > 0 { counts += ", \(expired) expired" }
            sections.append(("\(site)  (\(counts))", start..<table.rowCount))
        }

        out.reserveCapacity(out.count + table.writtenSizeBound(indent: 2) + sections.count * 80 + 100)
        var header = OutputText()
        table.write(row: 0, indent: "  ", to: &header)
        out.append(terminal.dim(String(header.string.dropLast())) + "\n")
        for section in sections {
            out.append(terminal.bold(section.title) + "\n")
            for row in section.rows { table.write(row: row, indent: "  ", to: &out) }
        }
        let total = cookies.count
        out.append("\(total) cookie\(total == 1 ? "" : "s") in \(sections.count) site\(sections.count == 1 ? "" : "s")\n")
    }
}
