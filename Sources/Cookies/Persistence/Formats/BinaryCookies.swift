/// Apple's `Cookies.binarycookies`, what `HTTPCookieStorage` (and so WKWebView and Safari) persists on
/// iOS and macOS: read-only import.
///
/// Apple does not document the format; this reader follows the public descriptions (the "Safari cookies"
/// page of the Just Solve the File Format Problem wiki, interstateone/BinaryCookies' README, both as read
/// in 2026), and checks every size and offset against the bytes it has:
///
///     file   (big-endian)    "cook", page count N, N page sizes, the N pages,
///                            checksum (the sum of every 4th byte of every page), footer 07 17 20 05,
///                            then in newer files the size of a property list and the list (not read)
///     page   (little-endian) tag 00 00 01 00, cookie count M, M cookie offsets from the page start,
///                            00 00 00 00, the cookies
///     cookie (little-endian) size, version, flags, has-port, offsets of domain, name, path, value, comment,
///                            comment URL (from the cookie start), expiry and creation (Float64 seconds since
///                            2001-01-01T00:00:00Z), [port (UInt16) when has-port], NUL-terminated strings
///
/// Older files end right after the footer's signature (securitylearn's BinaryCookieReader.py, of the iOS 6
/// era: the file "ends with an 8 byte value", the checksum and the signature); newer ones add the accept
/// policy's property list after it (creachadair's "Binary cookies file format", 2023: its size, then the
/// list). What follows the signature is not read, nor required.
///
/// Flags: 0x1 Secure, 0x4 HttpOnly (all descriptions); SameSite from two independent public readers
/// (NotsoanoNimus/NETBinaryCookie and dcas796/BinaryCookieReader, 2024): 0x8 SameSite Lax, 0x10 Strict,
/// read here as Strict whenever 0x10 is set, Lax when only 0x8 is, `.default` otherwise. Other bits are
/// ignored.
///
/// A domain with a leading "." is a domain cookie, one without a host-only cookie. What the format does
/// not hold, and what import gives instead: last access (the creation time), partition key (none),
/// source scheme (secure when the cookie is Secure) and port (none; the cookie's port field is RFC 2965's
/// Port attribute, not its origin). Comments are ignored.
public enum BinaryCookies {
    /// Seconds from the Unix epoch to 2001-01-01T00:00:00Z, the epoch of Apple's absolute time.
    static let appleEpochOffset: Double = 978_307_200

    /// The cookies of a binarycookies file, in file order.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - lenient: when true, a cookie whose fields cannot be read, or a wrong checksum, is
    ///     reported in `skipped` and reading goes on; when false (the default), the first one throws. A
    ///     bad file header, page table or page always throws.
    public static func parse(_ bytes: some Collection<UInt8>, lenient: Bool = false) throws(CookieFileError) -> CookieFileContents {
        try bytes.withContiguousBytes { buffer throws(CookieFileError) in try parse(buffer, lenient: lenient) }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, lenient: Bool) throws(CookieFileError) -> CookieFileContents {
        let file = Bytes(bytes: bytes)
        guard bytes.starts(with: [0x63, 0x6F, 0x6F, 0x6B]) else {
            throw CookieFileError(bytes.count < 4 ? .truncated : .badSignature, offset: 0, detail: "the file does not start with \"cook\"")
        }
        let pageCount = Int(try file.uint32BE(at: 4, limit: bytes.count, what: "the page count"))
        let tableEnd = 8 + 4 * pageCount  // pageCount < 2^32: no overflow in Int
        guard tableEnd <= bytes.count else {
            throw CookieFileError(.truncated, offset: bytes.count, detail: "the file ends inside the table of \(pageCount) page sizes")
        }
        var problems = ImportProblems(lenient: lenient)
        var cookies: [Cookie] = []
        var checksum: UInt32 = 0
        var pageStart = tableEnd
        for page in 0..<pageCount {
            let pageSize = Int(try file.uint32BE(at: 8 + 4 * page, limit: tableEnd, what: "a page size"))
            guard pageSize <= bytes.count - pageStart else {
                throw CookieFileError(.truncated, offset: bytes.count, detail: "the file ends inside page \(page + 1) of \(pageCount)")
            }
            let pageEnd = pageStart + pageSize
            try readPage(file, from: pageStart, to: pageEnd, into: &cookies, problems: &problems)
            for index in stride(from: pageStart, to: pageEnd, by: 4) { checksum &+= UInt32(bytes[index]) }
            pageStart = pageEnd
        }
        let storedChecksum = try file.uint32BE(at: pageStart, limit: bytes.count, what: "the checksum")
        if storedChecksum != checksum {
            try problems.skip(CookieFileError(.checksumMismatch, offset: pageStart, detail: "the checksum does not match the pages"))
        }
        let footer = pageStart + 4
        guard bytes.count - footer >= 4 else {
            throw CookieFileError(.truncated, offset: bytes.count, detail: "the file ends inside the footer")
        }
        guard bytes[footer] == 0x07, bytes[footer + 1] == 0x17, bytes[footer + 2] == 0x20, bytes[footer + 3] == 0x05 else {
            throw CookieFileError(.badSignature, offset: footer, detail: "the footer is not 07 17 20 05")
        }
        return CookieFileContents(format: .binaryCookies, cookies: cookies, skipped: problems.skipped)
    }

