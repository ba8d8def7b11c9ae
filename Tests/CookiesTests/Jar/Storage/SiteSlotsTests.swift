import Testing

@testable import Cookies

/// The store's index of its sites by key (`SiteSlots`): a slot per site, found by the key's bytes, and a
/// removal that vacates the removed site's slot for a later site, as the store's array of sites does.
struct SiteSlotsTests {
    /// Seeded runs of additions (into the latest vacated slot, else a new one) and removals, in a table
    /// that grows past its first size and shrinks back, its vacant slots given back every thousandth step
    /// (`renumber`, buckets sized anew), checked against an array of keys kept the way
    /// the store keeps its sites: every key is found at its slot, a removed key is not found, and the
    /// table's own check finds nothing wrong.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func slotsFollowTheSitesTheyIndex(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = SiteSlots()
        var keys: [String?] = []
        var vacant: [Int] = []
        var removed: Set<String> = []
        func slot(of key: String) -> Int? {
            key.withUTF8Bytes { bytes in table.slot(ofKey: bytes) { keys[$0]?.hasUTF8(bytes) ?? false } }
        }
        for step in 0..<6_000 {
            // More additions than removals early on, then more removals: the table grows, then empties.
            let adds = random.next() % 100 < (step < 3_000 ? 70 : 30)
            let occupied = keys.indices.filter { keys[$0] != nil }
            if adds || occupied.isEmpty {
                let key = "site\(random.next() % 5_000).example"
                guard slot(of: key) == nil else { continue }
                let slot = vacant.popLast() ?? keys.count
                key.withUTF8Bytes { table.add(key: $0, at: slot) }
                if slot == keys.count { keys.append(key) } else { keys[slot] = key }
                removed.remove(key)
            } else {
                let position = occupied[Int(random.next() % UInt64(occupied.count))]
                table.remove(slot: position)
                removed.insert(keys[position]!)
                keys[position] = nil
                vacant.append(position)
            }
            if step % 1_000 == 999 {
                table.renumber(giveBackVacantSlots(&keys))
                vacant = []
            }
            if step % 500 == 0 || step % 1_000 == 999 || step == 5_999 {
                #expect(table.violation(keys: keys) == nil, "step \(step)")
                #expect(keys.indices.allSatisfy { index in keys[index].map { slot(of: $0) == index } ?? true }, "step \(step)")
                #expect(removed.allSatisfy { slot(of: $0) == nil }, "step \(step)")
            }
        }
    }

    /// The table grows while some slots are vacant: it places again the sites it holds, not the stale
    /// hashes of vacant slots (40 sites, 5 removed, 40 more added after the last slot: the buckets double
    /// with the five slots vacant).
    @Test func growsWhileSlotsAreVacant() {
        var table = SiteSlots()
        var keys: [String?] = []
        func slot(of key: String) -> Int? {
            key.withUTF8Bytes { bytes in table.slot(ofKey: bytes) { keys[$0]?.hasUTF8(bytes) ?? false } }
        }
        for index in 0..<40 {
            let key = "a\(index).example"
            key.withUTF8Bytes { table.add(key: $0, at: index) }
            keys.append(key)
        }
        for index in [3, 9, 17, 25, 33] {
            table.remove(slot: index)
            keys[index] = nil
        }
        for index in 0..<40 {
            let key = "b\(index).example"
            let slot = keys.count
            key.withUTF8Bytes { table.add(key: $0, at: slot) }
            keys.append(key)
        }
        #expect(table.violation(keys: keys) == nil)
        #expect(keys.indices.allSatisfy { index in keys[index].map { slot(of: $0) == index } ?? true })
        #expect(["a3.example", "a9.example", "a33.example"].allSatisfy { slot(of: $0) == nil })
    }

    /// Keys that differ only in their last bytes, or are prefixes of one another, are told apart (the
    /// hash reads the bytes a word at a time; equal hashes are settled by comparing the keys).
    @Test func keysThatShareTheirFirstBytesAreToldApart() {
        let keys = ["a.example", "a.example.", "b.example", "example", "xample", "a.exampl", "1.2.3.4", "1.2.3.5", ""]
        var table = SiteSlots()
        for (slot, key) in keys.enumerated() { key.withUTF8Bytes { table.add(key: $0, at: slot) } }
        for (slot, key) in keys.enumerated() {
            #expect(key.withUTF8Bytes { bytes in table.slot(ofKey: bytes) { keys[$0].hasUTF8(bytes) } } == slot, "\(key)")
        }
        #expect("c.example".withUTF8Bytes { bytes in table.slot(ofKey: bytes) { keys[$0].hasUTF8(bytes) } } == nil)
    }
}
