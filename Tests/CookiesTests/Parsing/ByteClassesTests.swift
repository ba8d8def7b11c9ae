import Testing
@testable import Cookies

struct ByteClassesTests {
    /// Every byte at every position of a 19-byte line (two eight-byte words and three bytes after
    /// them, so both the word test and the byte loop see it): the CTLs that make §5.6 step 1 reject a line (and an imported cookie) are exactly the CTLs
    /// other than HTAB (%x00-08 / %x0A-1F / %x7F, RFC 5234 Appendix B.1).
    @Test(arguments: 0...255)
    func forbiddenControlAtEveryPosition(_ value: Int) {
        let byte = UInt8(value)
        let isForbidden = (byte < 0x20 && byte != 0x09) || byte == 0x7F
        for position in 0..<19 {
            var line = [UInt8](repeating: UInt8(ascii: "a"), count: 19)
            line[position] = byte
            let found = line.withUnsafeBufferPointer { $0.containsForbiddenControl }
            #expect(found == isForbidden, "byte \(value) at \(position)")
        }
    }

    /// `memoryEqual` for every length from 0 to 20 (one, two and four-byte loads, whole words, an
    /// overlapping last word): equal bytes are equal, and a difference in any one bit of any byte is found,
    /// against `elementsEqual` as the oracle.
    @Test(arguments: 0...20)
    func memoryEqualFindsEveryDifference(count: Int) {
        let first = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var disagreements: [String] = []
        first.withUnsafeBufferPointer { a in
            for position in -1..<count {
                for bit in 0..<8 where position >= 0 || bit == 0 {
                    var second = first
                    if position >= 0 { second[position] ^= 1 << bit }
                    let equal = second.withUnsafeBufferPointer { b in memoryEqual(a.baseAddress ?? UnsafePointer(bitPattern: 1)!, b.baseAddress ?? UnsafePointer(bitPattern: 1)!, count) }
                    if equal != first.elementsEqual(second) { disagreements.append("bit \(bit) of byte \(position)") }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// i;ascii-casemap (RFC 4790 §9.2) for every pair of a byte and a byte that is not an upper-case
    /// letter: the or-0x20 comparison used for attribute names agrees with folding A–Z to a–z and
    /// comparing. The oracle is `asciiLowercased`, which folds exactly the bytes 0x41–0x5A.
    @Test(arguments: 0...255)
    func caseInsensitiveByteEquality(_ value: Int) {
        let byte = UInt8(value)
        var disagreements: [UInt8] = []
        for lowercase in UInt8(0)...UInt8(255) where !(0x41...0x5A).contains(lowercase) {
            if byte.caseInsensitivelyEquals(lowercase: lowercase) != (byte.asciiLowercased == lowercase) {
                disagreements.append(lowercase)
            }
        }
        #expect(disagreements.isEmpty, "byte \(value) against \(disagreements)")
    }

    /// `containsByte` and `firstIndex(of:from:)` find ";" and "=" (the bytes `ImportChecks.checkPair` looks for) at every position
    /// of a 19-byte line whose other bytes are every value but the one sought, so that a neighbour one
    /// above or below it (the borrows of the word test) never counts.
    @Test(arguments: [UInt8(ascii: ";"), UInt8(ascii: "=")])
    func containsByteAtEveryPosition(_ sought: UInt8) {
        for filler in 0...255 where UInt8(filler) != sought {
            var line = [UInt8](repeating: UInt8(filler), count: 19)
            #expect(!line.withUnsafeBufferPointer { $0.containsByte(sought) }, "filler \(filler)")
            for position in 0..<19 {
                line = [UInt8](repeating: UInt8(filler), count: 19)
                line[position] = sought
                #expect(line.withUnsafeBufferPointer { $0.containsByte(sought) }, "filler \(filler), at \(position)")
                let found = line.withUnsafeBufferPointer { buffer in (0...19).map { buffer.firstIndex(of: sought, from: $0) } }
                #expect(found == (0...19).map { $0 <= position ? position : nil }, "filler \(filler), at \(position)")
            }
        }
    }

    /// `asciiCaseFoldedWord(from:count:)` for every byte value at every position of buffers of 3, 8 and
    /// 19 bytes (read one byte at a time; as one word; and as one word, or the last eight bytes shifted),
    /// every `start` and every `count` from 0 to 8 that fit. The oracle assembles the bytes one by one,
    /// the first lowest, each or-ed with 0x20 (the or-0x20 folding of i;ascii-casemap, RFC 4790).
    @Test(arguments: 0...255)
    func asciiCaseFoldedWordAtEveryPosition(_ value: Int) {
        for length in [3, 8, 19] {
            for position in 0..<length {
                var line = (0..<length).map { UInt8(truncatingIfNeeded: 0x41 &+ $0 &* 37) }
                line[position] = UInt8(value)
                line.withUnsafeBufferPointer { buffer in
                    for start in 0...length {
                        for count in 0...min(8, length - start) {
                            var expected: UInt64 = 0
                            for index in 0..<count { expected |= UInt64(buffer[start + index] | 0x20) << (index * 8) }
                            let word = buffer.asciiCaseFoldedWord(from: start, count: count)
                            #expect(word == expected, "length \(length), byte \(value) at \(position), start \(start), count \(count)")
                        }
                    }
                }
            }
        }
    }
}
