/// Bytes that are meant to be UTF-8 and may not be: standard input, the command line's arguments.
enum IllFormedUTF8 {
    /// The offset of the first byte of `bytes` that starts an ill-formed UTF-8 sequence, nil when there is
    /// none.
    static func firstOffset(in bytes: some Sequence<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// `bytes` as text, each byte of an ill-formed sequence written `\xNN` (not U+FFFD, which would hide
    /// which bytes they were).
    static func escaped(_ bytes: some Collection<UInt8>) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var next = bytes.startIndex
        var text = ""
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                text.unicodeScalars.append(Unicode.UTF8.decode(scalar))
                next = bytes.index(next, offsetBy: scalar.count)
            case .error(let length):
                let end = bytes.index(next, offsetBy: length)
                for byte in bytes[next..<end] {
                    text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
                next = end
            case .emptyInput:
                return text
            }
        }
    }
}
