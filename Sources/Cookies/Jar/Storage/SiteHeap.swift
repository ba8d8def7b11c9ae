/// The sites of a store ordered by a bound of theirs (a lower bound: the earliest expiry of their cookies,
/// or the eviction rank of their first cookie to evict), ties broken by site key: a binary min-heap of
/// site slots. It finds the sites at or below a bound, and the first site, without visiting the others,
/// so that the jar-wide purges cost what they remove rather than a visit to every site. Each site is in
/// it at most once; the store keeps the bounds current (`CookieStore.withSite(at:_:)`).
struct SiteHeap<Bound: Comparable & Sendable>: Sendable {
    /// A site in the heap: its bound, its slot in the store, and its key (for ties).
    struct Node: Sendable {
        var bound: Bound
        var slot: Int32
        let site: String
    }

    /// The heap: each node's bound (then site key) is no greater than its children's.
    private(set) var nodes: [Node] = []
    /// Site slot → position of its node in `nodes`, -1 when it has none.
    private var positions: [Int32] = []

    /// The bound and slot of the first site: the least bound, then the least key.
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

    /// Gives the site at `slot` (named `site`, read only when it is new to the heap) the bound `bound`.
    @inline(__always)
    mutating func set(_ bound: Bound, forSlot slot: Int, site: @autoclosure () -> String) {
        if let position = position(ofSlot: slot) {
            let old = nodes.withUnsafeBufferPointer { $0[position].bound }
            guard old != bound else { return }
            nodes[position].bound = bound
            if bound < old { siftUp(position) } else { siftDown(position) }
        } else {
            insert(Node(bound: bound, slot: Int32(slot), site: site()))
        }
    }

    private mutating func insert(_ node: Node) {
        let slot = Int(node.slot)
        if slot >= positions.count { positions += repeatElement(-1, count: slot + 1 - positions.count) }
        nodes.append(node)
        positions[slot] = Int32(nodes.count - 1)
        siftUp(nodes.count - 1)
    }

    /// Takes the site at `slot` out of the heap, if it is in it.
    ///
    /// The last node fills the hole, but not where the hole is: the hole first sinks to the bottom through
    /// the lesser child of each level (one comparison a level, where sifting the last node down from the
    /// hole takes two), then the last node goes into it and sifts up, which it seldom does far, coming
    /// from the bottom itself. Every site a purge removes leaves two heaps this way.
    mutating func remove(slot: Int) {
        guard let position = position(ofSlot: slot) else { return }
        positions[slot] = -1
        let last = nodes.removeLast()
        guard position < nodes.count else { return }
        let hole = nodes.withUnsafeMutableBufferPointer { nodes in
            positions.withUnsafeMutableBufferPointer { positions in
                let base = nodes.baseAddress!
                (base + position).deinitialize(count: 1)
                var hole = position
                while 2 * hole + 1 < nodes.count {
                    var child = 2 * hole + 1
                    if child + 1 < nodes.count, SiteHeap.precedes(child + 1, child, in: UnsafeBufferPointer(nodes)) { child += 1 }
                    (base + hole).moveInitialize(from: base + child, count: 1)
                    positions[Int(base[hole].slot)] = Int32(truncatingIfNeeded: hole)
                    hole = child
                }
                (base + hole).initialize(to: last)
                positions[Int(last.slot)] = Int32(truncatingIfNeeded: hole)
                return hole
            }
        }
        siftUp(hole)
    }

    /// Notes that the site at slot `old` moved to slot `new` (which has no node).
    mutating func moveSlot(_ old: Int, to new: Int) {
        guard let position = position(ofSlot: old) else { return }
        positions[old] = -1
        if new >= positions.count { positions += repeatElement(-1, count: new + 1 - positions.count) }
        positions[new] = Int32(position)
        nodes[position].slot = Int32(new)
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

    // The sifts work on the nodes in place: the node that moves is taken out, the nodes it passes move
    // one level into the hole it leaves, and it goes into the last hole; only bounds are read unless two
    // are equal. No key is retained or released on the way, and each level writes one node (a heap of a
    // jar's sites is some 12 levels deep, and every site that goes leaves two heaps).

    /// Whether a node of `bound` and `site` precedes one of `otherBound` and `otherSite`.
    @inline(__always)
    private static func precedes(_ bound: Bound, _ site: String, _ otherBound: Bound, _ otherSite: String) -> Bool {
        bound < otherBound || (bound == otherBound && site < otherSite)
    }

    /// Whether the node at `first` precedes the node at `second`.
    @inline(__always)
    private static func precedes(_ first: Int, _ second: Int, in nodes: UnsafeBufferPointer<Node>) -> Bool {
        precedes(nodes[first].bound, nodes[first].site, nodes[second].bound, nodes[second].site)
    }

    private mutating func siftUp(_ start: Int) {
        nodes.withUnsafeMutableBufferPointer { nodes in
            positions.withUnsafeMutableBufferPointer { positions in
                let base = nodes.baseAddress!
                let moving = (base + start).move()
                var hole = start
                while hole > 0 {
                    let parent = (hole - 1) / 2
                    guard SiteHeap.precedes(moving.bound, moving.site, base[parent].bound, base[parent].site) else { break }
                    (base + hole).moveInitialize(from: base + parent, count: 1)
                    positions[Int(base[hole].slot)] = Int32(truncatingIfNeeded: hole)
                    hole = parent
                }
                positions[Int(moving.slot)] = Int32(truncatingIfNeeded: hole)
                (base + hole).initialize(to: moving)
            }
        }
    }

    private mutating func siftDown(_ start: Int) {
        nodes.withUnsafeMutableBufferPointer { nodes in
            positions.withUnsafeMutableBufferPointer { positions in
                let base = nodes.baseAddress!
                let moving = (base + start).move()
                var hole = start
                while 2 * hole + 1 < nodes.count {
                    var child = 2 * hole + 1
                    if child + 1 < nodes.count, SiteHeap.precedes(child + 1, child, in: UnsafeBufferPointer(nodes)) { child += 1 }
                    guard SiteHeap.precedes(base[child].bound, base[child].site, moving.bound, moving.site) else { break }
                    (base + hole).moveInitialize(from: base + child, count: 1)
                    positions[Int(base[hole].slot)] = Int32(truncatingIfNeeded: hole)
                    hole = child
                }
                positions[Int(moving.slot)] = Int32(truncatingIfNeeded: hole)
                (base + hole).initialize(to: moving)
            }
        }
    }

    /// What breaks the heap, if anything, for sites whose keys and bounds are `sites` (by slot): one node
    /// per site holding its key and bound, positions that find them, and the heap order.
    func violation(sites: [(key: String, bound: Bound)]) -> String? {
        guard nodes.count == sites.count else { return "\(nodes.count) nodes for \(sites.count) sites" }
        for (position, node) in nodes.enumerated() {
            let slot = Int(node.slot)
            guard slot < sites.count, self.position(ofSlot: slot) == position else { return "a node's slot does not find it" }
            guard sites[slot].key == node.site, sites[slot].bound == node.bound else { return "the node of \(node.site) is stale" }
            if position > 0, nodes.withUnsafeBufferPointer({ SiteHeap.precedes(position, (position - 1) / 2, in: $0) }) {
                return "the node of \(node.site) precedes its parent"
            }
        }
        return nil
    }
}
