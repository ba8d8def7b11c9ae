import Foundation
import TestSupport
import Testing

/// Output the tool could not write is never a success: every command that writes to standard output,
/// run with it on `/dev/full` (each write fails with ENOSPC, as on a full disk), exits with 4 and says
/// why on standard error, once; none crashes.
struct StandardOutputTests {
    static let commands: [[String]] = [
        ["inspect", "Tests/Samples/app-jar.sqlite"],
        ["inspect", "Tests/Samples/app-jar.sqlite", "--json"],
        ["inspect", "Tests/Samples/app-jar.sqlite", "--url", "https://app.example.com/"],
        ["export", "Tests/Samples/app-jar.sqlite", "--format", "json"],
        ["export", "Tests/Samples/app-jar.sqlite", "--format", "cookies.txt"],
        ["explain", "--url", "https://app.example.com/", "sid=1; Secure; Path=/"],
        ["psl", "www.example.co.uk"],
        ["replay", "--check", "Tests/Samples/native-sign-in.json"],
        // ArgumentParser prints these itself, without looking at the write.
        ["--help"],
        ["export", "--help"],
        ["--generate-completion-script", "bash"],
    ]

    @Test(arguments: commands)
    func lostOutputExitsWithFour(_ arguments: [String]) throws {
        let run = try Tool.run(arguments, stdinBytes: nil, stdoutPath: "/dev/full")
        #expect(run.status == 4, "\(arguments)")
        #expect(run.stderr.hasSuffix("cookiejar: cannot write to standard output: No space left on device\n"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "cannot write to standard output").count == 2, "said once")
    }

    /// A reader that closes the pipe early (`| head -1`) loses the rest of the output: exit 4 as the help
    /// says, without a word (the reader wanted no more), where SIGPIPE killed the tool (status 141).
    @Test func aPipeClosedByItsReaderExitsWithFourSilently() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("many.txt")
        // 20,000 lines of output, far more than a pipe holds.
        let lines = (0..<20_000).map { ".example.com\tTRUE\t/\tFALSE\t0\tn\($0)\tv\n" }.joined()
        try lines.write(toFile: file, atomically: false, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "\"$0\" inspect \"$1\" | head -c 10 > /dev/null; echo \"${PIPESTATUS[0]}\"", Tool.executable.path, file]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(status == "4\n")
        #expect(stderr.isEmpty, "\(stderr)")
    }
}
