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
        if text.withUTF8Bytes(CanonicalHost.isCanonicalDomainName) {
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
    /// IPv4 address nor invalid as one (WHATWG URL "ends in a number"). Everything else takes the full
    /// path above, which gives the same name for every host this accepts.
    ///
    /// "_" is kept, for request hosts and imported cookie domains alike: §5.1.2 converts to an A-label only
    /// the labels that are not NR-LDH labels, and that conversion (IDNA ToASCII with UseSTD3ASCIIRules off,
    /// as WHATWG URL runs it) passes "_" through unchanged, so `_dmarc.example.com` is its own canonical
    /// form. Browsers' URL parsers accept such hosts and set cookies for them (their stores key a cookie
    /// by the host as the URL parser gives it), so a browser's exported cookie file can list them: an
    /// import that refused "_" would drop cookies a browser keeps.
    static func isCanonicalDomainName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.firstIndex(markedBy: { $0.nonCanonicalHostBytes }) == nil && !lastLabelStartsWithDigit(bytes)
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

    /// True when the name has an empty label other than a final one (`a..example.com`): a URL's host may be
    /// written so, but the public suffix list places no such name, which has no registrable domain.
    public var hasEmptyLabel: Bool { withNameBytes(CanonicalHost.hasEmptyLabel) }

    /// True when `name` (UTF-8) has an empty label other than a final one (a trailing dot): "..example.com",
    /// "a..b", "com..". A URL's host may be written so, but it names no host in the DNS, and the public suffix
    /// list places no such name.
    static func hasEmptyLabel(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let dot = UInt8(ascii: ".")
        // A dot first, or after a dot.
        var previousIsDot = true
        for byte in name {
            let isDot = byte == dot
            if isDot && previousIsDot { return true }
            previousIsDot = isDot
        }
        return false
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
