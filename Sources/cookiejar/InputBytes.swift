import Cookies
import Foundation

/// Whole inputs the tool reads itself (standard input, scenario and ratchet files), through the library's
/// `FileBytes` (`read(2)`): a read that fails is an `InputError` naming the input and why, never a crash
/// (Foundation's `FileHandle.readDataToEndOfFile()` traps on a read error, a directory or a closed
/// descriptor).
enum InputBytes {
    /// All of standard input.
    static func standardInput() throws(InputError) -> [UInt8] {
        do {
            return try FileBytes.contents(ofDescriptor: STDIN_FILENO, limit: .max)
        } catch {
            throw InputError(description: "standard input: cannot read it: \(error.explanation)")
        }
    }

    /// The file argument that stands for standard input, as in most tools.
    static let standardInputArgument = "-"

    /// All of the file at `path`; "-" is standard input.
    static func file(_ path: String) throws(InputError) -> [UInt8] {
        if path == standardInputArgument { return try standardInput() }
        do {
            return try FileBytes.contents(atPath: path, limit: .max)
        } catch {
            throw InputError(description: "\(path): cannot read the file: \(error.explanation)")
        }
    }
}
