/// For each host a site was recently asked for, the site's cookies whose domain that host matches
/// (§5.8.3 step 1's domain condition: the host itself for a host-only cookie, a domain-match for the
/// others), in send order. A site of a hundred cookies over a dozen hosts sends a request those of one or
/// two domains, and is asked for by the same few hosts again and again: a request of a host seen before
/// visits those cookies alone, and decides no domain.
///
/// What it holds is dropped whenever cookies come, go or move (`invalidate()`); at most `hostLimit` hosts
/// are kept, all dropped when one more comes.
struct CookiesOfHosts: Sendable {
    /// A host's bytes in `hostBytes` and its cookies' indices in `indices`.
    private struct Host: Sendable {
        var bytesStart: UInt32
        var byteCount: UInt32
        var indicesStart: UInt32
        var indicesEnd: UInt32
    }

    private var hosts: [Host] = []
    /// The `summary(of:)` of each host, in the order of `hosts`.
    private var summaries: [UInt64] = []
    /// A hash table of the hosts by summary (open addressing, twice as many buckets as hosts may be
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
        summaries.removeAll(keepingCapacity: true)
        buckets.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        hostBytes.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
    }

    /// A host's length and first and last eight bytes in one word: hosts of one site share their end, so
    /// the first bytes and the length tell most apart, and a lookup compares one word per host kept.
    @inline(__always)
    private static func summary(of host: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = host.count
        let first = host.word(from: 0, count: min(8, count))
        let last = count > 8 ? host.word(from: count - 8, count: 8) : 0
        return first ^ (last &<< 17 | last &>> 47) ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
    }

    /// The first bucket to probe for a host of summary `summary` (its top bits, mixed).
    @inline(__always)
    private static func firstBucket(of summary: UInt64) -> Int {
        Int(truncatingIfNeeded: (summary &* 0x9E37_79B9_7F4A_7C15) &>> 57) & (bucketCount - 1)
    }

    /// The position in `hosts` of `host` (its bytes), if kept.
    @inline(__always)
    private func position(of host: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let summary = CookiesOfHosts.summary(of: host)
        return buckets.withUnsafeBufferPointer { buckets in
            var bucket = CookiesOfHosts.firstBucket(of: summary)
            while buckets[bucket] != 0 {
                let position = Int(buckets[bucket]) - 1
                if summaries[position] == summary {
                    let kept = hosts[position]
                    if Int(kept.byteCount) == host.count,
                        host.isEmpty
                            || hostBytes.withUnsafeBufferPointer({ memoryEqual($0.baseAddress! + Int(kept.bytesStart), host.baseAddress!, host.count) })
                    {
                        return position
                    }
                }
                bucket = (bucket + 1) & (CookiesOfHosts.bucketCount - 1)
            }
            return nil
        }
    }

    /// Where the indices of the cookies of `host` (its bytes) are in `withIndices(_:)`, nil when the host
    /// is not kept.
    @inline(__always)
    func indexRange(ofHost host: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        position(of: host).map { Int(hosts[$0].indicesStart)..<Int(hosts[$0].indicesEnd) }
    }

    /// Calls `body` with the indices of the cookies of every host kept (each host's in send order, where
    /// `indexRange(ofHost:)` says).
    @inline(__always)
    func withIndices<R>(_ body: (UnsafeBufferPointer<UInt32>) -> R) -> R {
        indices.withUnsafeBufferPointer(body)
    }

    /// Keeps the indices of the cookies of `host` (its bytes), which `body` gives, in send order; returns
    /// where they are (`indexRange(ofHost:)`).
    @discardableResult
    mutating func add(host: UnsafeBufferPointer<UInt8>, _ body: (_ add: (Int) -> Void) -> Void) -> Range<Int> {
        if hosts.count >= CookiesOfHosts.hostLimit { invalidate() }
        let indicesStart = UInt32(truncatingIfNeeded: indices.count)
        body { indices.append(UInt32(truncatingIfNeeded: $0)) }
        hosts.append(
            Host(
                bytesStart: UInt32(truncatingIfNeeded: hostBytes.count), byteCount: UInt32(truncatingIfNeeded: host.count),
                indicesStart: indicesStart, indicesEnd: UInt32(truncatingIfNeeded: indices.count)))
        let summary = CookiesOfHosts.summary(of: host)
        summaries.append(summary)
        hostBytes.append(contentsOf: host)
        if buckets.isEmpty { buckets = [UInt8](repeating: 0, count: CookiesOfHosts.bucketCount) }
        var bucket = CookiesOfHosts.firstBucket(of: summary)
        while buckets[bucket] != 0 { bucket = (bucket + 1) & (CookiesOfHosts.bucketCount - 1) }
        buckets[bucket] = UInt8(truncatingIfNeeded: hosts.count)
        return Int(indicesStart)..<indices.count
    }

    /// What is wrong with the kept hosts, given `cookies(host)`, the indices a host's cookies have (nil when
    /// nothing is).
    func violation(_ cookies: (UnsafeBufferPointer<UInt8>) -> [Int]) -> String? {
        guard summaries.count == hosts.count else { return "the hosts kept and their summaries differ in number" }
        let bucketed = buckets.filter { $0 != 0 }.map { Int($0) - 1 }.sorted()
        guard bucketed == Array(hosts.indices) else { return "the buckets do not hold each host kept once" }
        for (host, summary) in zip(hosts, summaries) {
            let kept = indices[Int(host.indicesStart)..<Int(host.indicesEnd)].map(Int.init)
            let bytes = Array(hostBytes[Int(host.bytesStart)..<Int(host.bytesStart) + Int(host.byteCount)])
            if bytes.withUnsafeBufferPointer(CookiesOfHosts.summary(of:)) != summary { return "a host's summary is not its own" }
            if bytes.withUnsafeBufferPointer(cookies) != kept { return "the cookies kept for a host are not its cookies" }
        }
        return nil
    }
}
