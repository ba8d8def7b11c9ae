import Foundation
import Testing

/// A running CrashWriter (Tests/CrashWriter) in a mode that waits for the word to start (`--share`,
/// `--open`): it says "ready", `go()` releases it, `finish()` waits for its end. Tests start several and
/// release them together.
struct CrashWriterProcess {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()

    /// Starts `CrashWriter arguments…`.
    init(_ arguments: [String]) throws {
        _ = Self.brokenPipesIgnored
        process.executableURL = URL(fileURLWithPath: try crashWriterPath())
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// A write to a writer that exited (`go()`) fails with EPIPE instead of ending the test process with
    /// SIGPIPE, so that the test reports what the writer said.
    private static let brokenPipesIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Waits until every one of `processes` says "ready"; when one exits first, records an issue with
    /// what each said on stderr and returns false.
    static func allReady(_ processes: [CrashWriterProcess], _ what: String) -> Bool {
        guard !processes.map({ $0.ready() }).allSatisfy({ $0 }) else { return true }
        for (number, process) in processes.enumerated() {
            process.process.terminate()
            let (_, errors, status) = process.finish()
            Issue.record("\(what) \(number) did not get ready (status \(status)): \(errors)")
        }
        return false
    }

    /// Waits until it says "ready" (false when it exits first).
    func ready() -> Bool {
        var text = ""
        while !text.split(separator: "\n").contains("ready") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        return text.hasSuffix("ready\n")
    }

    /// Releases it.
    func go() throws {
        try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
    }

    /// Waits for its end: what it printed after "ready", on stderr, and its exit status.
    func finish() -> (output: String, errors: String, status: Int32) {
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (printed, errorText, process.terminationStatus)
    }
}
