/// The order of the rows of one write to a jar file (`CookieDatabase.write`): deletions first, then the
/// cookies grouped by the last two labels of their domain, each group in send order (rfc6265bis-22
/// §5.8.3 step 2, `SendOrder`).
///
/// The reader takes rows back in row-id order, the order they were first written, and appends each to
/// its site (`CookieStore.Loader`). The cookies of a site share the last two labels of their domains (a
/// site key is a registrable domain, of two labels or more, or the host itself), so a file written in one
/// go gives each group's rows one after another, and each site's in send order: a group is one site, or
/// the sites under a public suffix of two labels ("co.uk"), whose rows interleave. The reader fills one
/// site (or a few) at a time, whose tables stay in the cache, and sorts none. Groups follow a hash of their
/// labels with a fixed seed, so that one jar gives the same file from run to run; two groups of one hash
/// interleave too, which still keeps each site's rows in send order.
struct JarFileRowOrder: Comparable {
    private let isUpsert: Bool
    private let group: UInt64
    private let sendOrder: SendOrder

    init(_ row: CookieWrite) {
        switch row {
        case .delete, .deleteIfUnchanged:
            (isUpsert, group, sendOrder) = (false, 0, SendOrder(pathLength: 0, creation: CookieTime(microsecondsSinceEpoch: 0)))
        case .upsert(let cookie):
            isUpsert = true
            group = cookie.domain.withUTF8Bytes { JarFileRowOrder.group(ofDomain: $0) }
            sendOrder = SendOrder(pathLength: cookie.path.utf8.count, creation: cookie.creation)
        }
    }

    /// The hash of the last two labels of `domain` (UTF-8): all of it when it has fewer.
    private static func group(ofDomain domain: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var start = domain.count
        var dots = 0
        while start > 0 {
            if domain[start - 1] == UInt8(ascii: ".") {
                dots += 1
                if dots == 2 { break }
            }
            start -= 1
        }
        return UnsafeBufferPointer(rebasing: domain[start...]).wordHash(seed: 0)
    }

    /// Deletions (in no order among themselves) before cookies; cookies by group, then in send order.
    static func < (first: JarFileRowOrder, second: JarFileRowOrder) -> Bool {
        guard first.isUpsert, second.isUpsert else { return !first.isUpsert && second.isUpsert }
        return first.group != second.group ? first.group < second.group : first.sendOrder < second.sendOrder
    }
}
