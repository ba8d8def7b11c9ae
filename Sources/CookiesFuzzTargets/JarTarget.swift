@_spi(Fuzzing) import Cookies

extension FuzzTarget {
    /// The jar as a state machine: the input is a sequence of operations (see `JarMachine`), and the
    /// store's invariants are checked after every one.
    static let jar = FuzzTarget(name: "jar") { input throws(InvariantViolation) in
        var machine = JarMachine()
        var reader = FuzzInput(input)
        var operations = 0
        while operations < JarMachine.maxOperations, var line = reader.nextLine() {
            try machine.apply(&line)
            try machine.checkStore()
            operations += 1
        }
        try machine.checkSaveAndLoad()
    }
}

/// A jar with small limits and a manual clock, driven by input lines, and its twin `quiet`, which gets
/// every line through `receive` instead of `setCookie` (no outcome, no changes recorded) and must end up
/// the same. Each line is one operation, named by its first byte, then its choice bytes
/// (`FuzzLine.choice`):
///
///     r H S P C set-cookie   receive the Set-Cookie line from the URL (host, scheme, path) in context C
///     q H S P C              request the URL in context C
///     d N                    delete the N-th cookie of allCookies()
///     t N                    advance the clock by the N-th step
///     s H S P                sign out from the URL
///     e                      end the session (delete the session cookies)
///
/// Any other first byte picks one of these by its value.
struct JarMachine {
    static let maxOperations = 256
    static let operations: [UInt8] = Array("rqdtse".utf8)
    /// A registrable domain and a host under it, a public suffix, an IP address, and a loopback host.
    static let hosts = ["example.com", "www.example.com", "co.uk", "192.0.2.1", "localhost"]
    static let schemes = ["https", "http"]
    /// "/ab" is no path-match for "/a" (§5.1.4).
    static let paths = ["/", "/a", "/a/b", "/ab"]
    /// Clock steps in seconds, around the cookie-age-limit of `limits`.
    static let steps: [Int64] = [1, 60, 3_600, 86_400, 86_401, 400 * 86_400]
    /// Small limits, so that eviction and the age cap are reached.
    static let limits = CookieLimits(
        maxCookiesPerSite: 4, sitePurgeCount: 1, maxCookies: 8, purgeCount: 2, maxAgeSeconds: 86_400)
    static let publicSuffixList = PublicSuffixRules(parsing: "com\nuk\nco.uk\ntest\n")
    /// 2025-01-01T00:00:00Z.
    static let start = CookieTime(secondsSinceEpoch: Int64(1_735_689_600))
    static let topLevelSite = CookieURL("https://top.test/")!
    /// Same-site; cross-site top-level navigation (GET, then POST); a cross-site frame partitioned
    /// under its top-level site; a same-site non-HTTP API (`document.cookie`).
    static let contexts = [
        CookieRequestContext.firstParty,
        CookieRequestContext(siteForCookies: .origin(topLevelSite), isTopLevelNavigation: true),
        CookieRequestContext(siteForCookies: .origin(topLevelSite), isTopLevelNavigation: true, method: "POST"),
        CookieRequestContext(siteForCookies: .origin(topLevelSite), partition: topLevelSite),
        CookieRequestContext(api: .nonHTTP),
    ]
    static let target = "jar"

    let clock = ManualCookieClock(start)
    let jar: CookieJar
    let quiet: CookieJar

    init() {
        jar = CookieJar(publicSuffixList: JarMachine.publicSuffixList, limits: JarMachine.limits, clock: clock)
        quiet = CookieJar(publicSuffixList: JarMachine.publicSuffixList, limits: JarMachine.limits, clock: clock)
    }

    mutating func apply(_ line: inout FuzzLine) throws(InvariantViolation) {
        let first = line.byte()
        let operation = Self.operations.contains(first) ? first : Self.operations[Int(first) % Self.operations.count]
        switch operation {
        case UInt8(ascii: "r"): try receive(&line)
        case UInt8(ascii: "q"): try request(&line)
        case UInt8(ascii: "d"): try delete(&line)
        case UInt8(ascii: "t"): clock.advance(seconds: line.choice(Self.steps))
        case UInt8(ascii: "s"): try signOut(&line)
        default: try endSession()
        }
    }

    private func url(_ line: inout FuzzLine) -> CookieURL {
        let host = line.choice(Self.hosts)
        let scheme = line.choice(Self.schemes)
        return CookieURL(scheme + "://" + host + line.choice(Self.paths))!
    }

    private var stored: [Cookie] { Array(jar.storedCookiesBySite().values.joined()) }

    // MARK: Operations

