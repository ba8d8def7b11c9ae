import Testing

@testable import Cookies

/// A site's compact storage: cookies as plain entries plus pairs, domains/paths/partition keys interned
/// once per site. Whatever goes in comes back out field for field, and the tables never keep a string
/// no cookie uses.
struct SiteCookiesTests {
    @Test func internedStringsShareAndReuseSlots() {
        var table = InternedStrings()
        let a = table.retain("a.example")
        #expect(table.retain("a.example") == a, "the same string shares its slot")
        let b = table.retain("b.example")
        #expect(a != b && table.count == 2)
        table.release(a)
        #expect(table.slot(of: "a.example") == a, "one use is left")
        table.release(a)
        #expect(table.slot(of: "a.example") == nil, "the last use frees the slot")
        #expect(table.retain("c.example") == a, "a freed slot is reused")
        #expect(table.count == 2 && table[b] == "b.example")
    }

    /// A table finds a string by exactly its bytes: for every length up to 40 (`slot(ofUTF8:)` compares
    /// the first eight bytes before it reads the string), the same bytes find its slot, and a change of
    /// any one byte, or of the length, finds none. Facts: byte equality, as §5.7 step 23 compares domains
    /// and paths.
    @Test(arguments: 0...40)
    func slotsAreFoundByExactlyTheirBytes(length: Int) {
        let bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        var table = InternedStrings()
        let slot = table.retain(String(decoding: bytes, as: UTF8.self))
        func found(_ candidate: [UInt8]) -> UInt32? { candidate.withUnsafeBufferPointer(table.slot(ofUTF8:)) }
        #expect(found(bytes) == slot)
        #expect(bytes.withUnsafeBufferPointer { table.slot(slot, holds: $0) })
        for index in bytes.indices {
            var changed = bytes
            changed[index] = UInt8(ascii: "Z")
            #expect(found(changed) == nil, "byte \(index) of \(length) differs")
            #expect(!changed.withUnsafeBufferPointer { table.slot(slot, holds: $0) }, "byte \(index) of \(length) differs")
        }
        #expect(found(bytes + [UInt8(ascii: "a")]) == nil, "one byte longer")
        if length > 0 { #expect(found(Array(bytes.dropLast())) == nil, "one byte shorter") }
    }

    /// A cookie is found by its identity (rfc6265bis-22 §5.7 step 23: name, domain, host-only-flag,
    /// path; plus the CHIPS partition key) and by nothing else: each cookie differing from the first in
    /// one part of it is found at its own index, and the comparison made where tags are equal (`isCookie`)
    /// tells each apart from the first, as it would after a collision of tags (the tags of domains and
    /// paths that differ only inside collide). Bytes, not Characters: canonically equivalent names differ.
    @Test func cookiesAreFoundByEveryPartOfTheirIdentity() throws {
        func cookie(
            name: String = "n\u{E9}", domain: String = "h.example", isHostOnly: Bool = true, path: String = "/p",
            partitionKey: String? = "https://top.example"
        ) -> Cookie {
            Cookie(
                name: name, value: "v", domain: domain, isHostOnly: isHostOnly, path: path, creation: testEpoch,
                isSecure: true, partitionKey: partitionKey)
        }
        let base = cookie()
        let variants = [
            cookie(name: "ne\u{301}"), cookie(domain: "g.example"), cookie(isHostOnly: false), cookie(path: "/q"),
            cookie(partitionKey: "https://other.example"), cookie(partitionKey: nil),
            // Domains and paths of equal length and ends, differing only inside: their tags are equal.
            cookie(domain: "abcdefgh1ijklmnop.example"), cookie(domain: "abcdefgh2ijklmnop.example"),
            cookie(path: "/abcdefgh1/ijklmnop"), cookie(path: "/abcdefgh2/ijklmnop"),
        ]
        var site = SiteCookies(key: "example")
        for cookie in [base] + variants { site.insert(cookie) }
        #expect(site.structureViolation() == nil)
        let baseIndex = try #require(site.indexOfCookie(withIdentityOf: base))
        #expect(CookieIdentityBytes.of(base) { site.isCookie(at: baseIndex, of: $0) })
        for variant in variants {
            let index = try #require(site.indexOfCookie(withIdentityOf: variant))
            #expect(index != baseIndex && site.cookie(at: index) == variant, "\(variant)")
            #expect(!CookieIdentityBytes.of(variant) { site.isCookie(at: baseIndex, of: $0) }, "\(variant)")
        }
        // The last two pairs do share their tags: the search compared their parts.
        let tag = { (cookie: Cookie) in CookieIdentityBytes.of(cookie, \.tag) }
        #expect(tag(variants[6]) == tag(variants[7]) && tag(variants[8]) == tag(variants[9]))
    }

    /// Cookies whose names and values stress the pair form (`name=value`, or the value alone): a
    /// nameless cookie (rfc6265bis-22 §5.6 step 3), a name holding "=" (possible through
    /// `CookieJar.insert`), an empty value, non-ASCII text; with and without expiry, port, partition.
    static let cookies: [Cookie] = [
        Cookie(name: "", value: "nameless", domain: "h.example", creation: testEpoch),
        Cookie(name: "a=b", value: "c=d", domain: "h.example", path: "/x", creation: testEpoch.adding(seconds: 1)),
        Cookie(name: "empty", value: "", domain: "example", isHostOnly: false, creation: testEpoch.adding(seconds: 2)),
        Cookie(
            name: "ünï", value: "çødé ✓", domain: "h.example", path: "/x/y", expiry: testEpoch.adding(seconds: 60),
            creation: testEpoch.adding(seconds: 3), lastAccess: testEpoch.adding(seconds: 4), isSecure: true,
            isHTTPOnly: true, sameSite: .strict, partitionKey: "https://top.example", isSourceSecure: true,
            sourcePort: 8443),
        Cookie(
            name: "long-name-over-fifteen-bytes", value: String(repeating: "v", count: 300), domain: "h.example",
            expiry: CookieTime(microsecondsSinceEpoch: .max), creation: testEpoch.adding(seconds: 5), sameSite: .none),
    ]

    @Test func cookiesComeBackFieldForField() {
        var site = SiteCookies(key: "example")
        for cookie in Self.cookies { site.insert(cookie) }
        #expect(site.count == Self.cookies.count)
        #expect(site.structureViolation() == nil)
        #expect(Set(site.cookies) == Set(Self.cookies))
        for cookie in Self.cookies {
            let index = site.indexOfCookie(withIdentityOf: cookie)
            #expect(index.map(site.cookie(at:)) == cookie, "\(cookie.name)")
        }
    }

    @Test func sendOrderIsLongerPathsFirstThenEarlierCreation() {
        var site = SiteCookies(key: "example")
        for cookie in Self.cookies.reversed() { site.insert(cookie) }
        #expect(site.cookies.map(\.path) == ["/x/y", "/x", "/", "/", "/"])
        #expect(site.cookies.suffix(3).map(\.creation) == [0, 2, 5].map { testEpoch.adding(seconds: $0) })
    }

    /// Appends `cookie` as a jar file's reader hands it over (`LoadedCookie`: its strings as bytes).
    static func append(_ cookie: Cookie, to site: inout SiteCookies) {
        LoadedCookie.withLoaded(cookie) { site.append($0, isASCIIPair: false) }
    }

    @Test func loadedCookiesAreRestoredToSendOrder() {
        var site = SiteCookies(key: "example")
        for cookie in Self.cookies.reversed() { Self.append(cookie, to: &site) }
        site.restoreSendOrder()
        #expect(site.structureViolation() == nil)
        #expect(site.cookies == Self.cookies.sorted { ($0.path.utf8.count, $1.creation) > ($1.path.utf8.count, $0.creation) })
        #expect(site.domains.count == 2 && site.paths.count == 3 && site.partitions.count == 1, "one slot per distinct string")
    }

    /// Cookies of one path length and creation time keep the order the file gives them: §5.8.3 step 2
    /// leaves their order open, and a file lists them in the order they were stored.
    @Test(arguments: [["p", "q", "r"], ["r", "p", "q"]])
    func loadedTiesKeepTheFileOrder(names: [String]) {
        var site = SiteCookies(key: "example")
        for name in names {
            Self.append(Cookie(name: name, value: "1", domain: "h.example", path: "/" + name, creation: testEpoch), to: &site)
        }
        site.restoreSendOrder()
        #expect(site.cookies.map(\.name) == names)
    }

    /// A name or value of UTF-8 that is not ASCII (a file's reader hands over only well-formed UTF-8:
    /// `CookieDatabase` refuses a file holding other bytes) is kept byte for byte, in the cookie and in
    /// the Cookie header alike.
    @Test(arguments: [
        ("n", "na\u{EF}ve", "a two-byte sequence in the value"),
        ("\u{FC}", "\u{1F36A}", "a two-byte name, a four-byte value"),
        ("", "\u{20AC}", "a three-byte sequence, nameless"),
    ])
    func loadedNonASCIINamesAndValuesAreKeptAsTheyAre(name: String, value: String, source: String) {
        var site = SiteCookies(key: "example")
        Self.append(Cookie(name: name, value: value, domain: "h.example", creation: testEpoch), to: &site)
        #expect(site.structureViolation() == nil, "\(source)")
        let cookie = site.cookie(at: 0)
        #expect(Array(cookie.name.utf8) == Array(name.utf8) && Array(cookie.value.utf8) == Array(value.utf8), "\(source)")
        let header = [Int32(0)].withUnsafeBufferPointer { site.tables.cookieHeader(sending: $0) }
        #expect(Array(header.utf8) == Array((name.isEmpty ? value : name + "=" + value).utf8), "\(source)")
    }

    @Test func removingEveryCookieEmptiesTheTables() {
        var site = SiteCookies(key: "example")
        for cookie in Self.cookies { Self.append(cookie, to: &site) }
        site.restoreSendOrder()
        let removed = site.removeAll { $0.name.isEmpty || $0.isSecure }
        #expect(Set(removed.map(\.name)) == ["", "ünï"])
        #expect(site.partitionedCount == 0)
        #expect(site.structureViolation() == nil)
        #expect(site.indexOfCookie(withIdentityOf: Self.cookies[1]).map(site.cookie(at:)) == Self.cookies[1])
        #expect(site.removeCookies(at: site.cookies.indices, returningThem: true).count == 3)
        #expect(site.structureViolation() == nil)
        for table in [site.domains, site.paths, site.partitions] {
            #expect(table.slots.allSatisfy { $0.string.isEmpty && $0.uses == 0 }, "every slot freed")
        }
    }

    @Test func replacingKeepsThePlaceAndTheSlots() throws {
        var site = SiteCookies(key: "example")
        for cookie in Self.cookies { Self.append(cookie, to: &site) }
        site.restoreSendOrder()
        var newer = Self.cookies[3]
        newer.value = "replaced"
        newer.expiry = testEpoch.adding(seconds: 10)
        let index = try #require(site.indexOfCookie(withIdentityOf: newer))
        let old = site.cookie(at: index)
        let entry = StoredCookie(newer, domain: 0, path: 0, partition: StoredCookie.unpartitioned)
        newer.name.withUTF8Bytes { name in
            newer.value.withUTF8Bytes { value in site.replace(at: index, with: entry, name: name, value: value, isKnownASCII: false) }
        }
        #expect(site.cookie(at: index) == newer)
        #expect(site.cookie(at: index).creation == old.creation, "the same place in send order")
        #expect(site.earliestExpiry == testEpoch.adding(seconds: 10))
        #expect(site.partitionedCount == 1 && site.partitions.count == 1)
        #expect(site.structureViolation() == nil)
    }

    /// Names and paths are octets (rfc6265bis-22 §5.6 and §5.7 step 23 compare them as received):
    /// "é" (U+00E9) and "e" + U+0301 are equal as Swift strings but are two cookies, and a path keeps
    /// the bytes it came with however the site's table holds its neighbours'.
    @Test func canonicallyEquivalentTextStaysDistinct() {
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed, "Swift equates them")
        let (jar, _) = makeTestJar()
        jar.setCookie("\(precomposed)=1; Path=/\(precomposed)", from: url("https://h.test/"))
        jar.setCookie("\(decomposed)=2; Path=/\(decomposed)", from: url("https://h.test/"))
        let cookies = jar.allCookies()
        #expect(cookies.count == 2, "two identities")
        for cookie in cookies {
            #expect(Array(cookie.path.utf8) == Array(("/" + cookie.name).utf8), "the path keeps its own bytes")
        }
        #expect(CookieIdentity(cookies[0]) != CookieIdentity(cookies[1]))
        #expect(Set(cookies.map(CookieIdentity.init)).count == 2)
    }

