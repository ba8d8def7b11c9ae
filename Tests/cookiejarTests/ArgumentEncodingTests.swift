import Foundation
import TestSupport
import Testing

/// Arguments that are not UTF-8. ArgumentParser reads each argument as UTF-8, an ill-formed sequence
/// becoming U+FFFD, so `--output $'out\xe9.json'` wrote a file of another name and `--into $'j\xff.sqlite'`
/// made another jar. Such an argument is a usage error (exit 2): one line naming its position and its
/// bytes (escaped), and nothing written (this project's contract: any byte sequence is parsed or rejected
/// with a reason, never taken for another).
struct ArgumentEncodingTests {
    let directory = TemporaryDirectory()

    static let cases: [(arguments: [String], name: String, escaped: String, position: Int, source: String)] = [
        (["export", "Tests/Samples/app-jar.json", "--format", "json", "--output"], "out\\351.json", "out\\xE9.json", 6,
         "an --output path in Latin-1"),
        (["import", "Tests/Samples/app-jar.json", "--into"], "j\\377.sqlite", "j\\xFF.sqlite", 4, "an --into path with a byte no UTF-8 has"),
    ]

    @Test(arguments: cases.indices)
    func anArgumentThatIsNotUTF8IsAUsageError(_ index: Int) throws {
        let row = Self.cases[index]
        let run = try Tool.run(row.arguments, stdinBytes: nil, shellWords: "\"\(directory.path)/$(printf '\(row.name)')\"")
        #expect(run.status == 2, "\(row.source): \(run.stderr)")
        #expect(run.stderr.hasPrefix("cookiejar: argument \(row.position) is not UTF-8 (byte "), "\(row.source): \(run.stderr)")
        #expect(run.stderr.contains("\"\(directory.path)/\(row.escaped)\""), "\(row.source): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "\(row.source): nothing written")
    }

    /// UTF-8 arguments beyond ASCII are taken as they are.
    @Test func aUTF8ArgumentIsTakenAsItIs() throws {
        let output = directory.file("café.json")
        let run = try Tool.run(["export", "Tests/Samples/app-jar.json", "--format", "json", "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }
}
