/// A site's table of the domains (or paths, or partition keys) its cookies share: each distinct string
/// is kept once and cookies refer to it by slot. A site's cookies use few distinct domains and paths, so
/// the table is small: lookups scan it, retrieval decides once per slot instead of once per cookie, and
/// the jar holds one copy of each string instead of one per cookie.
struct InternedStrings: Sendable {
    struct Slot: Sendable {
        /// The string; "" in a free slot.
        var string: String
        /// Its UTF-8 length.
        var byteCount: UInt32
        /// How many cookies use the slot; 0 in a free slot.
        var uses: UInt32
        /// Its first eight bytes (all of them when fewer, zeros above), where a slot is: a string of more
        /// than fifteen bytes keeps them in an allocation of its own, which a comparison that fails on the
        /// first bytes never reads (`couldBe(_:at:)`).
        var head: UInt64

        init(string: String, uses: UInt32) {
            (self.string, self.uses) = (string, uses)
            (byteCount, head) = string.withUTF8Bytes { bytes in
                (UInt32(truncatingIfNeeded: bytes.count), bytes.word(from: 0, count: min(8, bytes.count)))
            }
        }

        /// False when the string is not the bytes of `bytes` from `offset` on, by the first eight of
        /// them: `offset` plus the string's length is at most `bytes.count`. True says nothing.
        @inline(__always)
        func couldBe(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
            bytes.word(from: offset, count: min(8, Int(byteCount))) == head
        }
    }

    /// The slots, free ones included (one allocation per table).
    private(set) var slots: [Slot] = []
    /// How many of the slots are free: a new string looks for one only when some are.
    private(set) var freeCount = 0

    /// How many slots the table has (free ones included).
    var count: Int { slots.count }

    @inline(__always)
    subscript(slot: UInt32) -> String { slots[Int(slot)].string }

    /// How many cookies use `slot` (0 for a free one).
    func uses(of slot: UInt32) -> Int { Int(slots[Int(slot)].uses) }

    /// The UTF-8 length of the string at `slot`.
    @inline(__always)
    func byteCount(of slot: UInt32) -> Int { Int(slots[Int(slot)].byteCount) }

    /// The slot holding `string` (the same bytes), if some cookie uses it.
    func slot(of string: String) -> UInt32? {
        string.withUTF8Bytes(slot(ofUTF8:))
    }

    /// The slot holding the string whose UTF-8 is `bytes`, if some cookie uses it.
    func slot(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        slots.withUnsafeBufferPointer { slots in
            for index in slots.indices
            where Int(slots[index].byteCount) == bytes.count && slots[index].uses > 0 && slots[index].couldBe(bytes, at: 0)
                && slots[index].string.hasUTF8(bytes)
            {
                return UInt32(truncatingIfNeeded: index)
            }
            return nil
        }
    }

    /// True when `slot` holds the string whose UTF-8 is `bytes` (the slot of a cookie, in use).
    @inline(__always)
    func slot(_ slot: UInt32, holds bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        slots.withUnsafeBufferPointer { Int($0[Int(slot)].byteCount) == bytes.count && $0[Int(slot)].string.hasUTF8(bytes) }
    }

    /// The slot of `string`, added when no cookie uses it yet; counts one more use.
    mutating func retain(_ string: String) -> UInt32 {
        if let slot = slot(of: string) {
            slots[Int(slot)].uses += 1
            return slot
        }
        return add(string)
    }

    /// Removes every string, keeping the slots' memory (one at a time: the tables of a site being emptied
    /// to be kept for another are small).
    mutating func removeAll() {
        while slots.popLast() != nil {}
        freeCount = 0
    }

    /// Puts `string`, which no slot holds, in a slot with one use.
    private mutating func add(_ string: String) -> UInt32 {
        let new = Slot(string: string, uses: 1)
        if freeCount > 0, let free = slots.firstIndex(where: { $0.uses == 0 }) {
            slots[free] = new
            freeCount -= 1
            return UInt32(truncatingIfNeeded: free)
        }
        slots.append(new)
        return UInt32(truncatingIfNeeded: slots.count - 1)
    }

    /// The slot of the string whose UTF-8 is `bytes`, counted one more use: a file's bytes (well-formed
    /// UTF-8, which its reader checked), made into a String only when no slot has them. `likely`, a slot in
    /// use that probably holds them (the previous cookie's, as a file gives a site's cookies one after
    /// another), is tried before the others. `candidate`, a String that may have the same bytes (the site's
    /// key, which is the domain of its host-only cookies), is kept instead of a new one when it does.
    mutating func retain(
        utf8 bytes: UnsafeBufferPointer<UInt8>, tryingFirst likely: UInt32? = nil, reusing candidate: String? = nil
    ) -> UInt32 {
        if let likely, slot(likely, holds: bytes) {
            slots[Int(likely)].uses += 1
            return likely
        }
        if let slot = slot(ofUTF8: bytes) {
            slots[Int(slot)].uses += 1
            return slot
        }
        if let candidate, candidate.hasUTF8(bytes) { return add(candidate) }
        return add(String(decoding: bytes, as: UTF8.self))
    }

    /// Counts one use less of `slot`; the slot is freed with its last use.
    mutating func release(_ slot: UInt32) {
        let index = Int(slot)
        slots[index].uses -= 1
        if slots[index].uses == 0 {
            slots[index] = Slot(string: "", uses: 0)
            freeCount += 1
        }
    }
}
