/// Percent-decoding (RFC 3986 §2.1): "%" and two HEXDIGs stand for the octet they spell.
enum PercentDecoding {
    /// The text `bytes` spell once decoded; nil when a "%" is not followed by two HEXDIGs (an escape no
    /// decoding undoes) or the octets are not well-formed UTF-8 (a String made of them would hold U+FFFD
    /// instead: another host, another partition key).
    static func decoded(_ bytes: some Sequence<UInt8>) -> String? {
        var decoded: [UInt8] = []
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else { return nil }
            decoded.append(high << 4 | low)
        }
        return decoded.withUnsafeBufferPointer { String(validatingUTF8Bytes: $0) }
    }
}
