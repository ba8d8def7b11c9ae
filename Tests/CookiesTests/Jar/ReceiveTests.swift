import Testing
@_spi(Fuzzing) @testable import Cookies

/// `receive(_:from:)` (what an HTTP client calls for every response) and `setCookie(_:from:)` (which also
/// reports the cookies involved) run the same storage model: the same jar, the same changes.
struct ReceiveTests {
    struct Step: Sendable, CustomTestStringConvertible {
        var url: String
        var line: String
        var context: CookieRequestContext = .firstParty
        /// Seconds the clock moves before the line arrives.
        var after: Int64 = 0
        /// What `setCookie` reports: "stored", "replaced", "deleted", "expired" or the rejection's raw value.
        var outcome: String
        var source: String
        var testDescription: String { "\(line) (\(source))" }
    }

    /// A script touching every branch of §5.7 steps 23–24 and both limits (3 per site, 5 in the jar).
    static let script: [Step] = [
        Step(url: "https://a.test/", line: "a=1; Max-Age=10", outcome: "stored", source: "§5.7 step 24"),
        Step(url: "https://a.test/", line: "a=2; Max-Age=100", outcome: "replaced", source: "§5.7 step 23"),
        Step(url: "https://a.test/", line: "b=1; Max-Age=5", outcome: "stored", source: "§5.7 step 24"),
        Step(url: "https://a.test/", line: "b=2", after: 10, outcome: "stored", source: "§5.7 step 23: an expired namesake is removed first"),
        Step(url: "https://a.test/", line: "a=3; Max-Age=0", outcome: "deleted", source: "§5.7 step 23: an expired cookie deletes its namesake"),
        Step(url: "https://a.test/", line: "gone=1; Max-Age=0", outcome: "expired", source: "§5.7: already expired, nothing to delete"),
        Step(url: "https://a.test/", line: "h=1; HttpOnly", outcome: "stored", source: "§5.7 step 24"),
        Step(url: "https://a.test/", line: "h=2", context: .init(api: .nonHTTP), outcome: "would-overwrite-httponly-cookie", source: "§5.7 step 23.2"),
        Step(url: "https://a.test/", line: "c=1", after: 1, outcome: "stored", source: "§5.7 step 24"),
        Step(url: "https://a.test/", line: "d=1", after: 1, outcome: "stored", source: "§6.1: the site's limit evicts the least recently used"),
        Step(url: "https://b.test/", line: "e=1", after: 1, outcome: "stored", source: "§5.7 step 24"),
        Step(url: "https://c.test/", line: "f=1", after: 1, outcome: "stored", source: "§5.7 step 24"),
        Step(url: "https://c.test/", line: "g=1", after: 1, outcome: "stored", source: "§6.1: the jar's limit evicts across sites"),
        Step(url: "http://a.test/", line: "s=1; Secure", outcome: "secure-from-insecure-origin", source: "§5.7 step 12"),
        Step(url: "https://a.test/", line: "no equals sign or name", outcome: "stored", source: "§5.6: a nameless cookie"),
        Step(url: "https://a.test/", line: "", outcome: "empty-name-and-value", source: "§5.6: an empty line is ignored"),
        Step(url: "https://x.d.test/", line: "u=1; Domain=.D.TEST", outcome: "stored", source: "§5.6.3: the Domain lower-cased; §5.7 step 10"),
        Step(url: "https://x.d.test/", line: "u=2; Domain=d.test", outcome: "replaced", source: "§5.7 step 23: the same domain"),
        Step(url: "https://x.d.test/", line: "v=1; Domain=d.t\u{E9}st", outcome: "domain-not-ascii", source: "§5.7 step 8"),
        Step(url: "https://x.com/", line: "p=1; Domain=COM", outcome: "domain-is-public-suffix", source: "§5.7 step 9"),
        Step(url: "https://com/", line: "p=1; Domain=Com", outcome: "stored", source: "§5.7 step 9: the request-host itself, host-only"),
        Step(url: "https://127.0.0.1/", line: "i=1; Domain=127.0.0.1", outcome: "stored", source: "§5.7 step 10: an IP literal matches itself"),
        Step(url: "https://x.d.test/", line: "w=1; Domain=e.test", outcome: "domain-mismatch", source: "§5.7 step 10"),
    ]

