import Foundation
import Synchronization

/// The tool's standard output: every byte written to it goes through `write(_:)` (or `print(_:)`, which
/// uses it), and the command ends with `finish()`, so that output lost to a full disk, a closed descriptor
/// or a closed pipe is never an exit code 0.
enum StandardOutput {
    /// The `errno` of the first write that failed, 0 while none did.
    private static let firstFailure = Atomic<Int32>(0)

    /// Writes `bytes` (`writeAll`). After a failed write the output is lost: false, and the failure is
    /// kept for `finish()`.
    @discardableResult
    static func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard firstFailure.load(ordering: .relaxed) == 0 else { return false }
        let failure = writeAll(bytes, to: STDOUT_FILENO)
        guard failure == 0 else {
            firstFailure.store(failure, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Writes `text` and `terminator` (`write(_:)`): the tool's `print`, which buffers nothing, so that
    /// a lost line is known.
    static func print(_ text: String = "", terminator: String = "\n") {
        var line = text + terminator
        _ = line.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Prints `text` and a line feed (`write(_:)`), its control characters shown as escapes
    /// (`OutputText.appendShowingControls`): for a line that quotes a file or a server.
    static func printShowingControls(_ text: String) {
        var line = OutputText()
        line.appendShowingControls(text)
        line.append(UInt8(ascii: "\n"))
        line.writeToStandardOutput()
    }

    /// When some output was lost, says so on standard error (but for a closed pipe, whose reader wanted no
    /// more) and exits with 4.
    static func finish() {
        let reason = firstFailure.load(ordering: .relaxed)
        guard reason != 0 else { return }
        if reason != EPIPE {
            FileHandle.standardError.write(Data("cookiejar: cannot write to standard output: \(String(cString: strerror(reason)))\n".utf8))
        }
        Foundation.exit(ToolExit.unwritableOutput.rawValue)
    }
}
