#if CookiesPostgres
/// Values by key in the order of their last use: a dictionary of positions in a doubly linked list kept
/// in an array (the most recently used first), so that using, adding, removing and finding the least
/// recently used value each take constant time, however many values there are.
struct LeastRecentlyUsed<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        /// nil once removed: a removed value is not kept alive by the free position.
        var value: Value?
        /// The positions in `nodes` of the next more and the next less recently used node (-1: none).
        var newer: Int
        var older: Int
    }

    private var positions: [Key: Int] = [:]
    private var nodes: [Node] = []
    /// Positions in `nodes` that hold no value, for the next insertion.
    private var free: [Int] = []
    private var newest = -1
    private var oldest = -1

    /// How many values are kept.
    var count: Int { positions.count }

    /// Every value, in no particular order.
    var values: [Value] { positions.values.map { nodes[$0].value! } }

    /// Every key, in no particular order.
    var keys: [Key] { Array(positions.keys) }

    /// The value of `key`, without counting as a use.
    func peek(_ key: Key) -> Value? {
        positions[key].map { nodes[$0].value! }
    }

    /// The value of `key`, which becomes the most recently used.
    mutating func use(_ key: Key) -> Value? {
        guard let position = positions[key] else { return nil }
        unlink(position)
        linkAsNewest(position)
        return nodes[position].value!
    }

    /// Sets the value of `key`, which becomes the most recently used.
    mutating func set(_ value: Value, for key: Key) {
        if let position = positions[key] {
            nodes[position].value = value
            unlink(position)
            linkAsNewest(position)
            return
        }
        let node = Node(key: key, value: value, newer: -1, older: -1)
        let position: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            position = reused
        } else {
            nodes.append(node)
            position = nodes.count - 1
        }
        positions[key] = position
        linkAsNewest(position)
    }

    /// Removes the value of `key` and returns it.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let position = positions.removeValue(forKey: key) else { return nil }
        unlink(position)
        free.append(position)
        defer { nodes[position].value = nil }
        return nodes[position].value!
    }

    /// Removes the least recently used value and returns it with its key.
    mutating func removeLeastRecentlyUsed() -> (key: Key, value: Value)? {
        guard oldest >= 0 else { return nil }
        let key = nodes[oldest].key
        return (key, remove(key)!)
    }

    private mutating func unlink(_ position: Int) {
        let node = nodes[position]
        if node.newer >= 0 { nodes[node.newer].older = node.older } else { newest = node.older }
        if node.older >= 0 { nodes[node.older].newer = node.newer } else { oldest = node.newer }
    }

    private mutating func linkAsNewest(_ position: Int) {
        nodes[position].newer = -1
        nodes[position].older = newest
        if newest >= 0 { nodes[newest].newer = position } else { oldest = position }
        newest = position
    }
}
#endif
