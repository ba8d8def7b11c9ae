import Foundation
import Testing

@testable import Cookies

/// Runs the built `cookiejar` binary as a sub-process, as a person would.
struct ToolRun {
    var stdout: String
    var stderr: String
    var status: Int32

    /// Stdout, stderr and the exit status in one text, as the golden files hold them.
    var transcript: String {
        var text = stdout
        if !stderr.isEmpty { text += "--- stderr ---\n" + stderr }
        return text + "--- exit \(status) ---\n"
    }
}

enum Tool {
    /// The `cookiejar` binary built next to this test bundle.
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // The test binary may sit inside a bundle directory (…xctest/Contents/MacOS) on some platforms.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("cookiejar").path),
            directory.pathComponents.count > 1
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("cookiejar")
    }()

    /// The package's root folder, for sample and golden files.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A copy of the sample jar (`Tests/Samples/app-jar.sqlite`) at `path`, changed by the SQL `statements`
    /// (a jar's rows are held to the length limits only: any text loads).
    static func sampleJar(at path: String, changedBy statements: [String]) throws -> String {
        try FileManager.default.copyItem(atPath: packageRoot.appendingPathComponent("Tests/Samples/app-jar.sqlite").path, toPath: path)
        let connection = try SQLiteConnection(path: path, flags: [.readWrite])
        for statement in statements { try connection.execute(statement) }
        return path
    }

    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> ToolRun {
        try run(arguments, stdinBytes: stdin.map { Data($0.utf8) }, environment: environment)
    }

    /// `run(_:stdin:environment:)` with standard input given as bytes (a binary file piped in), and
    /// standard output written to `stdoutPath` instead of read (`stdout` is then empty), when given.
    /// `shellWords`: words `/bin/sh` reads after the arguments before it runs the tool in its place:
    /// redirections of the tool's descriptors (`"< /tmp"`, `"<&-"`, `">> jar.json"`, overriding the pipes
    /// given), or arguments no String holds (bytes that are not UTF-8, written with `printf`).
    /// `descriptorLimit`: how many file descriptors the tool may have open (`ulimit -n`), when given.
    /// `obeyingFilePermissions`: for a test running as root, the tool runs through `setpriv` without the
    /// capabilities that let root read and write any file (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), so
    /// that a file's permissions apply to it as to any user (nothing changes for another user).
    static func run(
        _ arguments: [String], stdinBytes: Data?, environment: [String: String] = [:], stdoutPath: String? = nil,
        shellWords: String? = nil, descriptorLimit: Int? = nil, obeyingFilePermissions: Bool = false
    ) throws -> ToolRun {
        let process = Process()
        if shellWords != nil || descriptorLimit != nil {
            let limit = descriptorLimit.map { "ulimit -n \($0); " } ?? ""
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", limit + "exec \"$0\" \"$@\" " + (shellWords ?? ""), executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        if obeyingFilePermissions, getuid() == 0, let command = process.executableURL {
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--bounding-set=-dac_override,-dac_read_search", "--", command.path] + (process.arguments ?? [])
        }
        process.currentDirectoryURL = packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        if let stdoutPath {
            guard let file = FileHandle(forWritingAtPath: stdoutPath) else { throw CocoaError(.fileWriteUnknown) }
            process.standardOutput = file
            try output.fileHandleForWriting.close()
        } else {
            process.standardOutput = output
        }
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdinBytes { input.fileHandleForWriting.write(stdinBytes) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ToolRun(
            stdout: String(decoding: outputData, as: UTF8.self), stderr: String(decoding: errorData, as: UTF8.self),
            status: process.terminationStatus)
    }

    /// util-linux's `setpriv`, which runs a command with fewer privileges.
    static let setpriv = "/usr/bin/setpriv"

    /// True when file permissions apply to the tool (`run(_:stdinBytes:obeyingFilePermissions:)`): for
    /// another user than root, or as root with `setpriv` allowed to drop capabilities (tried once, with
    /// `--help`).
    static let canObeyFilePermissions: Bool = {
        guard getuid() == 0 else { return true }
        guard FileManager.default.isExecutableFile(atPath: setpriv) else { return false }
        return (try? run(["--help"], stdinBytes: nil, obeyingFilePermissions: true).status) == 0
    }()

    /// `run(_:)` with standard output a terminal (a Linux pseudo-terminal this process opens through
    /// `/dev/ptmx`, as a terminal emulator does): `stdout` holds the bytes the terminal received (its line
    /// discipline writes each line feed as CR LF), stderr is a pipe as in `run(_:)`.
    static func runOnATerminal(_ arguments: [String]) throws -> ToolRun {
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard controller >= 0 else { throw POSIXError(.ENOTTY) }
        defer { close(controller) }
        // Linux's TIOCSPTLCK (unlock the device, as unlockpt) and TIOCGPTN (its number, as ptsname).
        var unlock: CInt = 0
        var number: CUnsignedInt = 0
        guard ioctl(controller, 0x4004_5431, &unlock) == 0, ioctl(controller, 0x8004_5430, &number) == 0 else {
            throw POSIXError(.ENOTTY)
        }
        let device = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard device >= 0 else { throw POSIXError(.ENOTTY) }
        let terminal = FileHandle(fileDescriptor: device, closeOnDealloc: true)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        process.environment = env
        let errors = Pipe()
        process.standardOutput = terminal
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        // The terminal is read while the tool writes (its buffer is small), until the last descriptor of
        // its device is closed (EIO).
        nonisolated(unsafe) var received = Data()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(controller, &buffer, buffer.count)
                if count <= 0 { break }
                received.append(contentsOf: buffer[..<count])
            }
        }
        try process.run()
        reader.start()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try terminal.close()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        return ToolRun(
            stdout: String(decoding: received, as: UTF8.self), stderr: String(decoding: errorData, as: UTF8.self),
            status: process.terminationStatus)
    }

    /// Compares a run with `Golden/<name>.txt`; `COOKIEJAR_UPDATE_GOLDEN=1 swift test --filter cookiejarTests`
    /// rewrites the golden files instead.
    static func expectGolden(_ run: ToolRun, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectGolden(transcript: run.transcript, name, sourceLocation: sourceLocation)
    }

    /// Compares the transcripts of `runs`, one after the other, with `Golden/<name>.txt`, each occurrence of
    /// `directory` written `$TMP` (a temporary directory's name changes from run to run).
    static func expectGolden(
        _ runs: [ToolRun], _ name: String, maskingDirectory directory: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let transcript = runs.map(\.transcript).joined().replacingOccurrences(of: directory, with: "$TMP")
        try expectGolden(transcript: transcript, name, sourceLocation: sourceLocation)
    }

    private static func expectGolden(transcript: String, _ name: String, sourceLocation: SourceLocation) throws {
        let file = packageRoot.appendingPathComponent("Tests/cookiejarTests/Golden/\(name).txt")
        if ProcessInfo.processInfo.environment["COOKIEJAR_UPDATE_GOLDEN"] == "1" {
            try transcript.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: file, encoding: .utf8)
        #expect(transcript == golden, "differs from Golden/\(name).txt", sourceLocation: sourceLocation)
    }
}
