import Testing
@testable import Cookies

struct ByteClassesTests {
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
}
