/// A hash table keyed by a domain's UTF-8 bytes, for the store's per-domain lookups: the site of each
/// cookie domain a `CookieStore.Loader` has met, and the caches of the site key and public-suffix status
/// of the hosts and Domain attributes the jar sees. Every receipt and every request looks a domain up, so
/// the lookup hashes the bytes in place (eight at a time, with a seed of its own) where a `Dictionary`
/// of Strings would hash with SipHash, and a domain's bytes are copied only when it is added, into one
/// buffer shared by all. Entries keep the bytes as given, not a String decoded from them: ill-formed
/// UTF-8 decodes to other bytes, and would never match again.
struct DomainTable<Value> {
    fileprivate struct Entry {
        var hash: UInt64
        /// Where the domain's bytes are in `keyBytes`.
        var start: Int
        var count: Int
        var value: Value
    }

    private var entries: [Entry] = []
    /// The bytes of every domain added, one after the other: one growing buffer instead of an
    /// allocation per domain.
    private var keyBytes: [UInt8] = []
    /// Open addressing with linear probing: each bucket holds an index into `entries` plus one in its low
    /// 32 bits, and the high 32 bits of that entry's hash in its high ones (0 when empty). A probe reads
    /// the entry, elsewhere in memory, only where the hash's bits are the domain's: a lookup of a domain
    /// not added (every domain of a crawl is new) mostly reads the buckets alone. Its count is a power of
    /// two, more than twice `entries.count`.
    private var buckets = [UInt64](repeating: 0, count: DomainTable.initialBucketCount)
    private let seed = UInt64.random(in: .min ... .max)
    private static var initialBucketCount: Int { 256 }

    /// How many domains were added.
    var count: Int { entries.count }

    /// The values of the domains, in the order they were added.
    var values: some Collection<Value> { entries.lazy.map(\.value) }

    /// The position of the domain whose UTF-8 is `bytes`, if it was added.
    func index(ofDomain bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = hash(bytes)
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash) & mask
        let tag = DomainTable.tag(of: hash)
        return keyBytes.withUnsafeBufferPointer { keys in
            entries.withUnsafeBufferPointer { entries in
                buckets.withUnsafeBufferPointer { buckets in
                    while buckets[bucket] != 0 {
                        // The entry's fields are read in place: a copy of it would retain its value.
                        if buckets[bucket] & DomainTable.tagBits == tag {
                            let index = Int(truncatingIfNeeded: buckets[bucket] & ~DomainTable.tagBits) &- 1
                            if entries[index].hash == hash, entries[index].count == bytes.count,
                                bytes.isEmpty || memoryEqual(keys.baseAddress! + entries[index].start, bytes.baseAddress!, bytes.count)
                            {
                                return index
                            }
                        }
                        bucket = (bucket &+ 1) & mask
                    }
                    return nil
                }
            }
        }
    }

    /// The value of the domain whose UTF-8 is `bytes`, if it was added.
    func value(ofDomain bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        index(ofDomain: bytes).map { entries[$0].value }
    }

    /// The value of the domain at `index` (a position `index(ofDomain:)` gave).
    subscript(index: Int) -> Value {
        // Borrowed, not copied: reading one field of a value copies nothing else of it.
        _read { yield entries[index].value }
        _modify { yield &entries[index].value }
    }

    /// Adds a domain not added yet, with its value.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, value: Value) {
        let hash = hash(bytes)
        entries.append(Entry(hash: hash, start: keyBytes.count, count: bytes.count, value: value))
        keyBytes.append(contentsOf: bytes)
        if entries.count * 2 >= buckets.count {
            rehash(buckets: buckets.count * 2)
        } else {
            place(entries.count - 1)
        }
    }

    /// Removes every domain, keeping the memory of the entries, their bytes and the buckets for the next
    /// ones (a cache emptied when full fills up again).
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        keyBytes.removeAll(keepingCapacity: true)
        buckets.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// The high 32 bits of a bucket: those of its entry's hash.
    private static var tagBits: UInt64 { 0xFFFF_FFFF_0000_0000 }

    /// The bits of `hash` a bucket keeps.
    @inline(__always)
    private static func tag(of hash: UInt64) -> UInt64 { hash & tagBits }

    /// Puts the entry at `index` in the first empty bucket from its hash's.
    private mutating func place(_ index: Int) {
        let mask = buckets.count - 1
        let hash = entries[index].hash
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = DomainTable.tag(of: hash) | UInt64(index + 1)
    }

    private mutating func rehash(buckets count: Int) {
        buckets = [UInt64](repeating: 0, count: count)
        for index in entries.indices { place(index) }
    }

    /// The hash of `bytes` with this table's seed.
    @inline(__always)
    private func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        bytes.wordHash(seed: seed)
    }
}

extension DomainTable where Value == Int {
    /// Adds `delta` to the count of the domain whose UTF-8 is `bytes`; a domain not added yet is added with
    /// `delta`.
    mutating func add(_ delta: Int, toCountOf bytes: UnsafeBufferPointer<UInt8>) {
        if let index = index(ofDomain: bytes) {
            self[index] += delta
        } else {
            add(bytes, value: delta)
        }
    }
}

extension DomainTable: Sendable where Value: Sendable {}
extension DomainTable.Entry: Sendable where Value: Sendable {}

extension DomainTable {
    /// The value of `domain`, if it was added.
    func value(ofDomain domain: String) -> Value? {
        domain.withUTF8Bytes { value(ofDomain: $0) }
    }

    /// The position of `domain`, if it was added.
    func index(ofDomain domain: String) -> Int? {
        domain.withUTF8Bytes { index(ofDomain: $0) }
    }

    /// Adds `domain`, not added yet, with its value.
    mutating func add(_ domain: String, value: Value) {
        domain.withUTF8Bytes { add($0, value: value) }
    }
}
