/// Where each site of a store is in its array of sites, found by the UTF-8 of the site's key. Every
/// receipt that meets a new site looks its key up, adds it, and (in a jar at its limit) removes another,
/// so the table hashes the bytes in place (`wordHash`) where a `Dictionary` of Strings would hash with
/// SipHash, and it keeps no key of its own: a bucket holds a slot, and a lookup compares the bytes it is
/// given with the key of the site at that slot (`isKey`), only where the hashes are equal.
///
/// Open addressing with linear probing; a removal shifts the following entries back into the hole, so
/// that no bucket is ever marked deleted and a lookup stops at the first empty one. A site keeps its slot
/// until it is removed, or until the store gives its many vacant slots back (`renumber`); the store gives
/// a vacant slot to the next new site.
struct SiteSlots: Sendable {
    /// Each bucket holds a slot plus one, or 0 when empty. Its count is a power of two, more than twice
    /// the number of sites.
    private var buckets = [Int32](repeating: 0, count: SiteSlots.initialBucketCount)
    /// The hash of the key of the site at each slot (stale at a vacant slot).
    private var hashes: [UInt64] = []
    private let seed = UInt64.random(in: .min ... .max)
    private static var initialBucketCount: Int { 64 }

    /// How many sites the table holds.
    private(set) var count = 0

    /// The slot of the site whose key's UTF-8 is `key`, if any; `isKey(slot)` says whether the site at
    /// `slot` has that key.
    @inline(__always)
    func slot(ofKey key: UnsafeBufferPointer<UInt8>, isKey: (Int) -> Bool) -> Int? {
        let hash = key.wordHash(seed: seed)
        return buckets.withUnsafeBufferPointer { buckets in
            hashes.withUnsafeBufferPointer { hashes in
                let mask = buckets.count &- 1
                var bucket = Int(truncatingIfNeeded: hash) & mask
                while buckets[bucket] != 0 {
                    let slot = Int(buckets[bucket]) &- 1
                    if hashes[slot] == hash, isKey(slot) { return slot }
                    bucket = (bucket &+ 1) & mask
                }
                return nil
            }
        }
    }

    /// Adds the site at `slot`, a vacant slot or the one after the last, whose key's UTF-8 is `key` (no
    /// site has that key yet).
    mutating func add(key: UnsafeBufferPointer<UInt8>, at slot: Int) {
        let hash = key.wordHash(seed: seed)
        if slot == hashes.count { hashes.append(hash) } else { hashes[slot] = hash }
        count += 1
        if count * 2 >= buckets.count {
            // The slots held are those in the old buckets, and the new one.
            let held = buckets
            buckets = [Int32](repeating: 0, count: buckets.count * 2)
            for bucket in held where bucket != 0 { place(Int(bucket) - 1) }
        }
        place(slot)
    }

    /// Removes the site at `slot`, which becomes vacant; no other site moves.
    mutating func remove(slot: Int) {
        removeBucket(bucket(of: slot))
        count -= 1
    }

    /// Moves each site from its slot to `newSlots[slot]` (-1 at a vacant slot, which goes; the new slots
    /// are the first ones), in buckets as many as a table of that many sites grown from empty has.
    mutating func renumber(_ newSlots: [Int32]) {
        var moved = [UInt64](repeating: 0, count: count)
        for slot in hashes.indices where newSlots[slot] >= 0 { moved[Int(newSlots[slot])] = hashes[slot] }
        hashes = moved
        var bucketCount = SiteSlots.initialBucketCount
        while count * 2 >= bucketCount { bucketCount *= 2 }
        buckets = [Int32](repeating: 0, count: bucketCount)
        for slot in hashes.indices { place(slot) }
    }

    /// The first bucket a key of hash `hash` may be in.
    @inline(__always)
    private func home(of hash: UInt64) -> Int { Int(truncatingIfNeeded: hash) & (buckets.count - 1) }

    /// Puts `slot` in the first empty bucket from its hash's.
    private mutating func place(_ slot: Int) {
        let mask = buckets.count - 1
        var bucket = home(of: hashes[slot])
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Int32(truncatingIfNeeded: slot + 1)
    }

    /// The bucket holding `slot` (which the table holds): found from its hash, with no key compared.
    private func bucket(of slot: Int) -> Int {
        let mask = buckets.count - 1
        var bucket = home(of: hashes[slot])
        while buckets[bucket] != slot + 1 { bucket = (bucket + 1) & mask }
        return bucket
    }

    /// Empties `hole` and moves back into it each following entry (up to the next empty bucket) whose
    /// probe would otherwise pass over the hole.
    private mutating func removeBucket(_ removed: Int) {
        let mask = buckets.count - 1
        var hole = removed
        var bucket = (hole + 1) & mask
        while buckets[bucket] != 0 {
            let home = home(of: hashes[Int(buckets[bucket]) - 1])
            // The entry may move to the hole when its home is not after the hole on the way to it
            // (distances counted around the end of the table).
            if (bucket - home) & mask >= (bucket - hole) & mask {
                buckets[hole] = buckets[bucket]
                hole = bucket
            }
            bucket = (bucket + 1) & mask
        }
        buckets[hole] = 0
    }

    /// What breaks the table, if anything, for sites whose keys are `keys` (by slot, nil at a vacant
    /// slot): one bucket per site, each site found at its slot by its key.
    func violation(keys: [String?]) -> String? {
        let sites = keys.count { $0 != nil }
        guard count == sites else { return "\(count) slots for \(sites) sites" }
        for (slot, key) in keys.enumerated() {
            guard let key else { continue }
            let found = key.withUTF8Bytes { bytes in self.slot(ofKey: bytes) { keys[$0]?.hasUTF8(bytes) ?? false } }
            guard found == slot else { return "the site \(key) is not found at its slot" }
        }
        return buckets.count(where: { $0 != 0 }) == count ? nil : "the buckets do not hold one entry per site"
    }
}
