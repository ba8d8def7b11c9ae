/// An IPv4 address parsed as the WHATWG URL Standard's IPv4 parser does (§3.5 "IPv4 parser"): one to
/// four parts, each decimal, octal (leading 0) or hexadecimal (0x), the last part filling the remaining
/// bytes. So `127.1`, `0x7f.0.0.1` and `2130706433` all name 127.0.0.1, as they do in browsers.
struct IPv4Address: Sendable, Hashable, CustomStringConvertible {
    var value: UInt32

    enum ParseResult {
        case address(IPv4Address)
        /// The host ends in a number but is no valid address: the URL is invalid.
        case invalid
        /// A domain name.
        case notAnAddress
    }

    static func parse(_ host: String) -> ParseResult {
        // Fast path for names: "ends in a number" needs the last part (a trailing "." aside) to start with
        // a digit, which rules out almost every host without splitting it (read on the bytes in place).
        guard host.withUTF8Bytes({ !$0.isEmpty && CanonicalHost.lastLabelStartsWithDigit($0) }) else { return .notAnAddress }
        var parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.count > 1, parts.last!.isEmpty { parts.removeLast() }
        // "ends in a number": the last part is all digits, or 0x followed by hex digits.
        guard let last = parts.last, endsInANumber(last) else { return .notAnAddress }
        guard parts.count <= 4 else { return .invalid }
        var numbers: [UInt64] = []
        numbers.reserveCapacity(parts.count)
        for part in parts {
            guard let number = parseNumber(part) else { return .invalid }
            numbers.append(number)
        }
        for number in numbers.dropLast() where number > 255 { return .invalid }
        let lastLimit: UInt64 = 1 << (8 * UInt64(5 - numbers.count))
        guard numbers.last! < lastLimit else { return .invalid }
        var value = numbers.last!
        for (index, number) in numbers.dropLast().enumerated() {
            value += number << (8 * UInt64(3 - index))
        }
        return .address(IPv4Address(value: UInt32(truncatingIfNeeded: value)))
    }

    var description: String {
        "\(value >> 24).\((value >> 16) & 0xFF).\((value >> 8) & 0xFF).\(value & 0xFF)"
    }

    private static func endsInANumber(_ part: Substring.UTF8View) -> Bool {
        guard !part.isEmpty else { return false }
        if part.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        return parseNumber(part) != nil && part.starts(with: "0x".utf8)
    }

    /// WHATWG "IPv4 number parser"; values are capped so that any too-large number stays too large.
    private static func parseNumber(_ part: Substring.UTF8View) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part[...]
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"),
            digits.dropFirst().first == UInt8(ascii: "x") || digits.dropFirst().first == UInt8(ascii: "X")
        {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        if digits.isEmpty { return 0 }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            guard digit < radix else { return nil }
            value = min(value * radix + digit, 1 << 40)
        }
        return value
    }
}

extension IPv4Address.ParseResult {
    var isNotAnAddress: Bool {
        if case .notAnAddress = self { return true }
        return false
    }
}
