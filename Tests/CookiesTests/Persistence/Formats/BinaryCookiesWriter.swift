@testable import Cookies

/// A test-only writer of Apple's binarycookies format, built from the structure documented on
/// `BinaryCookies` (public descriptions of the format, not Apple code), to make fixtures.
enum BinaryCookiesWriter {
    struct Record {
        var domain: String
        var name: String
        var path: String
        var value: String
        var flags: UInt32 = 0
        /// Seconds since 2001-01-01T00:00:00Z.
        var expiry: Double
        var creation: Double
        var comment: String? = nil
    }

    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func be32(_ value: UInt32) -> [UInt8] { le32(value).reversed() }
    static func le64(_ value: Double) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * $0)) } }

    /// One cookie record: the 56-byte fixed part, then the comment (if any), domain, name, path, value.
    static func cookie(_ record: Record) -> [UInt8] {
        var strings: [UInt8] = []
        var offsets: [UInt32] = []
        var commentOffset: UInt32 = 0
        if let comment = record.comment {
            commentOffset = 56
            strings += Array(comment.utf8) + [0]
        }
        for field in [record.domain, record.name, record.path, record.value] {
            offsets.append(UInt32(56 + strings.count))
            strings += Array(field.utf8) + [0]
        }
        var bytes = le32(UInt32(56 + strings.count)) + le32(0) + le32(record.flags) + le32(0)
        for offset in offsets { bytes += le32(offset) }
        bytes += le32(commentOffset) + le32(0) + le64(record.expiry) + le64(record.creation)
        return bytes + strings
    }

    /// A page: tag, cookie count, offsets, 4 zero bytes, the cookies.
    static func page(_ cookies: [[UInt8]]) -> [UInt8] {
        var offset = 8 + 4 * cookies.count + 4
        var bytes: [UInt8] = [0, 0, 1, 0] + le32(UInt32(cookies.count))
        for cookie in cookies {
            bytes += le32(UInt32(offset))
            offset += cookie.count
        }
        bytes += [0, 0, 0, 0]
        for cookie in cookies { bytes += cookie }
        return bytes
    }

    /// A file: magic, page table, pages, checksum, footer (no property list).
    static func file(_ pages: [[UInt8]]) -> [UInt8] {
        var bytes = Array("cook".utf8) + be32(UInt32(pages.count))
        var checksum: UInt32 = 0
        for page in pages {
            bytes += be32(UInt32(page.count))
            for index in stride(from: 0, to: page.count, by: 4) { checksum &+= UInt32(page[index]) }
        }
        for page in pages { bytes += page }
        return bytes + be32(checksum) + [0x07, 0x17, 0x20, 0x05, 0x00, 0x00, 0x00, 0x4B]
    }

    /// The record of a jar cookie (persistent ones only: the format has no session cookies).
    static func record(_ cookie: Cookie) -> Record {
        var flags: UInt32 = 0
        if cookie.isSecure { flags |= 0x1 }
        if cookie.isHTTPOnly { flags |= 0x4 }
        switch cookie.sameSite {
        case .lax: flags |= 0x8
        case .strict: flags |= 0x18
        case .none, .default: break
        }
        func apple(_ time: CookieTime) -> Double {
            Double(time.microsecondsSinceEpoch) / 1_000_000 - BinaryCookies.appleEpochOffset
        }
        return Record(
            domain: (cookie.isHostOnly ? "" : ".") + cookie.domain, name: cookie.name, path: cookie.path,
            value: cookie.value, flags: flags, expiry: apple(cookie.expiry!), creation: apple(cookie.creation))
    }
}
