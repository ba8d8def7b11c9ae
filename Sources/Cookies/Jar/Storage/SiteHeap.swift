/// The sites of a store ordered by a bound of theirs (a lower bound: the earliest expiry of their cookies,
/// or the eviction rank of their first cookie to evict), ties broken by site key: a binary min-heap of
/// site slots. It finds the sites at or below a bound, and the first site, without visiting the others,
/// so that the jar-wide purges cost what they remove rather than a visit to every site. Each site is in
/// it at most once; the store keeps the bounds current (`CookieStore.withSite(at:_:)`).
///
/// A node holds no key: the calls that reorder the heap are given the key of the site at a slot
/// (`keys`), read only when two bounds are equal and the heap orders ties by key. Nodes are plain data,
/// 16 or 24 bytes, and a purge that empties a few hundred sites moves them a dozen levels each.
struct SiteHeap<Bound: Comparable & Sendable & BitwiseCopyable>: Sendable {
    /// A site in the heap: its bound and its slot in the store.
    struct Node: Sendable, BitwiseCopyable {
        var bound: Bound
        var slot: Int32
    }

    /// The heap: each node's bound (then site key) is no greater than its children's.
    private(set) var nodes: [Node] = []
    /// Site slot → position of its node in `nodes`, -1 when it has none.
    private var positions: [Int32] = []
    /// Whether equal bounds are ordered by site key, so that `first` is the same whatever the slots. A
    /// heap whose sites are only ever taken as a set (`slots(boundedBy:)`) leaves ties as they fall and
    /// reads no key: sites received in the same tick of the clock share their bounds, and a key read at
    /// each level of a sift is a visit to another site's memory.
    private let ordersTiesByKey: Bool

    init(ordersTiesByKey: Bool) {
        self.ordersTiesByKey = ordersTiesByKey
    }

    /// The bound and slot of the first site: the least bound, then the least key when the heap orders ties
    /// by key.
    var first: (bound: Bound, slot: Int)? {
        nodes.withUnsafeBufferPointer { nodes in nodes.isEmpty ? nil : (nodes[0].bound, Int(nodes[0].slot)) }
    }

    /// The position of the node of the site at `slot`, nil when it has none.
    @inline(__always)
    private func position(ofSlot slot: Int) -> Int? {
        guard slot < positions.count else { return nil }
        let position = positions.withUnsafeBufferPointer { $0[slot] }
        return position < 0 ? nil : Int(position)
    }

    /// Gives the site at `slot` the bound `bound`; `keys` gives the key of the site at a slot.
    @inline(__always)
    mutating func set(_ bound: Bound, forSlot slot: Int, keys: (Int) -> String) {
        if let position = position(ofSlot: slot) {
            let old = nodes.withUnsafeBufferPointer { $0[position].bound }
            guard old != bound else { return }
            nodes[position].bound = bound
            if bound < old { siftUp(position, keys: keys) } else { siftDown(position, keys: keys) }
        } else {
            insert(Node(bound: bound, slot: Int32(slot)), keys: keys)
        }
    }

    private mutating func insert(_ node: Node, keys: (Int) -> String) {
        let slot = Int(node.slot)
        makePosition(forSlot: slot)
        nodes.append(node)
        positions[slot] = Int32(nodes.count - 1)
        siftUp(nodes.count - 1, keys: keys)
    }

    /// Makes `positions` long enough to hold `slot`'s.
    private mutating func makePosition(forSlot slot: Int) {
        if slot >= positions.count { positions += repeatElement(-1, count: slot + 1 - positions.count) }
    }

    /// Takes the site at `slot` out of the heap, if it is in it; `keys` gives the key of the site at a slot.
    ///
    /// The last node fills the hole, but not where the hole is: the hole first sinks to the bottom through
    /// the lesser child of each level (one comparison a level, where sifting the last node down from the
    /// hole takes two), then the last node goes into it and sifts up, which it seldom does far, coming
    /// from the bottom itself. Every site a purge removes leaves two heaps this way.
    mutating func remove(slot: Int, keys: (Int) -> String) {
        guard let position = position(ofSlot: slot) else { return }
        positions[slot] = -1
        let last = nodes.removeLast()
        guard position < nodes.count else { return }
        let tiesByKey = ordersTiesByKey
        let hole = nodes.withUnsafeMutableBufferPointer { nodes in
            positions.withUnsafeMutableBufferPointer { positions in
                var hole = position
                while 2 * hole + 1 < nodes.count {
                    var child = 2 * hole + 1
                    if child + 1 < nodes.count, SiteHeap.precedes(nodes[child + 1], nodes[child], tiesByKey: tiesByKey, keys: keys) { child += 1 }
                    nodes[hole] = nodes[child]
                    positions[Int(nodes[hole].slot)] = Int32(truncatingIfNeeded: hole)
                    hole = child
                }
                nodes[hole] = last
                positions[Int(last.slot)] = Int32(truncatingIfNeeded: hole)
                return hole
            }
        }
        siftUp(hole, keys: keys)
    }

