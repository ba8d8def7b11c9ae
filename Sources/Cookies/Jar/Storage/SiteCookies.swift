/// The cookies of one site (registrable domain, or host when it has none), kept in the order §5.8.3
/// step 2 sends them: longer paths first, then earlier creation times. Retrieval never sorts.
///
/// Each cookie is a `StoredCookie` (plain data); its name and value are a pair in `pairs`. Domains, paths
/// and partition keys are slots of the site's tables: the site holds each distinct string once, and
/// retrieval decides domain- and path-matching once per distinct string (`RetrievalFilter`).
struct SiteCookies: Sendable {
    /// The site key: the registrable domain, or the host.
    private(set) var key: String
    private(set) var entries: [StoredCookie] = []
    /// The `CookieIdentityBytes.tag` of each entry, in the same order: what the search for a cookie of an
    /// identity reads.
    private(set) var identityTags: [UInt32] = []
    /// The name and value of each entry, where the entry says.
    private(set) var pairs = CookiePairs()
    private(set) var domains = InternedStrings()
    private(set) var paths = InternedStrings()
    private(set) var partitions = InternedStrings()
    /// No cookie of this site expires before this instant (a lower bound; `.max` when none expires).
    private(set) var earliestExpiry = CookieTime(microsecondsSinceEpoch: .max)
    /// No cookie of this site comes before this rank in eviction order (a lower bound, exact after
    /// `recomputeEvictionFloor()`; `.last` when the site is empty).
    private(set) var evictionFloor = EvictionRank.last
    /// The store's slot of this site is vacant: the site was removed, and its slot waits for the next new
    /// site (`vacate(keepingCapacity:)`). Right after `evictionFloor`, as `partitionedCount`: both take the
    /// rank's tail padding, and a site stays 160 bytes.
    private(set) var isVacant = false
    /// How many of the cookies are partitioned (CHIPS): retrieval works out the request's partition
    /// only when some are.
    private(set) var partitionedCount: Int32 = 0
    /// The cookies of the hosts recently asked for, for retrieval: invalidated by every change below that
    /// adds, removes or moves a cookie.
    var cookiesOfHosts = CookiesOfHosts()

    init(key: String) {
        self.key = key
    }

    /// Makes this vacant site the site `key`.
    mutating func reuse(as key: String) {
        self.key = key
        isVacant = false
    }

    /// Whether any of the site's arrays holds memory.
    var holdsMemory: Bool {
        entries.capacity > 0 || identityTags.capacity > 0 || pairs.bytes.capacity > 0 || domains.slots.capacity > 0
            || paths.slots.capacity > 0 || partitions.slots.capacity > 0
    }

    /// Whether the site's arrays are small enough to keep for another site once it is removed.
    var isSmall: Bool { entries.capacity <= 8 && pairs.bytes.capacity <= 512 }

    /// Makes this site, removed from the store, vacant: no key, no cookies; `keepingCapacity`: its arrays
    /// keep their memory for the next site of its slot (a jar at its limit removes about one site for every
    /// one it creates, and a new site would otherwise allocate each of its arrays), else they are freed.
    mutating func vacate(keepingCapacity: Bool) {
        if keepingCapacity {
            removeAllKeepingCapacity()
            key = ""
        } else {
            self = SiteCookies(key: "")
        }
        isVacant = true
    }

    /// Removes every cookie, the arrays keeping their memory. Its few cookies are dropped one at a time,
    /// which costs a third of what `removeAll(keepingCapacity:)` costs an array of one.
    private mutating func removeAllKeepingCapacity() {
        while entries.popLast() != nil {}
        while identityTags.popLast() != nil {}
        pairs.removeAll()
        domains.removeAll()
        paths.removeAll()
        if partitionedCount > 0 { partitions.removeAll() }
        earliestExpiry = CookieTime(microsecondsSinceEpoch: .max)
        evictionFloor = .last
        partitionedCount = 0
        // A vacant site keeps no memory of the hosts it was asked for.
        cookiesOfHosts = CookiesOfHosts()
    }

    var count: Int { entries.count }

    // MARK: Reading

    /// The cookie at `index` in send order.
    func cookie(at index: Int) -> Cookie { tables.cookie(at: index) }

    /// Every cookie, in send order.
    var cookies: [Cookie] {
        let tables = tables
        return entries.indices.map(tables.cookie(at:))
    }

