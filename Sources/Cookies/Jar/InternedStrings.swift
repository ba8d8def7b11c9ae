/// A site's table of the domains (or paths, or partition keys) its cookies share: each distinct string
/// is kept once and cookies refer to it by slot. A site's cookies use few distinct domains and paths, so
/// the table is small: lookups scan it, retrieval decides once per slot instead of once per cookie, and
/// the jar holds one copy of each string instead of one per cookie.
struct InternedStrings: Sendable {
    /// The strings by slot; a free slot holds "" and has no uses.
    private(set) var strings: [String] = []
    /// The UTF-8 length of each string.
    private(set) var byteCounts: [Int] = []
    /// How many cookies use each slot.
    private var uses: [UInt32] = []
    /// Slots whose string no cookie uses any more, for reuse.
    private var free: [UInt32] = []

    /// How many cookies use `slot`.
    func useCount(of slot: Int) -> UInt32 { uses[slot] }

    /// How many slots the table has (free ones included).
    var count: Int { strings.count }

    @inline(__always)
    subscript(slot: UInt32) -> String { strings[Int(slot)] }

    /// The slot holding `string` (the same bytes), if some cookie uses it.
    func slot(of string: String) -> UInt32? {
        for index in strings.indices where uses[index] > 0 && strings[index].hasSameUTF8(as: string) {
            return UInt32(truncatingIfNeeded: index)
        }
        return nil
    }

    /// The slot of `string`, added when no cookie uses it yet; counts one more use.
    mutating func retain(_ string: String) -> UInt32 {
        if let slot = slot(of: string) {
            uses[Int(slot)] += 1
            return slot
        }
        if let slot = free.popLast() {
            strings[Int(slot)] = string
            byteCounts[Int(slot)] = string.utf8.count
            uses[Int(slot)] = 1
            return slot
        }
        strings.append(string)
        byteCounts.append(string.utf8.count)
        uses.append(1)
        return UInt32(truncatingIfNeeded: strings.count - 1)
    }

    /// Counts one use less of `slot`; the slot is freed with its last use.
    mutating func release(_ slot: UInt32) {
        let index = Int(slot)
        uses[index] -= 1
        if uses[index] == 0 {
            strings[index] = ""
            byteCounts[index] = 0
            free.append(slot)
        }
    }
}
