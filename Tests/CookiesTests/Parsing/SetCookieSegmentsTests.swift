import Testing
@testable import Cookies

/// `SetCookieSegments`, the split of rfc6265bis-22 §5.6 (steps 1-3, attribute steps 1-4), against a
/// byte-at-a-time split written from those steps, on lines of every length up to seven words, with the
/// byte that matters at every position: it reads whole words, then the last word overlapping the one
/// before it (or, in a line shorter than a word, one byte at a time), and each way must find every stop
/// once and in order.
struct SetCookieSegmentsTests {
    /// The parts of `line` split at ";", each with its first "=" (its end when none); nil when a CTL
    /// other than HTAB comes before the end of the part holding it, with the parts before it.
    static func oracle(_ line: [UInt8]) -> (parts: [SetCookieSegments.Segment], failed: Bool) {
        var parts: [SetCookieSegments.Segment] = []
        var start = 0
        var equals = -1
        for (index, byte) in line.enumerated() {
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F { return (parts, true) }
            if byte == UInt8(ascii: "="), equals < 0 { equals = index }
            if byte == UInt8(ascii: ";") {
                parts.append(.init(start: start, end: index, equals: equals < 0 ? index : equals))
                start = index + 1
                equals = -1
            }
        }
        parts.append(.init(start: start, end: line.count, equals: equals < 0 ? line.count : equals))
        return (parts, false)
    }

    static func split(_ line: [UInt8]) -> (parts: [SetCookieSegments.Segment], failed: Bool, isASCII: Bool) {
        line.withUnsafeBufferPointer { bytes in
            var segments = SetCookieSegments(bytes)
            var parts: [SetCookieSegments.Segment] = []
            do {
                parts.append(try segments.nameValuePair())
                while let part = try segments.nextCookieAV() { parts.append(part) }
            } catch {
                return (parts, true, false)
            }
            return (parts, false, segments.isASCII)
        }
    }

    @Test(arguments: 0...56)
    func everyStopAtEveryPosition(length: Int) {
        // Plain bytes with a ";" and an "=" at fixed places, so that the parts around the tested byte vary.
        var plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        if length > 5 { plain[5] = UInt8(ascii: "=") }
        if length > 19 { plain[19] = UInt8(ascii: ";") }
        for position in -1..<length {
            for byte: UInt8 in [UInt8(ascii: ";"), UInt8(ascii: "="), 0x09, 0x01, 0x7F, 0x80, 0xE9] {
                var line = plain
                if position >= 0 { line[position] = byte }
                let expected = Self.oracle(line)
                let found = Self.split(line)
                #expect(found.parts.map(\.start) == expected.parts.map(\.start), "byte \(byte) at \(position)")
                #expect(found.parts.map(\.end) == expected.parts.map(\.end), "byte \(byte) at \(position)")
                #expect(found.parts.map(\.equals) == expected.parts.map(\.equals), "byte \(byte) at \(position)")
                #expect(found.failed == expected.failed, "byte \(byte) at \(position)")
                if !found.failed {
                    #expect(found.isASCII == line.allSatisfy { $0 < 0x80 }, "byte \(byte) at \(position)")
                }
            }
        }
    }
}