    /// The cookies last accessed at or after `time`, in send order.
    func cookies(accessedSince time: CookieTime) -> [Cookie] {
        let tables = tables
        return entries.indices.filter { entries[$0].lastAccess >= time }.map(tables.cookie(at:))
    }

    /// The index of the cookie of `identity` (the one a new cookie of that identity replaces, §5.7
    /// step 23), if any: the tags are read, and the parts compared only where the tag is equal.
    func indexOfCookie(with identity: CookieIdentityBytes) -> Int? {
        let tag = identity.tag
        return identityTags.withUnsafeBufferPointer { tags in
            guard let base = tags.baseAddress.map(UnsafeRawPointer.init) else { return nil }
            // Eight tags at a time, then the rest one by one.
            let wideTag = SIMD8<UInt32>(repeating: tag)
            var index = 0
            while tags.count &- index >= 8 {
                let equal = base.loadUnaligned(fromByteOffset: index &* 4, as: SIMD8<UInt32>.self) .== wideTag
                if any(equal) {
                    for lane in 0..<8 where equal[lane] && isCookie(at: index &+ lane, of: identity) { return index &+ lane }
                }
                index &+= 8
            }
            while index < tags.count {
                if tags[index] == tag, isCookie(at: index, of: identity) { return index }
                index &+= 1
            }
            return nil
        }
    }

    /// The index of the cookie that `cookie` would replace (§5.7 step 23), if any.
    func indexOfCookie(withIdentityOf cookie: Cookie) -> Int? {
        CookieIdentityBytes.of(cookie, indexOfCookie(with:))
    }

    /// True when the cookie at `index` has the identity `identity`.
    func isCookie(at index: Int, of identity: CookieIdentityBytes) -> Bool {
        let entry = entries[index]
        guard entry.isHostOnly == identity.isHostOnly, pairs.withBytes({ CookiePairs.name(of: entry, in: $0, is: identity.name) }),
            domains.slot(entry.domain, holds: identity.domain), paths.slot(entry.path, holds: identity.path)
        else { return false }
        guard let partitionKey = identity.partitionKey else { return !entry.isPartitioned }
        return entry.isPartitioned && partitions.slot(entry.partition, holds: partitionKey)
    }

    /// §5.7 step 16 within this site: an unexpired Secure cookie named `name` whose domain domain-matches
    /// `domain` (or the reverse) and whose path `path` path-matches (name and path as UTF-8). Mutating only
    /// so that it runs on the site in place, without a copy.
    mutating func hasSecureCookie(
        shadowedBy name: UnsafeBufferPointer<UInt8>, domain: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>,
        now: CookieTime
    ) -> Bool {
        // The cookies of the name are those whose identity tag's upper half is the name's tag: the tags
        // are read, four bytes a cookie, and a cookie only where the halves are equal.
        let nameTag = CookieIdentityBytes.nameTag(of: name)
        return identityTags.withUnsafeBufferPointer { tags in
            entries.withUnsafeBufferPointer { entries in
                pairs.withBytes { pairs in
                    tags.indices.contains { index in
                        UInt16(truncatingIfNeeded: tags[index] &>> 16) == nameTag && entries[index].isSecure
                            && CookiePairs.name(of: entries[index], in: pairs, is: name) && !entries[index].isExpired(at: now)
                            && shadows(entries[index], domain: domain, path: path)
                    }
                }
            }
        }
    }

    /// §5.7 step 16's domain and path conditions for `existing` and a new cookie's `domain` and `path`
    /// (UTF-8).
    private func shadows(
        _ existing: StoredCookie, domain: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        domains[existing.domain].withUTF8Bytes { existingDomain in
            DomainMatch.matches(host: existingDomain, hostIsIPAddress: false, domain: domain)
                || DomainMatch.matches(host: domain, hostIsIPAddress: false, domain: existingDomain)
        } && CookiePath.matches(requestPath: path, cookiePath: paths[existing.path])
    }

    /// Where `entry` goes in send order.
    @inline(__always)
    private func sendOrder(of entry: StoredCookie) -> SendOrder {
        SendOrder(pathLength: paths.byteCount(of: entry.path), creation: entry.creation)
    }

    /// True when `first` may be sent before `second` (§5.8.3 step 2): its path is longer, or as long and
    /// it was created no later.
    @inline(__always)
    private func precedesInSendOrder(_ first: StoredCookie, _ second: StoredCookie) -> Bool {
        sendOrder(of: first) <= sendOrder(of: second)
    }

