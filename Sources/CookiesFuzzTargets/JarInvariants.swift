@_spi(Fuzzing) import Cookies

extension JarMachine {
    /// The invariants of the store, after every operation.
    func checkStore() throws(InvariantViolation) {
        if let violation = jar.storeStructureViolation() { try require(false, Self.target, violation) }
        let sites = jar.storedCookiesBySite()
        let now = clock.now()
        var total = 0
        var identities = Set<CookieIdentity>()
        for cookies in sites.values {
            try require(!cookies.isEmpty, Self.target, "an empty site is kept")
            // The site's limit holds for each partition apart (CHIPS: the site's own cookies, and each
            // top-level site's that embeds it).
            for (partition, inPartition) in Dictionary(grouping: cookies, by: \.partitionKey) {
                try require(
                    inPartition.count <= Self.limits.maxCookiesPerSite, Self.target,
                    "a site holds more cookies than its limit in partition \(partition ?? "none")")
            }
            total += cookies.count
            for (index, cookie) in cookies.enumerated() {
                try check(cookie, now: now)
                try require(
                    identities.insert(CookieIdentity(cookie)).inserted, Self.target,
                    "two stored cookies share name, domain, host-only, path and partition")
                if index > 0 {
                    try require(Self.isInSendOrder(cookies[index - 1], cookie), Self.target, "a site is not kept in §5.8.3 order")
                }
            }
        }
        try require(total == jar.count, Self.target, "count disagrees with the store")
        try require(total <= Self.limits.maxCookies, Self.target, "the jar holds more cookies than its limit")
        try require(quiet.storedCookiesBySite() == sites, Self.target, "receive and setCookie leave different jars")
    }

    /// Save → load returns the same persistent, unexpired cookies: through the lossless JSON format, into
    /// a fresh jar, as a relaunched app would load them.
    func checkSaveAndLoad() throws(InvariantViolation) {
        let now = clock.now()
        let saved = jar.allCookies().filter(\.isPersistent)
        let text = CookieJSON.serialize(saved)
        let loaded: [Cookie]
        do {
            loaded = try CookieJSON.parse(Array(text.utf8)).cookies
        } catch {
            throw InvariantViolation(target: Self.target, invariant: "saved JSON does not load: \(error)")
        }
        try require(loaded.count == saved.count && Set(loaded) == Set(saved), Self.target, "save → load changes the cookies")
        let relaunched = CookieJar(publicSuffixList: Self.publicSuffixList, limits: Self.limits, clock: ManualCookieClock(now))
        relaunched.insert(contentsOf: loaded)
        try require(
            Set(relaunched.allCookies()) == Set(saved.filter { !$0.isExpired(at: now) }), Self.target,
            "a relaunched jar does not hold exactly the persistent, unexpired cookies")
    }

    /// The rules of rfc6265bis-22 §5.7 that hold for every stored cookie.
    private func check(_ cookie: Cookie, now: CookieTime) throws(InvariantViolation) {
        try CookieTextBounds.check(
            name: cookie.name, value: cookie.value, domain: cookie.domain, path: cookie.path, in: Self.target)
        if let expiry = cookie.expiry {
            try require(
                expiry <= now.adding(seconds: Self.limits.maxAgeSeconds), Self.target, "an expiry beyond the cookie-age-limit")
        }
        try require(!cookie.isSecure || cookie.isSourceSecure, Self.target, "a Secure cookie from an insecure origin (step 13)")
        try require(cookie.sameSite != .none || cookie.isSecure, Self.target, "SameSite=None without Secure (step 19)")
        try require(cookie.partitionKey == nil || cookie.isSecure, Self.target, "Partitioned without Secure (CHIPS)")
        if Self.hasPrefix(cookie.name, "__secure-") {
            try require(cookie.isSecure, Self.target, "a __Secure- cookie without Secure (step 20)")
        }
        if Self.hasPrefix(cookie.name, "__host-") {
            try require(
                cookie.isSecure && cookie.isHostOnly && cookie.path == "/", Self.target,
                "a __Host- cookie not Secure, host-only with Path=/ (step 21)")
        }
        if cookie.name.isEmpty {
            try require(
                !Self.hasPrefix(cookie.value, "__secure-") && !Self.hasPrefix(cookie.value, "__host-"), Self.target,
                "a nameless cookie poses as a prefixed one (step 22)")
        }
        if cookie.isHostOnly {
            try require(Self.hosts.contains(cookie.domain), Self.target, "a host-only cookie of a host never visited")
        } else if cookie.domain != "192.0.2.1" {
            try require(
                !Self.publicSuffixList.isPublicSuffix(cookie.domain), Self.target, "a Domain cookie on a public suffix (step 9)")
        }
    }

    /// §5.8.3 step 1: domain (§5.1.3), path (§5.1.4) and Secure allow sending `cookie` to `url`; a
    /// loopback host's plain http counts as secure (`CookieURL.isSecure`).
    static func mayBeSent(_ cookie: Cookie, to url: CookieURL) -> Bool {
        let host = url.host.name
        let domainMatches =
            host == cookie.domain || (!cookie.isHostOnly && !url.host.isIPAddress && host.hasSuffix("." + cookie.domain))
        let requestPath = Array(url.path.utf8)
        let cookiePath = Array(cookie.path.utf8)
        let pathMatches =
            requestPath == cookiePath
            || (requestPath.starts(with: cookiePath)
                && (cookiePath.last == UInt8(ascii: "/") || requestPath[cookiePath.count] == UInt8(ascii: "/")))
        let channelAllows = !cookie.isSecure || url.scheme == "https" || url.host.isLoopback
        return domainMatches && pathMatches && channelAllows
    }

    /// §5.8.3 step 2: longer paths first, then earlier creation times.
    static func isInSendOrder(_ earlier: Cookie, _ later: Cookie) -> Bool {
        let earlierLength = earlier.path.utf8.count
        let laterLength = later.path.utf8.count
        return earlierLength > laterLength || (earlierLength == laterLength && earlier.creation < later.creation)
    }

    /// `text` starts with the lower-case ASCII `prefix`, compared case-insensitively (§4.1.3).
    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        let bytes = Array(text.utf8.prefix(prefix.utf8.count))
        return bytes.count == prefix.utf8.count
            && zip(bytes, prefix.utf8).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }
}
