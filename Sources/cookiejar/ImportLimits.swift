import Cookies

/// The limits `import` opens a jar file with: the default ones, unless the file holds more cookies than
/// they allow (written by an app whose `CookieLimits` are higher), then raised to what it holds, so that
/// opening it evicts none of its cookies (a jar enforces its limits on what it loads). A raised limit is
/// cut back to, no further, when the import goes beyond it (no purge below it): the import evicts no more
/// of the file's cookies than it adds.
struct ImportLimits {
    let limits: CookieLimits
    /// The site (or partition of a site) holding the most cookies, when more than the default limit of a
    /// site, which holds for each partition apart (CHIPS).
    let largestSite: (site: String, count: Int)?
    /// The cookies held in all, when more than the default limit of the jar.
    let total: Int?

    /// The limits for a jar file holding `held` (expired ones are not loaded, and do not count).
    init(held: [Cookie], now: CookieTime) {
        let live = held.unexpired(at: now)
        let list = SystemPublicSuffixList.shared
        var limits = CookieLimits.default
        // A site's limit holds for each of its partitions apart: its own cookies, and those partitioned
        // under each top-level site.
        let largest = Dictionary(grouping: live) { cookie in
            list.site(of: cookie) + (cookie.partitionKey.map { " (partitioned under \($0))" } ?? "")
        }
        .map { (site: $0.key, count: $0.value.count) }
        .max { ($0.count, $1.site) < ($1.count, $0.site) }
        if let largest, largest.count > limits.maxCookiesPerSite {
            limits.maxCookiesPerSite = largest.count
            limits.sitePurgeCount = 0
            largestSite = largest
        } else {
            largestSite = nil
        }
        if live.count > limits.maxCookies {
            limits.maxCookies = live.count
            limits.purgeCount = 0
            total = live.count
        } else {
            total = nil
        }
        self.limits = limits
    }

    /// What was raised and why, nil when nothing was.
    var explanation: String? {
        let defaults = CookieLimits.default
        var over: [String] = []
        if let largestSite { over.append("\(largestSite.count) cookies of \(largestSite.site), over \(defaults.maxCookiesPerSite) a site or partition") }
        if let total { over.append("\(total) cookies in all, over \(defaults.maxCookies)") }
        guard !over.isEmpty else { return nil }
        return "the jar file holds more than the default limits allow (" + over.joined(separator: "; ")
            + "): it was opened with limits raised to what it holds, so that none of its cookies is evicted; an import beyond them evicts as many as it adds"
    }
}