    // MARK: Changing

    /// Inserts `cookie` at its place in send order.
    mutating func insert(_ cookie: Cookie) {
        let entry = StoredCookie(cookie, domain: 0, path: 0, partition: StoredCookie.unpartitioned)
        cookie.value.withUTF8Bytes { value in
            CookieIdentityBytes.of(cookie) { identity in _ = insert(entry, value: value, isKnownASCII: false, identity: identity) }
        }
    }

    /// Inserts the cookie `entry` (whose slots and pair are set here) of `identity`, with the value whose
    /// UTF-8 is `value` (`isKnownASCII`: the pair is known to be ASCII), at its place in send order.
    /// Returns the index it went to.
    mutating func insert(
        _ entry: StoredCookie, value: UnsafeBufferPointer<UInt8>, isKnownASCII: Bool, identity: CookieIdentityBytes
    ) -> Int {
        var new = entry
        pairs.append(name: identity.name, value: value, isKnownASCII: isKnownASCII, to: &new)
        new.domain = domains.retain(utf8: identity.domain, reusing: key)
        new.path = paths.retain(utf8: identity.path)
        new.partition = identity.partitionKey.map { partitions.retain(utf8: $0) } ?? StoredCookie.unpartitioned
        // A new cookie is the latest created: it goes last when its path is no longer than the last
        // cookie's, which one comparison tells; otherwise its place is searched for.
        var low = 0
        var high = entries.count
        if let last = entries.last, precedesInSendOrder(last, new) { low = high }
        while low < high {
            let middle = (low + high) / 2
            if precedesInSendOrder(entries[middle], new) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        makeRoomForOneMore()
        // A new cookie is the latest created: it goes last among the cookies of its path's length, often
        // last of all, where appending skips `insert(_:at:)`'s generic work (about 50 instructions).
        if low == entries.count {
            entries.append(new)
            identityTags.append(identity.tag)
        } else {
            entries.insert(new, at: low)
            identityTags.insert(identity.tag, at: low)
        }
        cookiesOfHosts.invalidate()
        noteAdded(new)
        return low
    }

    /// Grows a full array of entries by an eighth instead of doubling it once it holds 32 cookies: a
    /// jar's memory is mostly its sites' arrays, and few sites keep growing.
    private mutating func makeRoomForOneMore() {
        let count = entries.count
        guard count == entries.capacity else { return }
        let capacity = count < 32 ? max(4, 2 * count) : count + count / 8
        entries.reserveCapacity(capacity)
        identityTags.reserveCapacity(capacity)
    }

    private mutating func noteAdded(_ entry: StoredCookie) {
        noteBounds(of: entry)
        if entry.isPartitioned { partitionedCount += 1 }
    }

    /// Lowers `earliestExpiry` and `evictionFloor` to `entry`'s, where they are lower.
    private mutating func noteBounds(of entry: StoredCookie) {
        if entry.flags.contains(.persistent), entry.expiry < earliestExpiry.microsecondsSinceEpoch {
            earliestExpiry = CookieTime(microsecondsSinceEpoch: entry.expiry)
        }
        if entry.evictionRank < evictionFloor { evictionFloor = entry.evictionRank }
    }

    /// Makes `evictionFloor` the rank of the site's first cookie in eviction order.
    mutating func recomputeEvictionFloor() {
        evictionFloor = entries.lazy.map(\.evictionRank).min() ?? .last
    }

    /// The rank of each cookie in eviction order, in send order.
    var evictionRanks: some Collection<EvictionRank> { entries.lazy.map(\.evictionRank) }

    /// How many of the site's cookies are in the partition (CHIPS) `partition` (a partition key's slot, or
    /// `StoredCookie.unpartitioned`): the cookies a site's limit counts together.
    func cookieCount(inPartition partition: UInt32) -> Int {
        partition == StoredCookie.unpartitioned ? entries.count - Int(partitionedCount) : partitions.uses(of: partition)
    }

    /// The partitions (as `cookieCount(inPartition:)` names them) holding more than `limit` cookies.
    func partitions(holdingMoreThan limit: Int) -> [UInt32] {
        guard entries.count > limit else { return [] }
        var over = entries.count - Int(partitionedCount) > limit ? [StoredCookie.unpartitioned] : []
        if partitionedCount > Int32(limit) {
            over += partitions.slots.indices.lazy.map(UInt32.init).filter { self.partitions.uses(of: $0) > limit }
        }
        return over
    }

    /// Removes `entry`'s strings from the tables and its pair from `pairs`.
    private mutating func release(_ entry: StoredCookie) {
        pairs.release(entry)
        domains.release(entry.domain)
        paths.release(entry.path)
        if entry.isPartitioned {
            partitions.release(entry.partition)
            partitionedCount -= 1
        }
    }

    /// Appends a cookie read from a file, whose identity no cookie of the site has, out of send order:
    /// `restoreSendOrder()` follows the last one. Its domain, path and partition key become Strings only
    /// when new to the site's tables; its name and value go to `pairs` as they are (`isASCIIPair`: known
    /// to be ASCII; otherwise their bytes tell).
    mutating func append(_ cookie: LoadedCookie, isASCIIPair: Bool) {
        var new = StoredCookie(
            isHostOnly: cookie.isHostOnly, expiry: cookie.expiry, creation: cookie.creation, lastAccess: cookie.lastAccess,
            isSecure: cookie.isSecure, isHTTPOnly: cookie.isHTTPOnly, sameSite: cookie.sameSite,
            isSourceSecure: cookie.isSourceSecure, sourcePort: cookie.sourcePort, domain: 0, path: 0,
            partition: StoredCookie.unpartitioned)
        new.domain = domains.retain(utf8: cookie.domain, tryingFirst: entries.last?.domain, reusing: key)
        new.path = paths.retain(utf8: cookie.path, tryingFirst: entries.last?.path)
        new.partition = cookie.partitionKey.map { partitions.retain(utf8: $0) } ?? StoredCookie.unpartitioned
        pairs.append(name: cookie.name, value: cookie.value, isKnownASCII: isASCIIPair, to: &new)
        let tag = CookieIdentityBytes(
            name: cookie.name, domain: cookie.domain, isHostOnly: cookie.isHostOnly, path: cookie.path,
            partitionKey: cookie.partitionKey
        ).tag
        makeRoomForOneMore()
        entries.append(new)
        identityTags.append(tag)
        cookiesOfHosts.invalidate()
        noteAdded(new)
    }

    /// Puts the cookies back in send order after `append(_:)`: one sort, none when a jar file gave its
    /// rows in the order they were written, which is usually send order already.
    mutating func restoreSendOrder() {
        guard !entries.indices.dropFirst().allSatisfy({ precedesInSendOrder(entries[$0 - 1], entries[$0]) }) else {
            return
        }
        cookiesOfHosts.invalidate()
        // Sort keys worked out once per cookie, in a strict order (`precedesInSendOrder` admits equal
        // keys both ways): send order, then file order.
        var order = entries.indices.map { (key: sendOrder(of: entries[$0]), index: $0) }
        order.sort { ($0.key, $0.index) < ($1.key, $1.index) }
        // The cookie at `order[position].index` moves to `position`: each cycle of the permutation is
        // walked with swaps (entries are plain data; their pairs stay where they are).
        for start in order.indices where order[start].index != start {
            var position = start
            while order[position].index != start {
                let source = order[position].index
                entries.swapAt(position, source)
                identityTags.swapAt(position, source)
                order[position].index = position
                position = source
            }
            order[position].index = position
        }
    }

    /// Replaces the cookie at `index` with `entry` (whose slots and pair are set here), of the same
    /// identity (its name's UTF-8 is `name`) and creation time (same place in order, same slots), and the
    /// value whose UTF-8 is `value` (`isKnownASCII`: the pair is known to be ASCII).
    mutating func replace(
        at index: Int, with entry: StoredCookie, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>,
        isKnownASCII: Bool
    ) {
        let old = entries[index]
        var new = entry
        new.domain = old.domain
        new.path = old.path
        new.partition = old.partition
        pairs.replace(old, with: &new, name: name, value: value, isKnownASCII: isKnownASCII)
        entries[index] = new
        noteBounds(of: new)
        compactPairsIfNeeded()
    }

    /// Removes the cookie at `index`; returns it when `returningIt`, else nil (no cookie is built that no
    /// one reads).
    mutating func removeCookie(at index: Int, returningIt: Bool) -> Cookie? {
        let removed = returningIt ? cookie(at: index) : nil
        release(entries.remove(at: index))
        identityTags.remove(at: index)
        cookiesOfHosts.invalidate()
        compactPairsIfNeeded()
        return removed
    }

    /// Removes the cookies for which `shouldRemove` is true; returns them.
    mutating func removeAll(where shouldRemove: (Cookie) -> Bool) -> [Cookie] {
        removeEntries(entries.indices.map { shouldRemove(cookie(at: $0)) }, returningThem: true)
    }

    /// Removes the cookies at `indices` (each once); returns them when `returningThem`, else nothing.
    mutating func removeCookies(at indices: some Sequence<Int>, returningThem: Bool) -> [Cookie] {
        var doomed = [Bool](repeating: false, count: entries.count)
        for index in indices { doomed[index] = true }
        return removeEntries(doomed, returningThem: returningThem)
    }

    /// Removes the entries whose flag in `doomed` is true, keeping the order of the others; returns
    /// them as cookies when `returningThem`, else nothing (eviction builds no cookie that no one reads).
    private mutating func removeEntries(_ doomed: [Bool], returningThem: Bool) -> [Cookie] {
        var removed: [Cookie] = []
        if returningThem {
            for index in entries.indices where doomed[index] { removed.append(cookie(at: index)) }
        }
        for index in entries.indices where doomed[index] { release(entries[index]) }
        // The kept cookies move down in place (entries are plain data).
        var kept = 0
        entries.withUnsafeMutableBufferPointer { entries in
            identityTags.withUnsafeMutableBufferPointer { tags in
                for index in entries.indices where !doomed[index] {
                    if kept != index {
                        entries[kept] = entries[index]
                        tags[kept] = tags[index]
                    }
                    kept += 1
                }
            }
        }
        entries.removeLast(entries.count - kept)
        identityTags.removeLast(identityTags.count - kept)
        cookiesOfHosts.invalidate()
        compactPairsIfNeeded()
        return removed
    }

    /// Removes every cookie expired at `now` and recomputes `earliestExpiry`; returns the removed ones
    /// when `returningThem`, else nothing. A site none of whose cookies expires by `now`
    /// (`earliestExpiry`) is left as it is, its kept hosts too.
    mutating func purgeExpired(at now: CookieTime, returningThem: Bool) -> [Cookie] {
        guard earliestExpiry <= now else { return [] }
        let removed = removeEntries(entries.map { $0.isExpired(at: now) }, returningThem: returningThem)
        earliestExpiry = CookieTime(
            microsecondsSinceEpoch: entries.lazy.filter { $0.flags.contains(.persistent) }.map(\.expiry).min() ?? .max)
        recomputeEvictionFloor()
        return removed
    }

    /// Calls `body` with the entries and the bytes of their pairs, in place.
    @inline(__always)
    func withEntriesAndPairs<R>(_ body: (UnsafeBufferPointer<StoredCookie>, UnsafeBufferPointer<UInt8>) -> R) -> R {
        entries.withUnsafeBufferPointer { entries in pairs.withBytes { pairs in body(entries, pairs) } }
    }

    /// Rewrites `pairs` once an eighth of it is garbage.
    private mutating func compactPairsIfNeeded() {
        guard pairs.needsCompaction else { return }
        entries.withUnsafeMutableBufferPointer { pairs.compact($0) }
    }

    /// How far from a cookie's last-access time a request that carries it must come to move that time, in
    /// seconds. §5.8.3 step 3 sets it to the time of every request that carries the cookie; the jar moves
    /// it only when the request comes at least this long after it, or this long before it (the clock was
    /// set back; a request a moment before it is one whose thread read the clock before another's request
    /// moved the time). Deviation, dated 2026-11-26: last-access times only order eviction (§5.7 step 22),
    /// where a second between two recently sent cookies decides little, while a time moved on every
    /// request is a write on every lookup, which would keep lookups from sharing the jar's lock
    /// (`CookieLock`). Chromium's CookieMonster waits 60 s (`kDefaultAccessUpdateThresholdSeconds`).
    static let lastAccessUpdateInterval: Int64 = 1

    /// Whether a request at `now` moves the last-access time `lastAccess` (`lastAccessUpdateInterval`).
    @inline(__always)
    static func movesLastAccess(_ lastAccess: CookieTime, at now: CookieTime) -> Bool {
        now >= lastAccess.adding(seconds: lastAccessUpdateInterval) || now <= lastAccess.adding(seconds: -lastAccessUpdateInterval)
    }

    /// Sets the last-access time of the cookies at `indices` (§5.8.3 step 3) where it is due
    /// (`lastAccessUpdateInterval`). Last-access times only grow while the clock does; a clock set back
    /// lowers the eviction floor.
    @inline(__always)
    mutating func touch(_ indices: UnsafeBufferPointer<Int32>, now: CookieTime) {
        entries.withUnsafeMutableBufferPointer { entries in
            for index in indices where SiteCookies.movesLastAccess(entries[Int(index)].lastAccess, at: now) {
                entries[Int(index)].lastAccess = now
            }
        }
        if now < evictionFloor.lastAccess, !indices.isEmpty {
            evictionFloor = EvictionRank(lastAccess: now, creation: CookieTime(microsecondsSinceEpoch: .min))
        }
    }

    // MARK: Checking

    /// What breaks the site's own bookkeeping, if anything (for tests and fuzzing): parallel arrays of
    /// one length, slots that name live strings used exactly as often as cookies refer to them, and the
    /// expiry bound and partition count matching the cookies.
    func structureViolation() -> String? {
        let pairBytes = entries.reduce(0) { $0 + Int($1.pairLength) }
        guard pairBytes + pairs.garbage == pairs.bytes.count else { return "the pairs' bytes are not the live pairs and the garbage" }
        let pairViolation: String? = withEntriesAndPairs { entries, bytes in
            var claimed = [Bool](repeating: false, count: bytes.count)
            for entry in entries {
                let start = Int(entry.pairStart)
                let end = start + Int(entry.pairLength)
                guard end <= bytes.count, entry.nameLength <= entry.pairLength else { return "a pair beyond the pairs' bytes" }
                if claimed[start..<end].contains(true) { return "two pairs overlap" }
                for offset in start..<end { claimed[offset] = true }
                let name = CookiePairs.name(of: entry, in: bytes)
                if entry.nameLength > 0, bytes[start + name.count] != UInt8(ascii: "=") { return "a pair's name is not followed by =" }
                let pair = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if entry.flags.contains(.asciiPair) != pair.isASCII { return "a pair's ASCII flag is wrong" }
                if String(validating: pair, as: UTF8.self) == nil { return "a pair is not UTF-8" }
            }
            return nil
        }
        if let pairViolation { return pairViolation }
        guard identityTags.count == entries.count else { return "the identity tags are not one per cookie" }
        for index in entries.indices where CookieIdentityBytes.of(cookie(at: index), \.tag) != identityTags[index] {
            return "an identity tag differs from its cookie's"
        }
        for (table, slots, label) in [
            (domains, entries.map(\.domain), "domain"), (paths, entries.map(\.path), "path"),
            (partitions, entries.filter(\.isPartitioned).map(\.partition), "partition key"),
        ] {
            if table.freeCount != table.slots.count(where: { $0.uses == 0 }) { return "the \(label) table miscounts its free slots" }
            var counted = [UInt32](repeating: 0, count: table.count)
            for slot in slots {
                guard Int(slot) < table.count else { return "a \(label) slot beyond its table" }
                counted[Int(slot)] += 1
            }
            for slot in 0..<table.count {
                if counted[slot] != table.slots[slot].uses { return "a \(label) slot counts the wrong number of uses" }
                if counted[slot] > 0, table.slots[slot].string.isEmpty { return "a used \(label) slot holds no string" }
            }
        }
        if entries.contains(where: { $0.flags.contains(.persistent) && $0.expiry < earliestExpiry.microsecondsSinceEpoch }) {
            return "a cookie expires before the site's earliest expiry"
        }
        if partitionedCount != entries.count(where: \.isPartitioned) { return "the partitioned count is wrong" }
        if entries.contains(where: { $0.evictionRank < evictionFloor }) { return "a cookie comes before the site's eviction floor" }
        if let violation = cookiesOfHosts.violation(cookiesMatched(byHost:)) { return violation }
        return nil
    }

    /// The indices of the cookies whose domain the request host `host` (canonical, its bytes) matches, worked
    /// out cookie by cookie: what `cookiesOfHosts` keeps for it.
    private func cookiesMatched(byHost host: UnsafeBufferPointer<UInt8>) -> [Int] {
        let isIPAddress = CanonicalHost(String(decoding: host, as: UTF8.self))?.isIPAddress ?? false
        return entries.indices.filter { index in
            domains[entries[index].domain].withUTF8Bytes { domain in
                entries[index].isHostOnly
                    ? host.hasSameBytes(as: domain) : DomainMatch.matches(host: host, hostIsIPAddress: isIPAddress, domain: domain)
            }
        }
    }
}
