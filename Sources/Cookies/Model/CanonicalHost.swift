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

    /// The canonical text: `www.example.com`, `127.0.0.1`, `[::1]`.
    public let name: String
    public let kind: Kind

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
        self.name = name
        self.kind = kind
    }

    /// True for an IPv4 or IPv6 literal: such hosts never reach the public suffix list, and a domain
    /// string matches them only when identical (§5.1.3).
    public var isIPAddress: Bool { kind != .domain }

    /// `localhost`, a name under `.localhost`, 127.0.0.0/8 or `[::1]`: loopback hosts whose plain `http`
    /// counts as a secure channel (a deliberate choice shared with browsers' "potentially trustworthy
    /// origins", W3C Secure Contexts §3.1; rfc6265bis-22 leaves "secure" to the user agent, §5.7 step 13).
    public var isLoopback: Bool {
        switch kind {
        case .ipv4: return name.utf8.starts(with: "127.".utf8)
        case .ipv6: return name == "[::1]"
        case .domain:
            // Bytes, not Characters: a canonical domain is ASCII. "localhost" or a name ending in
            // ".localhost", a trailing dot set aside.
            var bytes = name.utf8[...]
            if bytes.last == UInt8(ascii: ".") { bytes = bytes.dropLast() }
            let localhost = "localhost".utf8
            guard bytes.count >= localhost.count, bytes.suffix(localhost.count).elementsEqual(localhost) else { return false }
            return bytes.count == localhost.count || bytes.dropLast(localhost.count).last == UInt8(ascii: ".")
        }
    }

    public var description: String { name }

    /// True for the common host that is canonical as it is: lower-case letters, digits, "-", "_" and "."
    /// only, its last label (before a trailing ".") not starting with a digit, so that it is neither an
    /// IPv4 address nor invalid as one. Everything else takes the full path above.
    private static func isCanonicalDomainName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var lastLabelStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            // Lower-case letters first: one subtraction and one comparison each.
            if byte &- UInt8(ascii: "a") < 26 { continue }
            if byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") { continue }
            guard byte == UInt8(ascii: ".") else { return false }
            if index + 1 < bytes.count { lastLabelStart = index + 1 }
        }
        // `lastLabelStart` is a valid index: the text is not empty and a trailing "." never moves it.
        let first = bytes[lastLabelStart]
        return !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
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