    /// §5.7 step 16 finds the Secure cookie of a name wherever it stands among a site's cookies (the
    /// identity tags are read eight at a time, then one by one): an insecure origin cannot set a cookie of
    /// that name, and sets any other.
    @Test(arguments: 0..<20)
    func secureCookieOfANameIsFoundAtEveryPosition(position: Int) {
        let (jar, _) = makeTestJar()
        for index in 0..<20 {
            jar.setCookie("n\(index)=1; Path=/" + (index == position ? "; Secure" : ""), from: url("https://h.test/"))
        }
        #expect(jar.setCookie("n\(position)=2; Path=/", from: url("http://h.test/")) == .rejected(.wouldShadowSecureCookie))
        let other = (position + 7) % 20
        #expect(jar.setCookie("n\(other)=2; Path=/", from: url("http://h.test/")).cookie?.value == "2")
    }

    /// The name tag only narrows the identity scan (§5.7 step 23) and the step-16 scan: two names with
    /// the same tag are still two cookies, and an insecure origin's cookie is refused only for the
    /// Secure cookie of its own name. The names are found here among generated ones, so that the test
    /// holds whatever the digest is.
    @Test func namesSharingATagStayDistinct() throws {
        var seen: [UInt16: String] = [:]
        var pair: (String, String)?
        for index in 0..<100_000 where pair == nil {
            let name = "n\(index)"
            let tag = name.withUTF8Bytes(CookieIdentityBytes.nameTag(of:))
            if let other = seen[tag] { pair = (other, name) } else { seen[tag] = name }
        }
        let (first, second) = try #require(pair)
        let (jar, _) = makeTestJar()
        jar.setCookie("\(first)=1; Secure; Path=/", from: url("https://h.test/"))
        let outcome = jar.setCookie("\(second)=2; Path=/", from: url("http://h.test/"))
        #expect(outcome.cookie?.value == "2", "step 16 refuses only the Secure cookie's own name")
        jar.setCookie("\(second)=3; Path=/", from: url("https://h.test/"))
        let values = Dictionary(uniqueKeysWithValues: jar.allCookies().map { ($0.name, $0.value) })
        #expect(values == [first: "1", second: "3"], "step 23 replaced the cookie of the same name only")
    }

    /// A stored cookie stays 48 bytes, its name and value included (a pair in the site's `CookiePairs`,
    /// with 16-bit lengths: §5.6 step 5 bounds name and value to 4,096 bytes together).
    @Test func storedCookieLayout() {
        #expect(MemoryLayout<StoredCookie>.stride == 48)
    }
}
