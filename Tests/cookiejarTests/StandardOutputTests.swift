import Foundation
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
}
