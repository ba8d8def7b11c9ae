import Foundation
import TestSupport
import Testing

/// Where `export --output` writes: a regular file is replaced whole (`PrivateFile`); what is not a regular
/// file is written to as it is, never replaced by a file (a device, a pipe); a directory, and the jar being
/// exported itself, are refused. This project's contract (the tool's README section, `export --help`).
struct ExportOutputTests {
    let directory = TemporaryDirectory()
    static let jar = "Tests/Samples/app-jar.sqlite"

    /// The kind of file at `path` (`stat`, following links), its mode bits of type.
    func fileType(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    // The special files are made in the test's own directory, never /dev's: were the tool to replace them
    // again, it would replace those, not the machine's.

    /// A link to the tool's own standard output (`/proc/self/fd/1`, as `/dev/stdout` is): the JSON arrives
    /// there, and the link stays a link (renamed over, it became a file holding the cookies, the output lost).
    #if os(Linux)
    @Test func aLinkToStandardOutputGetsTheOutput() throws {
        let link = directory.file("stdout")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        let run = try Tool.run(["export", Self.jar, "--format", "json", "--output", link])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("{\n  \"format\": \"swift-cookiejar\""))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/proc/self/fd/1")
    }
    #endif

    /// Standard output redirected to a file, named as the output (through a link to `/proc/self/fd/1`, as
    /// `/dev/stdout` is): the bytes go to the descriptor, the file is not replaced by another (its inode
    /// stays, so a shell's `>>` keeps what it held).
    @Test func standardOutputRedirectedToAFileIsWrittenNotReplaced() throws {
        let file = directory.file("out.json")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let before = try #require(FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int)
        let link = directory.file("stdout")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        let run = try Tool.run(["export", Self.jar, "--format", "json", "--output", link], stdinBytes: nil, stdoutPath: file)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int == before)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("{\n  \"format\": \"swift-cookiejar\""))
    }

    /// What another user put where the output goes, in a shared directory such as /tmp, is not written
    /// through: a symbolic link of theirs (it would have a file of their choosing replaced, as Linux's
    /// protected_symlinks refuses) and a named pipe of theirs (its reader would get the cookies).
    @Test(.enabled(if: getuid() == 0, "giving a file to another user needs root"), arguments: ["link", "fifo"])
    func whatAnotherUserPutThereIsNotWrittenThrough(_ kind: String) throws {
        let path = directory.file("cookies.txt")
        let victim = directory.file("victim")
        #expect(FileManager.default.createFile(atPath: victim, contents: Data("kept".utf8)))
        if kind == "link" {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
            #expect(lchown(path, 65534, 65534) == 0)
        } else {
            #expect(mkfifo(path, 0o666) == 0)
            #expect(chown(path, 65534, 65534) == 0)
            // A reader, as the other user's would be: the open for writing does not wait.
            let reader = open(path, O_RDONLY | O_NONBLOCK)
            #expect(reader >= 0)
            defer { close(reader) }
            let run = try Tool.run(["export", Self.jar, "--format", "cookies.txt", "--output", path])
            #expect(run.status == 4)
            #expect(run.stderr.hasSuffix("cannot write the output file: a named pipe of another user, not written\n"), "\(run.stderr)")
            var byte: UInt8 = 0
            #expect(read(reader, &byte, 1) <= 0, "nothing reached the reader")
            return
        }
        let run = try Tool.run(["export", Self.jar, "--format", "cookies.txt", "--output", path])
        #expect(run.status == 4)
        #expect(run.stderr.hasSuffix("is a symbolic link of another user, not followed\n"), "\(run.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "kept")
    }

    /// A named pipe's reader gets the bytes; the pipe stays a pipe.
    @Test(.timeLimit(.minutes(1))) func aNamedPipeGetsTheOutput() throws {
        let fifo = directory.file("out.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        nonisolated(unsafe) var received = Data()
        let reader = Thread { received = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data() }
        reader.start()
        let run = try Tool.run(["export", Self.jar, "--format", "cookies.txt", "--output", fifo])
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("# Netscape HTTP Cookie File"))
        #expect(fileType(fifo) == S_IFIFO)
    }

    /// A symbolic link whose target does not exist yet stays a link, and the file is created where it
    /// points, as for a link to an existing file (`export --help`, `PrivateFile.replace`: a link's target
    /// is replaced): the links given as (path, destination) under the test's directory, `TMP` standing for
    /// it, a relative destination read against the link's own directory (POSIX symlink resolution), the
    /// output given as the first link. Renamed over, the first link became a file and the target was
    /// never made.
    @Test(arguments: [
        ([("dangling.json", "TMP/real/target.json")], "absolute, dangling"),
        ([("dangling.json", "real/target.json")], "relative, dangling"),
        ([("first.json", "sub/second.json"), ("sub/second.json", "../real/target.json")], "a chain of two, the last dangling"),
    ])
    func aDanglingLinkStaysALinkAndItsTargetIsCreated(_ links: [(path: String, destination: String)], _ source: String) throws {
        try FileManager.default.createDirectory(atPath: directory.file("real"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.file("sub"), withIntermediateDirectories: true)
        for link in links {
            try FileManager.default.createSymbolicLink(
                atPath: directory.file(link.path), withDestinationPath: link.destination.replacingOccurrences(of: "TMP", with: directory.path))
        }
        let run = try Tool.run(["export", Self.jar, "--format", "json", "--output", directory.file(links[0].path)])
        #expect(run.status == 0, "\(source): \(run.stderr)")
        let expected = try Tool.run(["export", Self.jar, "--format", "json"]).stdout
        for link in links {
            #expect(
                (try? FileManager.default.destinationOfSymbolicLink(atPath: directory.file(link.path)))
                    == link.destination.replacingOccurrences(of: "TMP", with: directory.path), "\(source): \(link.path) is still the link")
        }
        let target = directory.file("real/target.json")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == expected, "\(source)")
        var status = stat()
        #expect(lstat(target, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_mode & 0o777 == 0o600, "\(source)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("real")) == ["target.json"], "\(source): no temporary file left")
    }

    /// A device that refuses the output (a node of the full device, 1:7, whose writes fail with ENOSPC as
    /// on a full disk) exits with 4 and says why, and stays a device.
    @Test(.enabled(if: getuid() == 0, "making a device node needs root"))
    func aDeviceThatRefusesTheOutputExitsWithFour() throws {
        let full = directory.file("full")
        #expect(mknod(full, S_IFCHR | 0o600, dev_t(1 << 8 | 7)) == 0)
        let run = try Tool.run(["export", Self.jar, "--format", "json", "--output", full])
        #expect(run.status == 4)
        #expect(run.stderr == "cookiejar: \(full): cannot write the output file: No space left on device\n")
        #expect(fileType(full) == S_IFCHR)
    }

    /// "-" stands for standard input in every file argument of the tool, so `--output -` is a usage error
    /// saying that standard output is the default, where it wrote a file named "-".
    @Test func dashAsTheOutputIsRefused() throws {
        let dash = Tool.packageRoot.appendingPathComponent("-").path
        defer { try? FileManager.default.removeItem(atPath: dash) }
        let run = try Tool.run(["export", Self.jar, "--format", "json", "--output", "-"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("Error: --output -: standard output is the default: leave --output out to write there\n"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dash))
    }

    /// A directory cannot take the output: exit 4, and it stays a directory.
    @Test func aDirectoryIsRefused() throws {
        let run = try Tool.run(["export", Self.jar, "--format", "json", "--output", directory.path])
        #expect(run.status == 4)
        #expect(run.stderr == "cookiejar: \(directory.path): cannot write the output file: Is a directory\n")
        #expect(fileType(directory.path) == S_IFDIR)
    }

    /// Standard output redirected to the jar being exported is refused as `--output` naming it is (exit
    /// 2, nothing written): with `>>` the export was appended to the jar, and with `>`, which empties the
    /// file before the tool runs, the tool read no cookies and wrote a header of none over them, exit 0
    /// and no word (this project's contract: nothing is lost without a word). The jar read as "-" from
    /// standard input, the file redirected there, is the same jar: `< jar >> jar` appended to it too.
    @Test(arguments: [
        (">>", "app-jar.json", false), (">>", "app-jar.sqlite", false), (">", "app-jar.json", false),
        (">>", "app-jar.json", true), (">>", "app-jar.sqlite", true), (">", "app-jar.json", true),
    ])
    func standardOutputThatIsTheJarIsRefused(_ redirection: String, _ sample: String, _ viaStandardInput: Bool) throws {
        let jar = directory.file(sample)
        try FileManager.default.copyItem(atPath: Tool.packageRoot.appendingPathComponent("Tests/Samples/\(sample)").path, toPath: jar)
        let before = redirection == ">" ? Data() : try Data(contentsOf: URL(fileURLWithPath: jar))
        let run = try Tool.run(
            ["export", viaStandardInput ? "-" : jar, "--format", "cookies.txt"], stdinBytes: nil,
            shellWords: (viaStandardInput ? "< '\(jar)' " : "") + "\(redirection) '\(jar)'")
        #expect(run.status == 2, "\(redirection) \(sample) \(viaStandardInput)")
        let emptied = redirection == ">" ? " (it is empty: a shell's '>' empties its file before the command runs)" : ""
        let name = viaStandardInput ? "standard input" : jar
        #expect(run.stderr.hasPrefix("Error: standard output is the jar being exported, \(name): write to another file\(emptied)\n"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: jar)) == before, "\(redirection) \(sample) \(viaStandardInput)")
    }

    /// The jar being exported as the output (by its own path, or through a link) is refused as a usage
    /// error: written first, the JSON would have been the only copy of its cookies.
    @Test func theJarItselfIsRefusedAsTheOutput() throws {
        let jar = directory.file("jar.sqlite")
        try FileManager.default.copyItem(atPath: Tool.packageRoot.appendingPathComponent(Self.jar).path, toPath: jar)
        let link = directory.file("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: jar)
        let before = try Data(contentsOf: URL(fileURLWithPath: jar))
        for output in [jar, link] {
            let run = try Tool.run(["export", jar, "--format", "json", "--output", output])
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix("Error: --output \(output) is the jar being exported"), "\(run.stderr)")
        }
        // Read as "-", the jar is the file open on standard input.
        for output in [jar, link] {
            let run = try Tool.run(
                ["export", "-", "--format", "json", "--output", output], stdinBytes: nil, shellWords: "< '\(jar)'")
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix("Error: --output \(output) is the jar being exported"), "\(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: jar)) == before)
    }
}
