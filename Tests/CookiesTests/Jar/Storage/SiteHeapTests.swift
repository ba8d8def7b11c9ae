import Testing

@testable import Cookies

/// The store's order of its sites by a bound (`SiteHeap`): the first site is one of least bound (the one
/// of least key among them, in a heap that orders ties by key), through bounds that rise and fall,
/// removals anywhere in the heap, and slots that a removal vacates and a later site takes, as the store's
/// array of sites does.
struct SiteHeapTests {
    /// Seeded runs of bound changes, removals (of the first site, as a purge takes them, and of any
    /// other) and additions into vacated slots, checked against an array of keys and bounds kept the way
    /// the store keeps its sites: the heap's own check (one node per site, positions that find them, heap
    /// order) and its first site after every step, and after the vacant slots are given back (every
    /// thousandth step). Bounds come from a small range, so that many sites
    /// tie: the eviction order settles ties by key, the expiry order leaves them as they fall.
    @Test(arguments: [1, 2, 3] as [UInt64], [true, false])
    func firstSiteFollowsTheBounds(seed: UInt64, ordersTiesByKey: Bool) {
        var random = SplitMix64(seed: seed)
        var heap = SiteHeap<Int>(ordersTiesByKey: ordersTiesByKey)
        var sites: [(key: String, bound: Int)?] = []
        var vacant: [Int] = []
        var nextKey = 0
        for step in 0..<4_000 {
            let action = random.next() % 100
            let occupied = sites.indices.filter { sites[$0] != nil }
            // More additions than removals early on, then more removals: the heap grows, then empties.
            if occupied.isEmpty || action < (step < 2_000 ? 45 : 25) {
                let key = "site\(nextKey).example"
                nextKey += 1
                let bound = Int(random.next() % 50)
                let slot: Int
                if let latest = vacant.popLast() {
                    slot = latest
                    sites[slot] = (key, bound)
                } else {
                    sites.append((key, bound))
                    slot = sites.count - 1
                }
                heap.set(bound, forSlot: slot) { sites[$0]!.key }
            } else if action < 70 {
                let slot = occupied[Int(random.next() % UInt64(occupied.count))]
                sites[slot]!.bound = Int(random.next() % 50)
                heap.set(sites[slot]!.bound, forSlot: slot) { sites[$0]!.key }
            } else {
                // The first site half the time; any site otherwise.
                let slot = action < 85 ? heap.first!.slot : occupied[Int(random.next() % UInt64(occupied.count))]
                heap.remove(slot: slot) { sites[$0]!.key }
                sites[slot] = nil
                vacant.append(slot)
            }
            if step % 1_000 == 999 {
                heap.renumber(giveBackVacantSlots(&sites))
                vacant = []
            }
            #expect(heap.violation(sites: sites) == nil, "step \(step)")
            let least = sites.indices.filter { sites[$0] != nil }.min { (sites[$0]!.bound, sites[$0]!.key) < (sites[$1]!.bound, sites[$1]!.key) }
            if ordersTiesByKey {
                #expect(heap.first?.slot == least, "step \(step)")
            } else {
                #expect(heap.first?.bound == least.map { sites[$0]!.bound }, "step \(step)")
            }
        }
    }

    /// Sites whose bound is at most a limit are found, and no others.
    @Test func slotsBoundedByALimit() {
        var heap = SiteHeap<Int>(ordersTiesByKey: false)
        let bounds = [7, 3, 9, 3, 1, 12, 5, 8, 2, 10]
        for (slot, bound) in bounds.enumerated() { heap.set(bound, forSlot: slot) { "s\($0)" } }
        heap.remove(slot: 4) { "s\($0)" }
        #expect(Set(heap.slots(boundedBy: 5)) == [1, 3, 6, 8])
        #expect(heap.slots(boundedBy: 0).isEmpty)
    }
}
