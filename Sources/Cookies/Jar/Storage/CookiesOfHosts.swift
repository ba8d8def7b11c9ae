/// For each host a site was recently asked for, the site's cookies whose domain that host matches
/// (§5.8.3 step 1's domain condition: the host itself for a host-only cookie, a domain-match for the
/// others), in send order. A site of a hundred cookies over a dozen hosts sends a request those of one or
/// two domains, and is asked for by the same few hosts again and again: a request of a host seen before
/// visits those cookies alone, and decides no domain.
///
/// What it holds is dropped whenever cookies come, go or move (`invalidate()`). At most `hostLimit` hosts
/// are kept: once that many are, a request of another host finds its cookies itself, every time, until
/// the site's cookies change. Dropping the kept hosts to make room would make every request of a site
/// asked for by more hosts than that (a wildcard hosting service, a crawl) learn and drop hosts in turn,
/// holding the jar's lock alone to do it (`CookieStore.retrieveWithoutChanges`), where finding the
/// cookies itself needs the lock only shared.
struct CookiesOfHosts: Sendable {
    /// A host: its `HostWords`, where its bytes are in `hostBytes` and its cookies' indices in `indices`.
    /// A lookup that finds a host of at most 24 bytes (most hosts) reads this record alone, its bytes
    /// being told by the words.
    private struct Host: Sendable {
        var words: HostWords
        var bytesStart: UInt32
        var indicesStart: UInt32
        var indicesEnd: UInt32
    }

    /// A host's length and its first, second and last eight bytes (those it has, zero above; the last
    /// eight only past sixteen bytes): equal words are equal hosts up to 24 bytes, beyond which the bytes
    /// between the second and the last eight decide.
    private struct HostWords: Sendable, Equatable {
        var first: UInt64
        var second: UInt64
        var last: UInt64
        /// 32 bits, as the offsets beside it in `Host` (a URL's host is shorter than 1 GiB, `CookieURL`).
        var count: UInt32

        @inline(__always)
        init(_ host: UnsafeBufferPointer<UInt8>) {
            let count = host.count
            self.count = UInt32(truncatingIfNeeded: count)
            first = host.word(from: 0, count: min(8, count))
            second = count > 8 ? host.word(from: 8, count: min(8, count - 8)) : 0
            last = count > 16 ? host.word(from: count - 8, count: 8) : 0
        }

        /// How many bytes of the host the words do not tell.
        var untoldCount: Int { max(0, Int(count) - 24) }

        /// Hosts of one site share their end: the first bytes and the length tell most apart.
        var hash: UInt64 {
            first ^ (second &<< 29 | second &>> 35) ^ (last &<< 17 | last &>> 47) ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        }
    }

    private var hosts: [Host] = []
    /// A hash table of the hosts by their words (open addressing, twice as many buckets as hosts may be
    /// kept): each bucket holds a position in `hosts` plus one, 0 when empty. Made at the first host.
    private var buckets: [UInt8] = []
    private var hostBytes: [UInt8] = []
    private var indices: [UInt32] = []

    /// How many hosts are kept: more than a site's hosts usually are, few enough that a site asked for by
    /// thousands of hosts keeps a few kilobytes for them.
    static let hostLimit = 64

    /// The number of buckets, a power of two.
    private static let bucketCount = 2 * hostLimit

    /// Forgets every host: the site's cookies changed.
    @inline(__always)
    mutating func invalidate() {
        guard !hosts.isEmpty else { return }
        hosts.removeAll(keepingCapacity: true)
        buckets.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        hostBytes.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
    }

    /// The first bucket to probe for a host of words `words` (the top bits of their hash, mixed).
    @inline(__always)
    private static func firstBucket(of words: HostWords) -> Int {
        Int(truncatingIfNeeded: (words.hash &* 0x9E37_79B9_7F4A_7C15) &>> 57) & (bucketCount - 1)
    }

    /// The position in `hosts` of `host` (its bytes), if kept.
    @inline(__always)
    private func position(of host: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let words = HostWords(host)
        return buckets.withUnsafeBufferPointer { buckets in
            var bucket = CookiesOfHosts.firstBucket(of: words)
            while buckets[bucket] != 0 {
                let position = Int(buckets[bucket]) - 1
                let kept = hosts[position]
                if kept.words == words,
                    words.untoldCount == 0
                        || hostBytes.withUnsafeBufferPointer({
                            memoryEqual($0.baseAddress! + Int(kept.bytesStart) + 16, host.baseAddress! + 16, words.untoldCount)
                        })
                {
                    return position
                }
                bucket = (bucket + 1) & (CookiesOfHosts.bucketCount - 1)
            }
            return nil
        }
    }

    /// The indices of the cookies of `host` (its bytes), in send order, nil when the host is not kept: a
    /// buffer of this value's own, valid while it is neither changed nor released (as `SiteTables`).
    @inline(__always)
    func cookies(ofHost host: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt32>? {
        guard let position = position(of: host) else { return nil }
        let (start, end) = (Int(hosts[position].indicesStart), Int(hosts[position].indicesEnd))
        return indices.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[start..<end]) }
    }

    /// Whether `hostLimit` hosts are kept: no other is, until `invalidate()`.
    var isFull: Bool { hosts.count >= CookiesOfHosts.hostLimit }

    /// Keeps `cookies`, the indices of the cookies of `host` (its bytes) in send order. The host is not
    /// kept yet, and the value is not full (`isFull`).
    mutating func add(host: UnsafeBufferPointer<UInt8>, cookies: UnsafeBufferPointer<UInt32>) {
        precondition(!isFull, "a host kept beyond CookiesOfHosts.hostLimit")
        let indicesStart = UInt32(truncatingIfNeeded: indices.count)
        indices.append(contentsOf: cookies)
        let words = HostWords(host)
        hosts.append(
            Host(
                words: words, bytesStart: UInt32(truncatingIfNeeded: hostBytes.count), indicesStart: indicesStart,
                indicesEnd: UInt32(truncatingIfNeeded: indices.count)))
        hostBytes.append(contentsOf: host)
        if buckets.isEmpty { buckets = [UInt8](repeating: 0, count: CookiesOfHosts.bucketCount) }
        var bucket = CookiesOfHosts.firstBucket(of: words)
        while buckets[bucket] != 0 { bucket = (bucket + 1) & (CookiesOfHosts.bucketCount - 1) }
        buckets[bucket] = UInt8(truncatingIfNeeded: hosts.count)
    }

    /// What is wrong with the kept hosts, given `cookies(host)`, the indices a host's cookies have (nil when
    /// nothing is).
    func violation(_ cookies: (UnsafeBufferPointer<UInt8>) -> [Int]) -> String? {
        let bucketed = buckets.filter { $0 != 0 }.map { Int($0) - 1 }.sorted()
        guard bucketed == Array(hosts.indices) else { return "the buckets do not hold each host kept once" }
        for host in hosts {
            let kept = indices[Int(host.indicesStart)..<Int(host.indicesEnd)].map(Int.init)
            let bytes = Array(hostBytes[Int(host.bytesStart)..<Int(host.bytesStart) + Int(host.words.count)])
            if bytes.withUnsafeBufferPointer(HostWords.init) != host.words { return "a host's words are not its own" }
            if bytes.withUnsafeBufferPointer(cookies) != kept { return "the cookies kept for a host are not its cookies" }
        }
        return nil
    }
}
