import Testing

@testable import Cookies

/// The store's index of its sites by key (`SiteSlots`): a slot per site, found by the key's bytes, and a
/// removal that moves the last site into the removed one's slot, as the store's array of sites does.
struct SiteSlotsTests {
    /// Seeded runs of additions and removals (removals of the first, last and middle slots, in a table
    /// that grows past its first size and shrinks back), checked against an array of keys kept the way
    /// the store keeps its sites: every key is found at its slot, a removed key is not found, and the
    /// table's own check finds nothing wrong.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func slotsFollowTheSitesTheyIndex(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var table = SiteSlots()
        var keys: [String] = []
        var removed: Set<String> = []
        func slot(of key: String) -> Int? {
            key.withUTF8Bytes { bytes in table.slot(ofKey: bytes) { keys[$0].hasUTF8(bytes) } }
        }
        for step in 0..<6_000 {
            // More additions than removals early on, then more removals: the table grows, then empties.
            let adds = random.next() % 100 < (step < 3_000 ? 70 : 30)
            if adds || keys.isEmpty {
                let key = "site\(random.next() % 5_000).example"
                guard slot(of: key) == nil else { continue }
                key.withUTF8Bytes { table.append(key: $0) }
                keys.append(key)
                removed.remove(key)
            } else {
                let position = Int(random.next() % UInt64(keys.count))
                table.remove(slot: position)
                removed.insert(keys[position])
                keys.swapAt(position, keys.count - 1)
                keys.removeLast()
            }
            if step % 500 == 0 || step == 5_999 {
                #expect(table.violation(keys: keys) == nil, "step \(step)")
                #expect(keys.indices.allSatisfy { slot(of: keys[$0]) == $0 }, "step \(step)")
                #expect(removed.allSatisfy { slot(of: $0) == nil }, "step \(step)")
            }
        }
    }

    /// Keys that differ only in their last bytes, or are prefixes of one another, are told apart (the
    /// hash reads the bytes a word at a time; equal hashes are settled by comparing the keys).
    @Test func keysThatShareTheirFirstBytesAreToldApart() {
        let keys = ["a.example", "a.example.", "b.example", "example", "xample", "a.exampl", "1.2.3.4", "1.2.3.5", ""]
        var table = SiteSlots()
        for key in keys { key.withUTF8Bytes { table.append(key: $0) } }
        for (slot, key) in keys.enumerated() {
            #expect(key.withUTF8Bytes { bytes in table.slot(ofKey: bytes) { keys[$0].hasUTF8(bytes) } } == slot, "\(key)")
        }
        #expect("c.example".withUTF8Bytes { bytes in table.slot(ofKey: bytes) { keys[$0].hasUTF8(bytes) } } == nil)
    }
}