    static let limits = CookieLimits(maxCookiesPerSite: 3, sitePurgeCount: 0, maxCookies: 5, purgeCount: 0)

    typealias Recorder = CookieChangeTests.Recorder

    static func observedJar() -> (CookieJar, ManualCookieClock, Recorder) {
        let (jar, clock) = makeTestJar(limits: limits)
        let recorder = Recorder()
        jar.addObserver { recorder($0) }
        return (jar, clock, recorder)
    }

    static func name(of outcome: SetCookieOutcome) -> String {
        switch outcome {
        case .stored: "stored"
        case .replaced: "replaced"
        case .deleted: "deleted"
        case .expired: "expired"
        case .rejected(let reason): reason.rawValue
        }
    }

    @Test func receiveAndSetCookieMakeTheSameJarAndChanges() {
        let (received, receivedClock, receivedChanges) = Self.observedJar()
        let (reported, reportedClock, reportedChanges) = Self.observedJar()
        for step in Self.script {
            receivedClock.advance(seconds: step.after)
            reportedClock.advance(seconds: step.after)
            received.receive(step.line, from: url(step.url), context: step.context)
            let before = reportedChanges.all.count
            let outcome = reported.setCookie(step.line, from: url(step.url), context: step.context)
            #expect(Self.name(of: outcome) == step.outcome, "\(step.testDescription)")
            // The outcome's cookies are the ones of the change the line made (an expired namesake
            // removed first and evictions after it are changes of their own).
            let made = reportedChanges.all[before...]
            switch outcome {
            case .stored(let cookie): #expect(made.contains(.added(cookie)), "\(step.testDescription)")
            case .replaced(let cookie, let previous): #expect(made.contains(.replaced(old: previous, new: cookie)))
            case .deleted(let previous): #expect(made.contains(.removed(previous, cause: .expired)))
            case .expired, .rejected: #expect(made.isEmpty, "\(step.testDescription)")
            }
        }
        #expect(received.storedCookiesBySite() == reported.storedCookiesBySite())
        #expect(receivedChanges.all == reportedChanges.all)
        #expect(receivedChanges.all.contains { if case .removed(_, .evicted) = $0 { true } else { false } })
        #expect(received.count == Self.limits.maxCookies)
    }

    /// A pair's text comes back as it was sent, ASCII or not (the site takes a line known to be ASCII as
    /// ASCII and checks the others), and the store's bookkeeping, which checks each pair's ASCII flag
    /// against its bytes, holds (UTF-8 is stored as sent, rfc6265bis-22 §5.6 leaves octets alone).
    @Test(arguments: [
        ("a=plain; Path=/", "plain"), ("b=caf\u{E9}", "caf\u{E9}"), ("c=x; Path=/\u{E9}", "x"),
        ("\u{E9}=1; Max-Age=60", "1"), ("d=\u{65E5}\u{672C}; Secure", "\u{65E5}\u{672C}"),
    ])
    func pairsKeepTheirText(line: String, value: String) throws {
        let (jar, _) = makeTestJar()
        jar.receive(line, from: url("https://h.test/p/q"))
        let cookie = try #require(jar.allCookies().first)
        #expect(cookie.value == value)
        #expect(jar.storeStructureViolation() == nil)
        // Replaced by a pair of the other kind, in place or at the end.
        jar.receive(cookie.name + "=" + (value.utf8.allSatisfy { $0 < 0x80 } ? "\u{E9}t\u{E9}" : "ascii-now-and-longer") + "; Path=" + cookie.path,
                    from: url("https://h.test/p/q"))
        #expect(jar.storeStructureViolation() == nil)
        #expect(jar.allCookies().count == 1)
    }

    /// `setCookie` reads its cookies out of the changes it recorded; with no one observing, those are
    /// dropped, not handed to an observer added later.
    @Test func unobservedReportsLeaveNoChangesBehind() {
        let (jar, _) = makeTestJar()
        for step in Self.script { jar.setCookie(step.line, from: url(step.url), context: step.context) }
        let recorder = Recorder()
        jar.addObserver { recorder($0) }
        jar.setCookie("late=1", from: url("https://d.test/"))
        #expect(recorder.all.map(\.cookie.name) == ["late"])
    }
}
