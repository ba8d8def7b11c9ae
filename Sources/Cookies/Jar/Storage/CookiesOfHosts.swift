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
    private var hostBytes: [UInt8] = []
    private var indices: [UInt32] = []

    /// How many hosts are kept: more than a site's hosts usually are, few enough that looking a host up
    /// is a scan.
    static let hostLimit = 64

    /// Forgets every host: the site's cookies changed.
    @inline(__always)
    mutating func invalidate() {
        guard !hosts.isEmpty else { return }
        hosts.removeAll(keepingCapacity: true)
        hostBytes.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
    }

    /// The position in `hosts` of `host` (its bytes), if kept.
    @inline(__always)
    private func position(of host: UnsafeBufferPointer<UInt8>) -> Int? {
        hosts.withUnsafeBufferPointer { hosts in
            hostBytes.withUnsafeBufferPointer { bytes in
                for position in hosts.indices where Int(hosts[position].byteCount) == host.count {
                    let start = Int(hosts[position].bytesStart)
                    if host.isEmpty || memoryEqual(bytes.baseAddress! + start, host.baseAddress!, host.count) { return position }
                }
                return nil
            }
        }
    }

    /// Whether the cookies of `host` (its bytes) are kept.
    @inline(__always)
    func contains(host: UnsafeBufferPointer<UInt8>) -> Bool { position(of: host) != nil }

    /// Calls `body` with the index of each cookie of `host` (its bytes) in send order and returns true,
    /// or returns false when the host is not kept.
    @inline(__always)
    func forEachCookie(ofHost host: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void) -> Bool {
        guard let position = position(of: host) else { return false }
        let host = hosts[position]
        indices.withUnsafeBufferPointer { indices in
            for index in indices[Int(host.indicesStart)..<Int(host.indicesEnd)] { body(Int(index)) }
        }
        return true
    }

    /// Keeps the indices of the cookies of `host` (its bytes), which `body` gives, in send order.
    mutating func add(host: UnsafeBufferPointer<UInt8>, _ body: (_ add: (Int) -> Void) -> Void) {
        if hosts.count >= CookiesOfHosts.hostLimit { invalidate() }
        let indicesStart = UInt32(truncatingIfNeeded: indices.count)
        body { indices.append(UInt32(truncatingIfNeeded: $0)) }
        hosts.append(
            Host(
                bytesStart: UInt32(truncatingIfNeeded: hostBytes.count), byteCount: UInt32(truncatingIfNeeded: host.count),
                indicesStart: indicesStart, indicesEnd: UInt32(truncatingIfNeeded: indices.count)))
        hostBytes.append(contentsOf: host)
    }

    /// What is wrong with the kept hosts, given `cookies(host)`, the indices a host's cookies have (nil when
    /// nothing is).
    func violation(_ cookies: (UnsafeBufferPointer<UInt8>) -> [Int]) -> String? {
        for host in hosts {
            let kept = indices[Int(host.indicesStart)..<Int(host.indicesEnd)].map(Int.init)
            let bytes = hostBytes[Int(host.bytesStart)..<Int(host.bytesStart + host.byteCount)]
            if Array(bytes).withUnsafeBufferPointer(cookies) != kept { return "the cookies kept for a host are not its cookies" }
        }
        return nil
    }
}