    private func receive(_ line: inout FuzzLine) throws(InvariantViolation) {
        let url = url(&line)
        let context = line.choice(Self.contexts)
        let text = String(decoding: line.payload, as: UTF8.self)
        let outcome = jar.setCookie(text, from: url, context: context)
        quiet.receive(text, from: url, context: context)
        let parsed = Result { () throws(CookieRejection) in try ParsedSetCookie(parsing: text) }
        switch (outcome, parsed) {
        case (.rejected(let reason), .failure(let parseReason)):
            try require(reason == parseReason, Self.target, "a line is rejected for another reason than the parser's")
        case (_, .failure):
            try require(false, Self.target, "a line the parser rejects changes the jar")
        case (.stored(let cookie), .success(let line)), (.replaced(let cookie, _), .success(let line)):
            try require(cookie.name == line.name && cookie.value == line.value, Self.target, "the stored cookie is not the line's")
            try require(
                stored.contains { CookieIdentity($0) == CookieIdentity(cookie) && $0.value == cookie.value },
                Self.target, "a cookie reported stored is not in the store")
            if case .replaced(_, let previous) = outcome {
                try require(CookieIdentity(previous) == CookieIdentity(cookie), Self.target, "a replaced cookie has another identity")
                try require(previous.creation == cookie.creation, Self.target, "a replacement does not keep the creation time (§5.7 step 23)")
            }
        case (.deleted(let previous), .success):
            try require(!stored.contains { CookieIdentity($0) == CookieIdentity(previous) }, Self.target, "a deleted cookie is still stored")
        case (.expired, .success), (.rejected, .success):
            break
        }
    }

    private func request(_ line: inout FuzzLine) throws(InvariantViolation) {
        let url = url(&line)
        let context = line.choice(Self.contexts)
        let now = clock.now()
        let cookies = jar.cookies(for: url, context: context)
        let sharedHeader = jar.sharedLookupHeader(for: url, context: context)
        let header = jar.cookieHeader(for: url, context: context)
        if let sharedHeader {
            try require(sharedHeader == header, Self.target, "a lookup sharing the jar's lock makes another header")
        }
        _ = quiet.cookies(for: url, context: context)
        // The twin's header is appended after bytes already in the buffer: the same header, or nothing.
        let prefix = Array("Cookie: ".utf8)
        var appended = prefix
        let didAppend = quiet.appendCookieHeader(for: url, context: context, to: &appended)
        try require(
            didAppend == (header != nil) && appended == prefix + Array((header ?? "").utf8), Self.target,
            "an appended Cookie header is not the header of the twin jar")
        let pairs = cookies.map { $0.name.isEmpty ? $0.value : $0.name + "=" + $0.value }
        try require(
            header == (pairs.isEmpty ? nil : pairs.joined(separator: "; ")), Self.target,
            "the Cookie header is not the name=value pairs of cookies(for:)")
        var identities = Set<CookieIdentity>()
        for (index, cookie) in cookies.enumerated() {
            try require(!cookie.isExpired(at: now), Self.target, "an expired cookie is returned")
            try require(identities.insert(CookieIdentity(cookie)).inserted, Self.target, "a cookie is returned twice")
            if cookie.isHostOnly {
                try require(cookie.domain == url.host.name, Self.target, "a host-only cookie goes to another host")
            }
            try require(Self.mayBeSent(cookie, to: url), Self.target, "a cookie goes outside its domain, path or Secure channel")
            if context.api == .nonHTTP {
                try require(!cookie.isHTTPOnly, Self.target, "an HttpOnly cookie goes to a non-HTTP API")
            }
            if index > 0 {
                try require(Self.isInSendOrder(cookies[index - 1], cookie), Self.target, "cookies not in §5.8.3 order")
            }
        }
        // A same-site request gets every unpartitioned cookie that matches it.
        if context == .firstParty {
            for cookie in stored where cookie.partitionKey == nil && !cookie.isExpired(at: now) && Self.mayBeSent(cookie, to: url) {
                try require(identities.contains(CookieIdentity(cookie)), Self.target, "a matching cookie is not returned")
            }
        }
    }

    private func delete(_ line: inout FuzzLine) throws(InvariantViolation) {
        let all = jar.allCookies()
        guard !all.isEmpty else { return }
        let victim = all[Int(line.byte()) % all.count]
        try require(jar.delete(victim), Self.target, "deleting a listed cookie deletes nothing")
        _ = quiet.delete(victim)
        try require(!stored.contains { CookieIdentity($0) == CookieIdentity(victim) }, Self.target, "a deleted cookie is still stored")
    }

    private func signOut(_ line: inout FuzzLine) throws(InvariantViolation) {
        let url = url(&line)
        jar.signOut(from: url)
        quiet.signOut(from: url)
        let site = Self.publicSuffixList.registrableDomain(of: url.host) ?? url.host.name
        try require(jar.storedCookiesBySite()[site] == nil, Self.target, "sign-out leaves cookies of the site")
        try require(
            !stored.contains { $0.partitionKey == url.scheme + "://" + site }, Self.target,
            "sign-out leaves cookies partitioned under the site")
    }

    private func endSession() throws(InvariantViolation) {
        jar.deleteSessionCookies()
        quiet.deleteSessionCookies()
        try require(stored.allSatisfy(\.isPersistent), Self.target, "a session cookie outlives the session")
    }
}
