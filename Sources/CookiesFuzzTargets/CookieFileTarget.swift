import Cookies

extension FuzzTarget {
    /// The cookie file loaders (cookies.txt, swift-cookiejar JSON, Cookies.binarycookies, told apart by
    /// content): any bytes load or give a `CookieFileError`; what loads saves and loads back the same —
    /// every field through JSON (lossless), and the fields cookies.txt holds through cookies.txt.
    static let cookieFile = FuzzTarget(name: "cookie-file") { input throws(InvariantViolation) in
        let target = "cookie-file"
        let now = CookieTime(secondsSinceEpoch: Int64(1_735_689_600))
        guard let contents = try? CookieImportFile.parse(input, now: now, lenient: true) else { return }
        let cookies = contents.cookies
        let json: [Cookie]
        do {
            json = try CookieJSON.parse(Array(CookieJSON.serialize(cookies).utf8)).cookies
        } catch {
            throw InvariantViolation(target: target, invariant: "loaded cookies saved as JSON do not load: \(error)")
        }
        // Writers put cookies in export order (oldest first): compare as collections.
        try require(json.count == cookies.count && Set(json) == Set(cookies), target, "JSON save → load changes the cookies")
        guard let (text, leftOut) = try? CookiesTxt.serialize(cookies) else { return }
        // Partitioned cookies are left out, and counted.
        let unpartitioned = cookies.filter { $0.partitionKey == nil }
        try require(
            leftOut.reduce(0) { $0 + $1.count } == cookies.count - unpartitioned.count, target,
            "cookies.txt leaves out other cookies than the partitioned ones")
        let reloaded: [Cookie]
        do {
            reloaded = try CookiesTxt.parse(Array(text.utf8), now: now).cookies
        } catch {
            throw InvariantViolation(target: target, invariant: "loaded cookies saved as cookies.txt do not load: \(error)")
        }
        // cookies.txt holds whole seconds, 0 meaning a session cookie: an expiry at or before 1970 is
        // written as 1 (expired all the same).
        func txtFields(_ cookie: Cookie) -> String {
            let expiry = cookie.expiry.map { max($0.secondsSinceEpoch, 1) } ?? 0
            return "\(cookie.name)\t\(cookie.value)\t\(cookie.domain)\t\(cookie.isHostOnly)\t\(cookie.path)\t\(cookie.isSecure)\t\(cookie.isHTTPOnly)\t\(expiry)"
        }
        try require(
            reloaded.map(txtFields).sorted() == unpartitioned.map(txtFields).sorted(), target,
            "cookies.txt save → load changes the fields cookies.txt holds")
    }
}
