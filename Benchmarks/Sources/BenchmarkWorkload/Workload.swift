/// Realistic `Set-Cookie` receipts and request URLs, built in-process from a seed (no files): the mix of
/// ../shared/bench/gen.py in miniature — sites under common public suffixes, subdomains, analytics and
/// session cookies, Domain/Path/Expires/Max-Age/Secure/HttpOnly/SameSite attributes, deletions.
public struct Workload: Sendable {
    /// A `Set-Cookie` field value received from a response to `url`.
    public struct Receipt: Sendable {
        public let url: String
        public let setCookie: String
    }

    /// A registrable domain and the hosts under it that set cookies.
    public struct Site: Sendable {
        public let domain: String
        public let hosts: [String]
        public let sections: [String]
    }

    public let sites: [Site]
    /// Registrable domains that never set a cookie (lookups that miss).
    public let unknownDomains: [String]

    static let suffixes = ["com", "com", "com", "co.uk", "github.io", "org", "net", "de", "io", "com.au", "co.jp"]
    static let subdomains = ["www", "shop", "api", "m", "accounts", "login", "static", "cdn", "news", "app", "eu.api"]
    static let sectionNames = ["shop", "account", "api", "docs", "blog", "cart", "checkout", "search", "help", "v1"]
    static let syllables = ["ka", "lo", "mi", "ne", "ro", "ta", "vu", "zi", "bri", "cla", "fen", "gor", "hal", "jin",
                            "data", "shop", "news", "cloud", "link", "soft", "hub", "box", "ly", "io", "lab", "pay"]
    static let hex = "0123456789abcdef"
    static let base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// `siteCount` sites (and half as many unknown domains) drawn from `seed`.
    public init(siteCount: Int, seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var seen = Set<String>()
        func domain() -> String {
            while true {
                let label = (0..<random.pick([2, 2, 3])).map { _ in random.pick(Workload.syllables) }.joined()
                let name = label + "." + random.pick(Workload.suffixes)
                if seen.insert(name).inserted { return name }
            }
        }
        sites = (0..<siteCount).map { _ in
            let name = domain()
            let hosts = [name] + (0..<random.pick([1, 2, 3, 4])).map { _ in random.pick(Workload.subdomains) + "." + name }
            return Site(domain: name, hosts: hosts, sections: (0..<3).map { _ in random.pick(Workload.sectionNames) })
        }
        unknownDomains = (0..<max(1, siteCount / 2)).map { _ in domain() }
    }

    // MARK: Set-Cookie lines

    /// A typical line: an analytics or session cookie with a handful of attributes.
    public static func typicalLine(_ random: inout SeededGenerator, domain: String? = nil) -> String {
        var line = random.pick(["_ga", "_gid", "sid", "session_id", "csrftoken", "lang", "consent"]) + "="
        line += random.chance(0.5)
            ? "GA1.2.\(UInt32.random(in: 100_000_000...2_000_000_000, using: &random)).\(UInt32.random(in: 1_600_000_000...1_800_000_000, using: &random))"
            : random.string(hex, count: 32)
        if let domain { line += "; Domain=" + (random.chance(0.3) ? "." : "") + domain }
        line += "; Path=/"
        if random.chance(0.5) {
            line += "; Expires=" + imfFixdate(&random)
        } else if random.chance(0.6) {
            line += "; Max-Age=" + random.pick(["3600", "86400", "2592000", "31536000"])
        }
        if random.chance(0.6) { line += "; Secure" }
        if random.chance(0.4) { line += "; HttpOnly" }
        if random.chance(0.5) { line += "; SameSite=" + random.pick(["Lax", "Strict", "None"]) }
        return line
    }

    /// A session cookie whose value is a signed JWT (about 900 bytes).
    public static func jwtLine(_ random: inout SeededGenerator) -> String {
        "id_token=" + random.string(base64URL, count: 36) + "." + random.string(base64URL, count: 480) + "."
            + random.string(base64URL, count: 342) + "; Path=/; Secure; HttpOnly; SameSite=Lax"
    }

