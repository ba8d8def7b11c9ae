/// A request-host in canonical form (rfc6265bis-22 §5.1.2), as a browser's URL parser gives it:
/// lower-case, IDNA A-labels, IPv4 in dotted decimal, IPv6 compressed inside brackets, a trailing dot
/// kept (`example.com.` is another host than `example.com`).
public struct CanonicalHost: Sendable, Hashable, CustomStringConvertible {
    /// What the host names.
    public enum Kind: Sendable, Hashable {
        /// A domain name (a host name, not an IP address).
        case domain
        /// An IPv4 address in dotted decimal.
        case ipv4
        /// An IPv6 address, written inside brackets.
        case ipv6
    }

    /// The text holding the canonical host and the host's UTF-8 offsets in it: the host alone, or the
    /// URL it was parsed from when it was canonical as written there (no String of its own).
    private let text: String
    private let start: Int
    private let end: Int
    /// Whether the host is a domain name or an IP address.
    public let kind: Kind

    /// The canonical text: `www.example.com`, `127.0.0.1`, `[::1]`.
    public var name: String {
        if start == 0, end == text.utf8.count { return text }
        // Canonical hosts are ASCII.
        return withNameBytes { String(wellFormedUTF8: $0, isASCII: true) }
    }

    /// Calls `body` with the UTF-8 bytes of the name (ASCII).
    @inline(__always)
    func withNameBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        text.withUTF8Bytes { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Canonicalises `text` (a URL's host, IPv6 with or without brackets); nil when it is no valid host.
    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        if text.utf8.withContiguousStorageIfAvailable(CanonicalHost.isCanonicalDomainName) == true {
            self.init(name: text, kind: .domain)
        } else {
            self.init(canonicalising: text)
        }
    }

    /// The full canonicalisation of `text` (IPv6, IDNA, forbidden code points, IPv4), which the common
    /// case above skips.
    init?(canonicalising text: String) {
        guard !text.isEmpty else { return nil }
        if text.utf8.first == UInt8(ascii: "[") {
            guard text.utf8.last == UInt8(ascii: "]"), text.utf8.count > 2,
                let address = IPv6Address(text.utf8.dropFirst().dropLast())
            else { return nil }
            self.init(name: "[" + address.description + "]", kind: .ipv6)
            return
        }
        if text.utf8.contains(UInt8(ascii: ":")), let address = IPv6Address(text.utf8) {
            self.init(name: "[" + address.description + "]", kind: .ipv6)
            return
        }
        guard let ascii = IDNA.toASCII(text), !ascii.isEmpty else { return nil }
        for byte in ascii.utf8 where CanonicalHost.isForbiddenHostByte(byte) {
            return nil
        }
        switch IPv4Address.parse(ascii) {
        case .address(let address):
            self.init(name: address.description, kind: .ipv4)
        case .invalid:
            return nil
        case .notAnAddress:
            self.init(name: ascii, kind: .domain)
        }
    }

    /// A host known to be canonical already (for stored cookies and tests).
    init(name: String, kind: Kind) {
        self.init(text: name, start: 0, end: name.utf8.count, kind: kind)
    }

    /// The host whose name is the UTF-8 offsets `start..<end` of `text`, canonical already (a URL's).
    init(text: String, start: Int, end: Int, kind: Kind) {
        (self.text, self.start, self.end, self.kind) = (text, start, end, kind)
    }

    /// Hosts are equal when their kind and the UTF-8 of their name are.
    public static func == (lhs: CanonicalHost, rhs: CanonicalHost) -> Bool {
        lhs.kind == rhs.kind && lhs.withNameBytes { left in rhs.withNameBytes { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        withNameBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// True for an IPv4 or IPv6 literal: such hosts never reach the public suffix list, and a domain
    /// string matches them only when identical (§5.1.3).
    public var isIPAddress: Bool { kind != .domain }

    /// `localhost`, a name under `.localhost`, 127.0.0.0/8 or `[::1]`: loopback hosts whose plain `http`
    /// counts as a secure channel (a deliberate choice shared with browsers' "potentially trustworthy
    /// origins", W3C Secure Contexts §3.1; rfc6265bis-22 leaves "secure" to the user agent, §5.7 step 13).
    public var isLoopback: Bool {
        withNameBytes { CanonicalHost.isLoopback($0, kind: kind) }
    }

    /// `isLoopback` for the host of this kind whose name's UTF-8 is `name`.
    static func isLoopback(_ name: UnsafeBufferPointer<UInt8>, kind: Kind) -> Bool {
        switch kind {
        case .ipv4: return name.starts(with: "127.".utf8)
        case .ipv6: return name.elementsEqual("[::1]".utf8)
        case .domain:
            // Bytes, not Characters: a canonical domain is ASCII. "localhost" or a name ending in
            // ".localhost", a trailing dot set aside.
            var bytes = name[...]
            if bytes.last == UInt8(ascii: ".") { bytes = bytes.dropLast() }
            let localhost = "localhost".utf8
            guard bytes.count >= localhost.count, bytes.suffix(localhost.count).elementsEqual(localhost) else { return false }
            return bytes.count == localhost.count || bytes.dropLast(localhost.count).last == UInt8(ascii: ".")
        }
    }

    public var description: String { name }

    /// True for the common host that is canonical as it is: lower-case letters, digits, "-", "_" and "."
    /// only, its last label (before a trailing ".") not starting with a digit, so that it is neither an
    /// IPv4 address nor invalid as one. Everything else takes the full path above. The bytes are read
    /// eight at a time (the last word overlapping the one before it), the last label from the end.
    private static func isCanonicalDomainName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        let count = bytes.count
        if count >= 8 {
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while true {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                guard word.isCanonicalHostWord else { return false }
                if offset + 8 == count { break }
                offset = Swift.min(offset + 8, count - 8)
            }
        } else {
            // A short name, padded with "a" (allowed) to a word.
            var word: UInt64 = 0x6161_6161_6161_6161
            for offset in 0..<count { word = word & ~(0xFF << (offset * 8)) | UInt64(base[offset]) << (offset * 8) }
            guard word.isCanonicalHostWord else { return false }
        }
        return !lastLabelStartsWithDigit(bytes)
    }

    /// True when the last label of the (non-empty) name `bytes`, a trailing "." set aside, starts with a
    /// digit: read from the end.
    static func lastLabelStartsWithDigit(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = bytes.count
        if bytes[end - 1] == UInt8(ascii: "."), end > 1 { end -= 1 }
        var first = end - 1
        while first > 0, bytes[first - 1] != UInt8(ascii: ".") { first -= 1 }
        return bytes[first] &- UInt8(ascii: "0") < 10
    }

    /// True for a byte a canonical domain name may hold: a lower-case letter, a digit, "-", "." or "_".
    static func isCanonicalHostByte(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    /// WHATWG URL "forbidden host code point", plus controls and space: never part of a host.
    private static func isForbiddenHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F, UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["),
            UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
            return true
        default:
            return false
        }
    }
}

extension UInt64 {
    /// True when each byte of this word is a lower-case letter, a digit, "-", "." or "_".
    @inline(__always)
    fileprivate var isCanonicalHostWord: Bool { nonCanonicalHostBytes == 0 }

    /// The high bit of each byte of this word that is not a lower-case letter, a digit, "-", "." or "_",
    /// and no other bit: the first such byte (read little-endian) is the lowest bit set. For bytes below
    /// 0x80, adding `0x80 - low` sets the high bit exactly when the byte is at least `low`, adding
    /// `0x7F - high` exactly when it is above `high`, and adding 0x7F to the byte xor `c` exactly when it
    /// is not `c`; no sum carries into the next byte ("determine if a word has a byte between m and n",
    /// Sean Eron Anderson, Bit Twiddling Hacks). A byte's own high bit set (0x80-0xFF) is never allowed.
    @inline(__always)
    var nonCanonicalHostBytes: UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let low = self & ~highBits
        func atLeast(_ bound: UInt8) -> UInt64 { low &+ ones &* UInt64(0x80 - bound) }
        func above(_ bound: UInt8) -> UInt64 { low &+ ones &* UInt64(0x7F - bound) }
        func isNot(_ byte: UInt8) -> UInt64 { (low ^ ones &* UInt64(byte)) &+ ones &* 0x7F }
        // "a"-"z"; "-" to "9" except "/" ("-", "." and the digits); "_".
        let letter = atLeast(UInt8(ascii: "a")) & ~above(UInt8(ascii: "z"))
        let dashToNine = atLeast(UInt8(ascii: "-")) & ~above(UInt8(ascii: "9")) & isNot(UInt8(ascii: "/"))
        let allowed = letter | dashToNine | ~isNot(UInt8(ascii: "_"))
        return ~(allowed & ~self) & highBits
    }
}
