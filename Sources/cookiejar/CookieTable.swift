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

    /// `displayValue` appended, its control characters shown as escapes (`OutputText.appendShowingControls`).
    func appendDisplayValue(_ value: String, to out: inout OutputText) {
        if showValues { return out.appendShowingControls(value) }
        if value.isEmpty { return }
        // ASCII without CR (the usual value) has one Character per byte: its count and first two
        // Characters come from the bytes, without grapheme breaking.
        let isSimple = value.utf8.withContiguousStorageIfAvailable(\.hasOneCharacterPerByte) ?? false
        let count = isSimple ? value.utf8.count : value.count
        if count <= 2 {
            for _ in 0..<count { out.append("•") }
            return
        }
        if isSimple {
            _ = value.utf8.withContiguousStorageIfAvailable { out.appendShowingControls(utf8: UnsafeBufferPointer(rebasing: $0.prefix(2))) }
        } else {
            out.appendShowingControls(String(value.prefix(2)))
        }
        out.append("…(")
        out.appendDecimal(count)
        out.append(UInt8(ascii: ")"))
    }

    func expiry(_ cookie: Cookie) -> String {
        var out = OutputText()
        appendExpiry(cookie.expiry, to: &out)
        return out.string
    }

    /// `session`, `expired 3 days ago` or `2027-05-21 09:00 (in 6 months)`.
    func appendExpiry(_ expiry: CookieTime?, to out: inout OutputText) {
        guard let expiry else { return out.append("session") }
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

    /// The domain column: a leading dot marks a domain cookie, as browsers' tools show it.
    func domain(_ cookie: Cookie) -> String {
        (cookie.isHostOnly ? cookie.domain : "." + cookie.domain).showingControls
    }

    /// The name, domain and path columns of a cookie's row in a request report.
    func identityCells(_ cookie: Cookie) -> [String] {
        [cookie.name.showingControls, domain(cookie), cookie.path.showingControls]
    }

    /// One cookie's row, counted as persistent and expired. The cookie is read through its pointer, field
    /// by field: passing it by value would copy it (a retain of each of its strings).
    private func appendRow(_ cookie: UnsafePointer<Cookie>, to table: inout AlignedColumns, persistent: inout Int, expired: inout Int) {
        if cookie.pointee.isPersistent { persistent += 1 }
        if cookie.pointee.isExpired(at: now) { expired += 1 }
        table.text.appendShowingControls(cookie.pointee.name)
        table.endCell()
        appendDisplayValue(cookie.pointee.value, to: &table.text)
        table.endCell()
        if !cookie.pointee.isHostOnly { table.text.append(UInt8(ascii: ".")) }
        table.text.appendShowingControls(cookie.pointee.domain)
        table.endCell()
        table.text.appendShowingControls(cookie.pointee.path)
        table.endCell()
        appendExpiry(cookie.pointee.expiry, to: &table.text)
        table.endCell()
        if cookie.pointee.isSecure { table.text.append("Secure ") }
        if cookie.pointee.isHTTPOnly { table.text.append("HttpOnly ") }
        table.text.append("SameSite=")
        if cookie.pointee.sameSite == .default {
            table.text.append("Default")
        } else {
            table.text.append(contentsOf: cookie.pointee.sameSite.rawValue)
        }
        if let partition = cookie.pointee.partitionKey {
            table.text.append(" Partitioned(")
            table.text.appendShowingControls(partition)
            table.text.append(UInt8(ascii: ")"))
        }
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
        /// Cookie `index`, read through the pointer's addressor: no copy (used only when there are cookies).
        func cookie(_ index: Int) -> UnsafePointer<Cookie> { cookies.baseAddress! + index }
        let order = CookieTableOrder(cookies, site: siteOf)
        var table = AlignedColumns()
        table.reserveCapacity(
            rows: cookies.count + 1, columns: 6,
            bytes: cookies.indices.reduce(0) { bytes, index in
                bytes + cookie(index).pointee.name.utf8.count + cookie(index).pointee.domain.utf8.count + cookie(index).pointee.path.utf8.count
                    + (showValues ? cookie(index).pointee.value.utf8.count : 8) + 80
            })
        table.appendRow(["NAME", "VALUE", "DOMAIN", "PATH", "EXPIRES", "FLAGS"])
        var sections: [(title: String, rows: Range<Int>)] = []
        for (site, positions) in order.sites {
            let start = table.rowCount
            var persistent = 0
            var expired = 0
            for index in order.indices[positions] {
                appendRow(cookie(index), to: &table, persistent: &persistent, expired: &expired)
            }
            let count = table.rowCount - start
            var counts = "\(count) cookie\(count == 1 ? "" : "s"): \(persistent) persistent, \(count - persistent) session"
            if expired > 0 { counts += ", \(expired) expired" }
            sections.append(("\(site)  (\(counts))", start..<table.rowCount))
        }

        var header = OutputText()
        table.write(row: 0, indent: "  ", to: &header)
        out.append(contentsOf: terminal.dim(String(header.string.dropLast())) + "\n")
        for section in sections {
            out.append(contentsOf: terminal.bold(section.title) + "\n")
            for row in section.rows { table.write(row: row, indent: "  ", to: &out) }
        }
        let total = cookies.count
        out.append(contentsOf: "\(total) cookie\(total == 1 ? "" : "s") in \(sections.count) site\(sections.count == 1 ? "" : "s")\n")
    }
}