    /// A line whose Expires uses one of the legacy formats §5.1.1 still accepts (RFC 850, Netscape,
    /// asctime, two-digit years, lower case, numeric zone).
    public static func legacyDateLine(_ random: inout SeededGenerator) -> String {
        let day = Int.random(in: 1...28, using: &random)
        let month = random.pick(months)
        let year = Int.random(in: 2028...2037, using: &random)
        let time = "\(twoDigits(Int.random(in: 0...23, using: &random))):\(twoDigits(Int.random(in: 0...59, using: &random))):07"
        let weekday = random.pick(weekdays)
        let date = random.pick([
            "\(weekday)day, \(twoDigits(day))-\(month)-\(twoDigits(year % 100)) \(time) GMT",
            "\(weekday), \(twoDigits(day))-\(month)-\(year) \(time) GMT",
            "\(weekday) \(month) \(day < 10 ? " " : "")\(day) \(time) \(year)",
            "\(weekday.lowercased()), \(twoDigits(day)) \(month.lowercased()) \(year) \(time) gmt",
            "\(twoDigits(day)) \(month) \(year) \(time) +0000",
        ])
        return "pref=" + random.string(hex, count: 12) + "; Expires=" + date + "; Path=/"
    }

    /// A line the parser rejects (§5.6 step 1 control character, no name and value, over 4096 octets).
    public static func rejectedLine(_ random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return "track=" + random.string(hex, count: 8) + "\u{01}" + random.string(hex, count: 8) + "; Path=/"
        case 1: return "=; Path=/"
        default: return "big=" + random.string(base64URL, count: 4200) + "; Path=/"
        }
    }

    static func imfFixdate(_ random: inout SeededGenerator) -> String {
        "\(random.pick(weekdays)), \(twoDigits(Int.random(in: 1...28, using: &random))) \(random.pick(months)) "
            + "\(Int.random(in: 2028...2037, using: &random)) \(twoDigits(Int.random(in: 0...23, using: &random))):"
            + "\(twoDigits(Int.random(in: 0...59, using: &random))):\(twoDigits(Int.random(in: 0...59, using: &random))) GMT"
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    // MARK: Receipts and queries

    /// `count` receipts spread over the sites: mostly typical lines (a third with a Domain attribute),
    /// some JWTs, some legacy dates and some deletions (Max-Age=0).
    public func receipts(count: Int, seed: UInt64) -> [Receipt] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let site = random.pick(sites)
            let host = random.pick(site.hosts)
            let path = random.chance(0.5) ? "/" : "/" + random.pick(site.sections) + "/" + random.pick(Workload.syllables)
            let url = (random.chance(0.9) ? "https://" : "http://") + host + path
            let roll = Double.random(in: 0..<1, using: &random)
            let line: String
            if roll < 0.80 {
                line = Workload.typicalLine(&random, domain: random.chance(0.33) ? site.domain : nil)
                    .replacingFirst("=", with: "\(Int.random(in: 0..<80, using: &random))=")
            } else if roll < 0.85 {
                line = Workload.jwtLine(&random)
            } else if roll < 0.95 {
                line = Workload.legacyDateLine(&random)
            } else {
                line = random.pick(["_ga", "sid", "lang"]) + "=; Max-Age=0; Path=/"
            }
            return Receipt(url: url, setCookie: line)
        }
    }

    /// `count` request URLs to hosts of the sites (`hits`) or to domains that never set a cookie.
    public func queries(count: Int, hits: Bool, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let host: String
            if hits {
                host = random.pick(random.pick(sites).hosts)
            } else {
                host = random.pick(["", "www.", "api."]) + random.pick(unknownDomains)
            }
            let path = random.pick(["/", "/index.html", "/" + random.pick(Workload.sectionNames) + "/" + random.pick(Workload.syllables)])
            return "https://" + host + path + (random.chance(0.2) ? "?q=" + random.string(Workload.hex, count: 5) : "")
        }
    }
}

extension String {
    /// This string with its first `target` replaced by `replacement`.
    func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return self[..<index] + replacement + self[index...].dropFirst()
    }
}
