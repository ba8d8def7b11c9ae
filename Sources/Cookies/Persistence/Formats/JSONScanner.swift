// A pull reader for JSON text (RFC 8259) over bytes in memory: the caller asks for the value it expects
// next, so a document is read in one pass without building a tree.
//
//   value  = false / null / true / object / array / number / string        ; §3
//   object = begin-object [ member *( value-separator member ) ] end-object  ; §4
//   member = string name-separator value
//   array  = begin-array [ value *( value-separator value ) ] end-array     ; §5
//   ws     = *( %x20 / %x09 / %x0A / %x0D )                                 ; §2

struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index: Int
    /// The line of the last error's offset: the next error counts lines from there, so that a lenient
    /// read of a document with an error per entry counts each newline once, not once per error.
    private let lines = LineCount()

    private final class LineCount {
        var offset = 0
        var line = 1
    }

    /// How deeply `skipValue` follows nested arrays and objects: unknown members are skipped, and a
    /// deeper document is refused rather than recursed into without bound.
    static let maximumDepth = 64

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // §8.1: a parser MAY ignore a byte order mark.
        self.index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// A `code` error at the current position, with its line.
    func error(_ code: CookieFileError.Code, _ reason: String, at position: Int? = nil) -> CookieFileError {
        let offset = min(position ?? index, bytes.count)
        if offset < lines.offset {
            lines.offset = 0
            lines.line = 1
        }
        for byte in bytes[lines.offset..<offset] where byte == 0x0A { lines.line += 1 }
        lines.offset = offset
        return CookieFileError(code, line: lines.line, offset: offset, detail: reason)
    }

    private func syntax(_ reason: String) -> CookieFileError { error(.jsonSyntax, reason) }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, not consumed; nil at the end.
    @inline(__always)
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(CookieFileError) {
        guard peek() == byte else { throw missing(byte) }
        index += 1
    }

    @inline(never)
    private func missing(_ byte: UInt8) -> CookieFileError {
        syntax(index < bytes.count ? "expected \"\(Character(Unicode.Scalar(byte)))\"" : "unexpected end of input")
    }

    /// After everything: only whitespace may follow the document.
    mutating func expectEnd() throws(CookieFileError) {
        guard peek() == nil else { throw syntax("unexpected content after the document") }
    }

    // MARK: Objects and arrays

    /// Reads `{` (on the first call, `first` true) or the `,` before the next member; returns the member's
    /// name with the `:` consumed, or nil after `}`.
    mutating func nextMember(_ first: inout Bool) throws(CookieFileError) -> String? {
        guard try startMember(&first) else { return nil }
        let name = try readString()
        try expect(UInt8(ascii: ":"))
        return name
    }

    /// As `nextMember`, the name given to `match` as bytes (see `readString(matching:)`): no String
    /// is built for the name of every member of every object.
    mutating func nextMember<Name>(
        _ first: inout Bool, matching match: (UnsafeBufferPointer<UInt8>) -> Name
    ) throws(CookieFileError) -> Name? {
        guard try startMember(&first) else { return nil }
        let name = try readString(matching: match)
        try expect(UInt8(ascii: ":"))
        return name
    }

    /// Reads the `{` or `,` before a member: false after `}`.
    private mutating func startMember(_ first: inout Bool) throws(CookieFileError) -> Bool {
        if first {
            try expect(UInt8(ascii: "{"))
            first = false
            if peek() == UInt8(ascii: "}") {
                index += 1
                return false
            }
        } else {
            switch peek() {
            case UInt8(ascii: "}"):
                index += 1
                return false
            case UInt8(ascii: ","): index += 1
            default: throw syntax("expected \",\" or \"}\" in an object")
            }
        }
        guard peek() == UInt8(ascii: "\"") else { throw syntax("expected a member name") }
        return true
    }

    /// Reads `[` (on the first call) or the `,` before the next element; false after `]`.
    mutating func nextElement(_ first: inout Bool) throws(CookieFileError) -> Bool {
        if first {
            try expect(UInt8(ascii: "["))
            first = false
            if peek() == UInt8(ascii: "]") {
                index += 1
                return false
            }
            return true
        }
        switch peek() {
        case UInt8(ascii: "]"):
            index += 1
            return false
        case UInt8(ascii: ","):
            index += 1
            return true
        default: throw syntax("expected \",\" or \"]\" in an array")
        }
    }

    // MARK: Scalars

    /// True and consumes a `null` when one comes next.
    mutating func readNull() throws(CookieFileError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// A `true` or `false`; nil (nothing consumed) when another kind of value comes next.
    mutating func readBool() throws(CookieFileError) -> Bool? {
        switch peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default: return nil
        }
    }

    /// Consumes `word` (`null`, `true` or `false`): its first four bytes compared as one word.
    @inline(__always)
    private mutating func literal(_ word: StaticString) throws(CookieFileError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, let base = bytes.baseAddress,
            UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self)
                == UnsafeRawPointer(word.utf8Start).loadUnaligned(as: UInt32.self),
            count == 4 || bytes[index + 4] == word.utf8Start[4]
        else { throw syntax("invalid literal") }
        index += count
    }

    /// A number that is an integer (`-`? digits, no fraction or exponent) fitting Int64; nil (nothing
    /// consumed) when something else comes next.
    mutating func readInteger() throws(CookieFileError) -> Int64? {
        guard let byte = peek(), byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        else { return nil }
        let start = index
        try skipNumber()
        var negative = false
        var position = start
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var value: Int64 = 0
        while position < index {
            let byte = bytes[position]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                index = start
                return nil
            }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else {
                index = start
                return nil
            }
            value = next
            position += 1
        }
        return value
    }

    /// §6: number = [ minus ] int [ frac ] [ exp ]
    private mutating func skipNumber() throws(CookieFileError) {
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { throw syntax("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw syntax("invalid number") }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw syntax("invalid number") }
            while isDigit(index) { index += 1 }
        }
    }

    /// True when a string comes next.
    mutating func atString() -> Bool { peek() == UInt8(ascii: "\"") }

    /// Moves past the bytes that need no second look in a string (`jsonStringSpecialBytes`), eight at a
    /// time.
    @inline(__always)
    private mutating func skipPlainASCII() {
        index = bytes.firstIndex(from: index, markedBy: { $0.jsonStringSpecialBytes }) ?? max(index, bytes.count)
    }

    /// §7: a string (the next value must be one); escapes decoded, UTF-8 checked.
    mutating func readString() throws(CookieFileError) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        // Fastest path: ASCII without escapes, already checked.
        skipPlainASCII()
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
        }
        // Fast path: no escape.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let string = String(validatingUTF8Bytes: raw) else {
                    throw error(.invalidUTF8, "a string is not valid UTF-8", at: start)
                }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw syntax("a control character inside a string") }
            index += 1
        }
        return try readEscapedString(from: start)
    }

    /// A string (the next value must be one) given to `match`: its bytes in place when it is ASCII
    /// without escapes (the usual case), else its decoded and checked UTF-8, as `readString` reads it.
    mutating func readString<Result>(matching match: (UnsafeBufferPointer<UInt8>) -> Result) throws(CookieFileError) -> Result {
        _ = peek()
        let quote = index
        try expect(UInt8(ascii: "\""))
        let start = index
        skipPlainASCII()
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return match(UnsafeBufferPointer(rebasing: bytes[start..<index - 1]))
        }
        index = quote
        var string = try readString()
        return string.withUTF8(match)
    }

    /// Skips a string, checking its syntax (escapes, no control characters) but not building it; its
    /// UTF-8 is checked when it is read.
    private mutating func skipString() throws(CookieFileError) {
        try expect(UInt8(ascii: "\""))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                _ = try readEscapedString(from: index)  // rare: decode the rest
                return
            }
            guard byte >= 0x20 else { throw syntax("a control character inside a string") }
            index += 1
        }
        throw syntax("unexpected end of input inside a string")
    }

    @inline(never)
    private mutating func readEscapedString(from start: Int) throws(CookieFileError) -> String {
        var decoded = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = decoded.withUnsafeBufferPointer({ String(validatingUTF8Bytes: $0) }) else {
                    throw error(.invalidUTF8, "a string is not valid UTF-8", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                let escapeStart = index - 1
                func invalid(_ reason: String) -> CookieFileError { error(.jsonSyntax, reason, at: escapeStart) }
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw invalid("an unpaired surrogate escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw invalid("an unpaired surrogate escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw invalid("an unpaired surrogate escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw invalid("an invalid \\u escape") }
                    decoded.append(contentsOf: UTF8.encode(unicode)!)
                default: throw invalid("an invalid escape")
                }
            default:
                guard byte >= 0x20 else { throw syntax("a control character inside a string") }
                decoded.append(byte)
            }
        }
        throw syntax("unexpected end of input inside a string")
    }

    private mutating func hex4() throws(CookieFileError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw syntax("an invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("an invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Skips one value of any kind, checking its syntax.
    mutating func skipValue(depth: Int = 0) throws(CookieFileError) {
        guard depth < Self.maximumDepth else { throw syntax("nested deeper than \(Self.maximumDepth) levels") }
        switch peek() {
        case UInt8(ascii: "{"):
            var first = true
            while try nextMember(&first) != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            var first = true
            while try nextElement(&first) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"): _ = try readNull()
        case nil: throw syntax("unexpected end of input")
        default: try skipNumber()
        }
    }

    /// Moves to `position` (one seen before), to read a value again.
    mutating func seek(to position: Int) {
        index = position
    }
}
