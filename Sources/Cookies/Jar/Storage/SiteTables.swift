/// The arrays of a site that a lookup reads, as buffers: what lookups that share the jar's lock read a
/// site through.
///
/// Why buffers: a call of a non-mutating method on a site held in an array or behind a pointer copies the
/// site first (the compiler cannot prove that the call leaves that memory alone), which retains each of
/// its arrays and strings and releases them after: two atomic writes to each of their reference counts,
/// for which threads looking up the same site at once would contend, core against core. A mutating call
/// runs in place, but it is a write access, which no two threads may make at once. Reading the buffers
/// out of the arrays copies nothing.
///
/// The buffers stay valid while the site is neither changed nor released: while the jar's lock is held,
/// shared or not, and only then.
struct SiteTables {
    let entries: UnsafeBufferPointer<StoredCookie>
    /// The pairs' bytes (`CookiePairs`).
    let pairs: UnsafeBufferPointer<UInt8>
    /// The slots of the site's domains, paths and partition keys (`InternedStrings`).
    let domains: UnsafeBufferPointer<InternedStrings.Slot>
    let paths: UnsafeBufferPointer<InternedStrings.Slot>
    let partitions: UnsafeBufferPointer<InternedStrings.Slot>

    /// The cookie at `index` in send order.
    func cookie(at index: Int) -> Cookie {
        let entry = entries[index]
        let (name, value) = CookiePairs.nameAndValue(of: entry, in: pairs)
        return entry.cookie(
            name: name, value: value, domain: domains[Int(entry.domain)].string, path: paths[Int(entry.path)].string,
            partitionKey: entry.isPartitioned ? partitions[Int(entry.partition)].string : nil)
    }

    /// Whether a request at `now` carrying the cookies at `indices` moves a last-access time
    /// (`SiteCookies.touch`).
    func touchMovesLastAccess(_ indices: UnsafeBufferPointer<Int32>, now: CookieTime) -> Bool {
        indices.contains { SiteCookies.movesLastAccess(entries[Int($0)].lastAccess, at: now) }
    }
}

extension SiteCookies {
    /// The site's arrays as buffers (`SiteTables`), valid while the site is neither changed nor released.
    @inline(__always)
    var tables: SiteTables {
        SiteTables(
            entries: entries.withUnsafeBufferPointer { $0 }, pairs: pairs.withBytes { $0 },
            domains: domains.slots.withUnsafeBufferPointer { $0 }, paths: paths.slots.withUnsafeBufferPointer { $0 },
            partitions: partitions.slots.withUnsafeBufferPointer { $0 })
    }
}
