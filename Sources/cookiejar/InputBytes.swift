import Cookies
import Foundation

/// Whole inputs the tool reads itself (standard input, scenario and ratchet files), through the library's
/// `FileBytes` (`read(2)`): a read that fails is an `InputError` naming the input and why, never a crash
/// (Foundation's `FileHandle.readDataToEndOfFile()` traps on a read error, a directory or a closed
/// descriptor).
enum InputBytes {
    /// The most the tool reads of one input: as much as of a cookie file (`CookieImportFile.maximumSize`,
    /// 256 MiB), far beyond any scenario file or response headers; an endless pipe (a response body
    /// streamed by `curl -i`) ends in an error, not in all of the machine's memory.
    static let limit = CookieImportFile.maximumSize

    /// All of standard input.
    static func standardInput() throws(InputError) -> [UInt8] {
        do {
            return try FileBytes.contents(ofDescriptor: STDIN_FILENO, limit: limit)
        } catch {
            throw InputError(description: "standard input: cannot read it: \(explanation(of: error))")
        }
    }

    /// Why a read failed, the limit named.
    private static func explanation(of failure: FileBytes.Failure) -> String {
        failure.isOverLimit ? "it is larger than \(limit >> 20) MiB" : failure.explanation
    }

    /// The file argument that stands for standard input, as in most tools.
    static let standardInputArgument = "-"

    /// All of the file at `path`; "-" is standard input.
    static func file(_ path: String) throws(InputError) -> [UInt8] {
        if path == standardInputArgument { return try standardInput() }
        do {
            return try FileBytes.contents(atPath: path, limit: limit)
        } catch {
            throw InputError(description: "\(path): cannot read the file: \(explanation(of: error))")
        }
    }
}
