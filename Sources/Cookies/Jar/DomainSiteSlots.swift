/// The site slot of each cookie domain a `CookieStore.Loader` has met, looked up by the domain's UTF-8
/// bytes as a file's reader hands them over. A file's rows come in the order they were written, a
/// site's cookies seldom together, so nearly every row looks its domain up: a `Dictionary` would make a
/// String of the bytes and hash it with SipHash each time, where this table hashes the bytes in place
/// (eight at a time, with a seed of its own) and copies a domain's bytes only when it is new. Entries
/// keep the bytes as read, not the domain decoded from them: ill-formed UTF-8 decodes to other bytes, and
/// would never match again.
struct DomainSiteSlots {
    private struct Entry {
        var hash: UInt64
        var bytes: [UInt8]
        var siteSlot: Int
    }

    private var entries: [Entry] = []
    /// Open addressing with linear probing: each bucket holds an index into `entries` plus one, or 0
    /// when empty. Its count is a power of two, more than twice `entries.count`.
    private var buckets = [Int](repeating: 0, count: 256)
    private let seed = UInt64.random(in: .min ... .max)

    /// The site slot of the domain whose UTF-8 is `bytes`, if it was added.
    func siteSlot(ofDomain bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = hash(bytes)
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while buckets[bucket] != 0 {
            let index = buckets[bucket] - 1
            if entries[index].hash == hash && entries[index].bytes.elementsEqual(bytes) { return entries[index].siteSlot }
            bucket = (bucket + 1) & mask
        }
        return nil
    }

    /// How many domains were added.
    var count: Int { entries.count }

    /// Adds a domain not added yet: `bytes` belong to the site at `siteSlot`.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, siteSlot: Int) {
        let hash = hash(bytes)
        entries.append(Entry(hash: hash, bytes: Array(bytes), siteSlot: siteSlot))
        if entries.count * 2 >= buckets.count {
            rehash(buckets: buckets.count * 2)
        } else {
            place(entries.count - 1)
        }
    }

    /// Puts the entry at `index` in the first empty bucket from its hash's.
    private mutating func place(_ index: Int) {
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: entries[index].hash) & mask
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = index + 1
    }

    private mutating func rehash(buckets count: Int) {
        buckets = [Int](repeating: 0, count: count)
        for index in entries.indices { place(index) }
    }

    /// A 64-bit hash of `bytes`: each eight bytes (the last ones zero-padded) mixed in with a multiply,
    /// then the bits folded down so that the low ones, which pick the bucket, depend on all of them.
    private func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        let raw = UnsafeRawBufferPointer(bytes)
        var hash = seed ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            offset += 8
        }
        if offset < raw.count {
            var last: UInt64 = 0
            for index in offset..<raw.count { last = last << 8 | UInt64(raw[index]) }
            hash = (hash ^ last) &* multiplier
        }
        hash ^= hash >> 32
        hash = hash &* multiplier
        return hash ^ hash >> 29
    }
}
