import Cookies

/// Runs scenario cases on fresh jars with a manual clock, as `FORMAT.md` prescribes.
struct ScenarioRunner {
    var publicSuffixList: any PublicSuffixList

    /// What one case did: the header of each request step, each check that failed, the request steps
    /// that had no "expect" to check, and how many checks it made (a request's "expect", a jar_content, a
    /// PSL vector's expected domain); `replay --check` fails a case with unchecked requests or no checks.
    struct Outcome {
        var headers: [(step: Int, header: String)] = []
        var failures: [String] = []
        var unchecked: [Int] = []
        var checks = 0
        var passed: Bool { failures.isEmpty }
    }

    func run(_ scenario: ScenarioCase) -> Outcome {
        if let input = scenario.pslInput {
            return runPublicSuffixVector(input: input, expected: scenario.pslExpected ?? nil)
        }
        var outcome = Outcome()
        let clock = ManualCookieClock(CookieTime(microsecondsSinceEpoch: 0))
        let jar = CookieJar(publicSuffixList: publicSuffixList, clock: clock)
        for (number, step) in (scenario.steps ?? []).enumerated() {
            if let at = step.at { clock.set(at) }
            switch step.action {
            case .receive(let urlText, let lines, let api, let contextText):
                // A response from a URL that does not parse sets nothing, as in a browser.
                guard let url = CookieURL(urlText) else { continue }
                guard let context = makeContext(contextText, api: api, url: url) else {
                    outcome.failures.append("step \(number): cannot parse the context")
                    continue
                }
                jar.receive(lines, from: url, context: context)
            case .request(let urlText, let api, let contextText, let expect):
                guard let context = makeContext(contextText, api: api, url: CookieURL(urlText)) else {
                    outcome.failures.append("step \(number): cannot parse the context")
                    continue
                }
                // A request to a URL that does not parse carries no cookies.
                let header = CookieURL(urlText).flatMap { jar.cookieHeader(for: $0, context: context) } ?? ""
                outcome.headers.append((number, header))
                if let expect {
                    outcome.checks += 1
                    if expect != header {
                        outcome.failures.append("step \(number): \(context.method) \(urlText): expected \"\(expect)\", got \"\(header)\"")
                    }
                } else {
                    outcome.unchecked.append(number)
                }
            case .jarContent(let expected):
                outcome.checks += 1
                let content = jar.allCookies().map { $0.name + "=" + $0.value }.sorted()
                if content != expected.sorted() {
                    outcome.failures.append("step \(number): jar content: expected \(expected.sorted()), got \(content)")
                }
            }
        }
        return outcome
    }

    /// A PSL vector: the registrable domain of `input` after canonicalisation, compared with `expected`
    /// canonicalised the same way (leading-dot and null inputs have none).
    private func runPublicSuffixVector(input: String?, expected: String?) -> Outcome {
        var outcome = Outcome()
        var actual: String?
        if let input, !input.hasPrefix("."), let host = CanonicalHost(input) {
            actual = publicSuffixList.registrableDomain(of: host)
        }
        let wanted = expected.flatMap { CanonicalHost($0)?.name }
        outcome.headers.append((0, actual ?? "null"))
        outcome.checks = 1
        if actual != wanted {
            outcome.failures.append("registrable domain of \(input ?? "null"): expected \(wanted ?? "null"), got \(actual ?? "null")")
        }
        return outcome
    }

    /// The jar's context for a step's `api` and `context` members, for a request to `url`; nil when an
    /// origin does not parse. The partition is the scenario's, else (FORMAT.md) the site of `url`, whatever
    /// the site for cookies.
    private func makeContext(_ scenario: ScenarioContext?, api: String?, url: CookieURL?) -> CookieRequestContext? {
        var context = CookieRequestContext(partition: url)
        if api == "document.cookie" || api == "non-http" { context.api = .nonHTTP }
        guard let scenario else { return context }
        switch scenario.siteForCookies {
        case .none: context.siteForCookies = .requestOrigin
        case .some(.none): context.siteForCookies = .opaque
        case .some(.some(let origin)):
            guard let url = CookieURL(origin) else { return nil }
            context.siteForCookies = .origin(url)
        }
        if let topLevel = scenario.topLevelNavigation { context.isTopLevelNavigation = topLevel }
        if let method = scenario.method { context.method = method }
        if let partition = scenario.partition {
            guard let url = CookieURL(partition) else { return nil }
            context.partition = url
        }
        return context
    }
}
