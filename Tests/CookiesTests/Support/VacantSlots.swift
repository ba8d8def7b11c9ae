/// The vacant slots of `slots` (nil) given back, as the store gives them (`CookieStore.releaseVacantSlotsIfMany`):
/// the new slot of each occupied slot, the occupied ones in their order from 0 (-1 at a vacant slot), for
/// `SiteSlots.renumber` and `SiteHeap.renumber`; `slots` becomes its occupied slots alone.
func giveBackVacantSlots<Element>(_ slots: inout [Element?]) -> [Int32] {
    var newSlots = [Int32](repeating: -1, count: slots.count)
    for (newSlot, slot) in slots.indices.filter({ slots[$0] != nil }).enumerated() { newSlots[slot] = Int32(newSlot) }
    slots = slots.filter { $0 != nil }
    return newSlots
}