    /// Moves each site from its slot to `newSlots[slot]` (every site of the heap has one): the order
    /// stays, as bounds and keys do.
    mutating func renumber(_ newSlots: [Int32]) {
        positions = []
        for position in nodes.indices {
            let slot = Int(newSlots[Int(nodes[position].slot)])
            nodes[position].slot = Int32(truncatingIfNeeded: slot)
            makePosition(forSlot: slot)
            positions[slot] = Int32(truncatingIfNeeded: position)
        }
    }

    /// The slots of the sites whose bound is at most `limit`, in no particular order: only their nodes and
    /// their children are read.
    func slots(boundedBy limit: Bound) -> [Int] {
        var found: [Int] = []
        var pending = nodes.isEmpty ? [] : [0]
        while let position = pending.popLast() {
            guard nodes[position].bound <= limit else { continue }
            found.append(Int(nodes[position].slot))
            for child in (2 * position + 1)...(2 * position + 2) where child < nodes.count { pending.append(child) }
        }
        return found
    }

    // The sifts work on the nodes in place: the node that moves is held aside, the nodes it passes move
    // one level into the hole it leaves, and it goes into the last hole; only bounds are read unless two
    // are equal. Each level writes one node (a heap of a jar's sites is some 12 levels deep, and every
    // site that goes leaves two heaps).

    /// Whether `first` precedes `second`: a lesser bound, or an equal one and a lesser key when ties are
    /// ordered by key.
    @inline(__always)
    private static func precedes(_ first: Node, _ second: Node, tiesByKey: Bool, keys: (Int) -> String) -> Bool {
        first.bound < second.bound
            || (tiesByKey && first.bound == second.bound && keys(Int(first.slot)) < keys(Int(second.slot)))
    }

    private mutating func siftUp(_ start: Int, keys: (Int) -> String) {
        let tiesByKey = ordersTiesByKey
        nodes.withUnsafeMutableBufferPointer { nodes in
            positions.withUnsafeMutableBufferPointer { positions in
                let moving = nodes[start]
                var hole = start
                while hole > 0 {
                    let parent = (hole - 1) / 2
                    guard SiteHeap.precedes(moving, nodes[parent], tiesByKey: tiesByKey, keys: keys) else { break }
                    nodes[hole] = nodes[parent]
                    positions[Int(nodes[hole].slot)] = Int32(truncatingIfNeeded: hole)
                    hole = parent
                }
                positions[Int(moving.slot)] = Int32(truncatingIfNeeded: hole)
                nodes[hole] = moving
            }
        }
    }

    private mutating func siftDown(_ start: Int, keys: (Int) -> String) {
        let tiesByKey = ordersTiesByKey
        nodes.withUnsafeMutableBufferPointer { nodes in
            positions.withUnsafeMutableBufferPointer { positions in
                let moving = nodes[start]
                var hole = start
                while 2 * hole + 1 < nodes.count {
                    var child = 2 * hole + 1
                    if child + 1 < nodes.count, SiteHeap.precedes(nodes[child + 1], nodes[child], tiesByKey: tiesByKey, keys: keys) { child += 1 }
                    guard SiteHeap.precedes(nodes[child], moving, tiesByKey: tiesByKey, keys: keys) else { break }
                    nodes[hole] = nodes[child]
                    positions[Int(nodes[hole].slot)] = Int32(truncatingIfNeeded: hole)
                    hole = child
                }
                positions[Int(moving.slot)] = Int32(truncatingIfNeeded: hole)
                nodes[hole] = moving
            }
        }
    }

    /// What breaks the heap, if anything, for sites whose keys and bounds are `sites` (by slot, nil at a
    /// vacant slot): one node per site holding its key and bound, positions that find them, and the heap
    /// order.
    func violation(sites: [(key: String, bound: Bound)?]) -> String? {
        let siteCount = sites.count { $0 != nil }
        guard nodes.count == siteCount else { return "\(nodes.count) nodes for \(siteCount) sites" }
        for (position, node) in nodes.enumerated() {
            let slot = Int(node.slot)
            guard slot < sites.count, let site = sites[slot], self.position(ofSlot: slot) == position else {
                return "a node's slot does not find it"
            }
            guard site.bound == node.bound else { return "the node of \(site.key) is stale" }
            if position > 0, SiteHeap.precedes(node, nodes[(position - 1) / 2], tiesByKey: ordersTiesByKey, keys: { sites[$0]?.key ?? "" }) {
                return "the node of \(site.key) precedes its parent"
            }
        }
        // A vacant slot has no node: the next site given the slot enters the heap anew.
        if sites.indices.contains(where: { sites[$0] == nil && position(ofSlot: $0) != nil }) { return "a vacant slot has a node" }
        return nil
    }
}
