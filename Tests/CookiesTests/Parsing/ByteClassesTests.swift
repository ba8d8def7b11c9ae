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
}
