import Testing
@testable import Cookies

struct ByteClassesTests {
    /// Every byte at every position of a 19-byte line (two eight-byte words and three bytes after
    /// them, so both the word test and the byte loop see it): §5.6 step 1 rejects exactly the CTLs
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

    /// `containsByte` and `firstIndex(of:from:)` find ";" and "=" (the bytes `ImportedCookie.checkPair` looks for) at every position
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
}
