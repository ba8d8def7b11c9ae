/// An IPv6 address (RFC 4291 §2.2 text forms, including `::` and a trailing dotted IPv4 part), written
/// back in the WHATWG URL Standard's serialisation: lower-case hex, the first longest run of two or more
/// zero pieces compressed to `::` (as RFC 5952 §4.2 recommends).
struct IPv6Address: Sendable, Hashable, CustomStringConvertible {
    var pieces: [UInt16]

    init?(_ text: some Collection<UInt8>) {
        let bytes = Array(text)
        guard !bytes.isEmpty else { return nil }
        var pieces: [UInt16] = []
        var compressAt: Int?
        var index = 0
        if bytes.starts(with: [UInt8(ascii: ":"), UInt8(ascii: ":")]) {
            index = 2
            compressAt = 0
        } else if bytes[0] == UInt8(ascii: ":") {
            return nil
        }
        while index < bytes.count {
            guard pieces.count < 8 else { return nil }
            if bytes[index] == UInt8(ascii: ":") {
                guard compressAt == nil else { return nil }
                index += 1
                compressAt = pieces.count
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while index < bytes.count, length < 4, let digit = bytes[index].hexDigitValue {
                value = value << 4 | UInt16(digit)
                index += 1
                length += 1
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                // An IPv4 part fills the last two pieces.
                guard length > 0, pieces.count <= 6 else { return nil }
                guard let v4 = IPv6Address.dottedDecimal(bytes[(index - length)...]) else { return nil }
                pieces.append(UInt16(v4 >> 16))
                pieces.append(UInt16(v4 & 0xFFFF))
                index = bytes.count
                break
            }
            guard length > 0 else { return nil }
            pieces.append(value)
            if index < bytes.count {
                guard bytes[index] == UInt8(ascii: ":"), index + 1 < bytes.count else { return nil }
                index += 1
            }
        }
        if let compressAt {
            guard pieces.count < 8 else { return nil }
            pieces.insert(contentsOf: repeatElement(0, count: 8 - pieces.count), at: compressAt)
        }
        guard pieces.count == 8 else { return nil }
        self.pieces = pieces
    }

    /// The trailing IPv4 part of an IPv6 address as the WHATWG URL Standard's IPv6 parser reads it: four
    /// decimal numbers of 0–255 between dots, none with a leading zero; nil for anything else. Unlike a
    /// host's IPv4 address, no hexadecimal, octal or shortened form (`::ffff:010.0.0.1` is no address,
    /// where the host parser's rules made it `::ffff:800:1`).
    private static func dottedDecimal(_ text: ArraySlice<UInt8>) -> UInt32? {
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.count == 1 || part.first != UInt8(ascii: "0") else { return nil }
            var number: UInt32 = 0
            for byte in part {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                number = number * 10 + UInt32(byte - UInt8(ascii: "0"))
            }
            guard number <= 255 else { return nil }
            value = value << 8 | number
        }
        return value
    }

    var description: String {
        // The first longest run of two or more zero pieces.
        var bestStart = -1
        var bestLength = 1
        var runStart = -1
        for (index, piece) in pieces.enumerated() {
            if piece == 0 {
                if runStart < 0 { runStart = index }
                if index - runStart + 1 > bestLength {
                    bestStart = runStart
                    bestLength = index - runStart + 1
                }
            } else {
                runStart = -1
            }
        }
        var out = ""
        var index = 0
        while index < 8 {
            if index == bestStart {
                out += index == 0 ? "::" : ":"
                index += bestLength
                continue
            }
            out += String(pieces[index], radix: 16)
            if index < 7 { out += ":" }
            index += 1
        }
        return out
    }

}