    private static func readPage(
        _ file: Bytes, from start: Int, to end: Int, into cookies: inout [Cookie], problems: inout ImportProblems
    ) throws(CookieFileError) {
        guard end - start >= 4 else {
            throw CookieFileError(.truncated, offset: start, detail: "a page is shorter than its tag")
        }
        guard file.bytes[start] == 0, file.bytes[start + 1] == 0, file.bytes[start + 2] == 1, file.bytes[start + 3] == 0 else {
            throw CookieFileError(.badSignature, offset: start, detail: "a page does not start with 00 00 01 00")
        }
        let count = Int(try file.uint32LE(at: start + 4, limit: end, what: "a page's cookie count"))
        let offsetsEnd = start + 8 + 4 * count
        guard offsetsEnd <= end - 4 else {
            throw CookieFileError(.invalidOffset, offset: start + 4, detail: "a page's \(count) cookie offsets do not fit in the page")
        }
        cookies.reserveCapacity(cookies.count + count)
        for number in 0..<count {
            let entry = start + 8 + 4 * number
            let cookieStart = start + Int(try file.uint32LE(at: entry, limit: offsetsEnd, what: "a cookie offset"))
            do {
                cookies.append(try readCookie(file, at: cookieStart, pageEnd: end, offsetEntry: entry))
            } catch {
                try problems.skip(error)
            }
        }
    }

    /// Size of a cookie record's fixed part: ten UInt32 and two Float64.
    private static let cookieHeaderSize = 56

    private static func readCookie(_ file: Bytes, at start: Int, pageEnd: Int, offsetEntry: Int) throws(CookieFileError) -> Cookie {
        guard start <= pageEnd - cookieHeaderSize else {
            throw CookieFileError(.invalidOffset, offset: offsetEntry, detail: "a cookie offset points outside its page")
        }
        let size = Int(try file.uint32LE(at: start, limit: pageEnd, what: "a cookie size"))
        guard size >= cookieHeaderSize, size <= pageEnd - start else {
            throw CookieFileError(.invalidOffset, offset: start, detail: "a cookie size of \(size) does not fit its page")
        }
        let end = start + size
        let flags = try file.uint32LE(at: start + 8, limit: end, what: "the flags")
        func string(_ field: Int, _ name: StaticString) throws(CookieFileError) -> String {
            let relative = Int(try file.uint32LE(at: start + field, limit: end, what: "a string offset"))
            guard relative >= cookieHeaderSize, relative < size else {
                throw CookieFileError(.invalidOffset, offset: start + field, detail: "the \(name) offset points outside its cookie")
            }
            var terminator = start + relative
            while terminator < end, file.bytes[terminator] != 0 { terminator += 1 }
            guard terminator < end else {
                throw CookieFileError(.invalidOffset, offset: start + relative, detail: "the \(name) has no NUL before the end of its cookie")
            }
            do {
                return try ImportChecks.string(UnsafeBufferPointer(rebasing: file.bytes[(start + relative)..<terminator]), field: name)
            } catch {
                throw error.at(offset: start + relative)
            }
        }
        func time(_ field: Int, _ name: StaticString) throws(CookieFileError) -> CookieTime {
            let seconds = Double(bitPattern: try file.uint64LE(at: start + field, limit: end))
            guard seconds.isFinite else {
                throw CookieFileError(.invalidTime, offset: start + field, detail: "the \(name) time is not a finite number")
            }
            return ImportChecks.time(CookieTime(secondsSinceEpoch: seconds + appleEpochOffset))
        }
        var domain = try string(16, "domain")
        let name = try string(20, "name")
        let path = try string(24, "path")
        let value = try string(28, "value")
        let expiry = try time(40, "expiry")
        let creation = try time(48, "creation")
        let isHostOnly = domain.utf8.first != UInt8(ascii: ".")
        if !isHostOnly { domain.removeFirst() }
        do {
            domain = try ImportChecks.canonicalDomain(domain)
            try ImportChecks.checkPath(path)
            try ImportChecks.checkPair(name: name, value: value)
        } catch {
            throw error.at(offset: start)
        }
        let isSecure = flags & 0x1 != 0
        let sameSite: SameSite = flags & 0x10 != 0 ? .strict : flags & 0x8 != 0 ? .lax : .default
        return Cookie(
            name: name, value: value, domain: domain, isHostOnly: isHostOnly, path: path, expiry: expiry,
            creation: creation, isSecure: isSecure, isHTTPOnly: flags & 0x4 != 0, sameSite: sameSite,
            isSourceSecure: isSecure)
    }

    /// Bounds-checked fixed-width reads.
    private struct Bytes {
        let bytes: UnsafeBufferPointer<UInt8>

        func uint32BE(at offset: Int, limit: Int, what: StaticString) throws(CookieFileError) -> UInt32 {
            try check(offset, 4, limit, what)
            return (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
        }

        func uint32LE(at offset: Int, limit: Int, what: StaticString) throws(CookieFileError) -> UInt32 {
            try check(offset, 4, limit, what)
            return (0..<4).reversed().reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
        }

        func uint64LE(at offset: Int, limit: Int) throws(CookieFileError) -> UInt64 {
            try check(offset, 8, limit, "a time")
            return (0..<8).reversed().reduce(0) { $0 << 8 | UInt64(bytes[offset + $1]) }
        }

        private func check(_ offset: Int, _ width: Int, _ limit: Int, _ what: StaticString) throws(CookieFileError) {
            guard offset >= 0, offset <= limit - width else {
                let code: CookieFileError.Code = limit == bytes.count ? .truncated : .invalidOffset
                throw CookieFileError(code, offset: min(offset, bytes.count), detail: "\(what) does not fit in the \(code == .truncated ? "file" : "structure")")
            }
        }
    }
}
