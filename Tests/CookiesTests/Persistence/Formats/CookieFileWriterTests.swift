import Testing

@testable import Cookies

/// A writer sized beforehand never writes past its buffer: a caller that counted too few bytes traps
/// at the first byte that does not fit, before writing it.
struct CookieFileWriterTests {
    @Test func writingPastTheCapacityTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = CookieFileWriter.bytes(capacity: 2) { $0.append("abc") }
        }
    }

    @Test func writingUpToTheCapacityFits() {
        let bytes = CookieFileWriter.bytes(capacity: 5) { writer in
            writer.append("ab")
            writer.appendTwoDigits(7)
            writer.append(UInt8(ascii: "!"))
        }
        #expect(bytes == Array("ab07!".utf8))
    }
}
