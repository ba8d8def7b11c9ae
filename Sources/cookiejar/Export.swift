import ArgumentParser
import Cookies
import Foundation

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the cookies of a jar file as cookies.txt or JSON.",
        discussion: """
            The jar may be any format the library reads. Expired cookies are left out, and counted on \
            stderr (--at evaluates at another instant). cookies.txt \
            cannot hold SameSite, partition keys or creation times: partitioned cookies are left out \
            (read back, each would be sent under every top-level site), and said on stderr; JSON is \
            lossless. The jar itself is refused as the output, --output or standard output (written \
            to with '>>', or emptied by '>'). JSON escapes a cookie's control and bidirectional \
            formatting characters (\\u009b); cookies.txt cannot, and is not written to a terminal when a \
            cookie holds one (exit 1: --output, a redirection or --format json).

            Examples:
              cookiejar export jar.sqlite --format cookies.txt > cookies.txt
              curl -b cookies.txt https://example.com/
              cookiejar export jar.sqlite --format json --output backup.json

            Exit status: 0 all well, 1 a cookie cannot be written in that format (or to the \
            terminal), 2 usage, \
            3 unreadable input, 4 the output (a file, or standard output) cannot be written.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case cookiesTxt = "cookies.txt"
        case json
    }

    @Argument(help: "The jar file ('-': standard input).", completion: .file())
    var jar: String

    @Option(help: "cookies.txt or json.")
    var format: Format

    @Option(help: "Write to this file instead of standard output.", completion: .file())
    var output: String?

    @Option(help: InstantArgument.help("Evaluate expiry at this instant instead of now:"))
    var at: InstantArgument?

    func validate() throws {
        // "-" is standard input for every file argument of the tool; as --output it made a file named "-".
        if output == InputBytes.standardInputArgument {
            throw ValidationError("--output -: standard output is the default: leave --output out to write there")
        }
        // Written whole before the jar is read again, the output would be the only copy of its cookies: a
        // jar file turned into JSON, its expired cookies gone. Standard output redirected to the jar is the
        // output too: a shell's `>>` would append to the jar, and its `>` has emptied it already (read, it
        // gave no cookies, and the header written was all the file then held, exit 0). A jar read from
        // standard input ("-") is the file open there: `< jar.json > jar.json` empties it as well.
        let isStandardInput = jar == InputBytes.standardInputArgument
        let found = isStandardInput ? CookieFileSystem.state(ofDescriptor: STDIN_FILENO) : CookieFileSystem.state(jar)
        guard let jarFile = found else { return }
        if let output {
            if CookieFileSystem.identity(output) == jarFile.identity {
                throw ValidationError("--output \(output) is the jar being exported: write to another file")
            }
        } else if CookieFileSystem.identity(ofDescriptor: STDOUT_FILENO) == jarFile.identity {
            let emptied = jarFile.isEmptyRegularFile ? " (it is empty: a shell's '>' empties its file before the command runs)" : ""
            let name = isStandardInput ? "standard input" : jar
            throw ValidationError("standard output is the jar being exported, \(name): write to another file\(emptied)")
        }
    }

    /// Whether the export goes to a terminal: standard output while it is one, or an `--output` that names
    /// one (`/dev/stdout` then, `/dev/tty`, a `/dev/pts/` device). Only a character device is opened to be
    /// asked (never a named pipe, whose reader would see the end of its input at the close), and without
    /// changing it (no `O_CREAT`, no `O_TRUNC`).
    private var writesToATerminal: Bool {
        guard let output else { return Terminal.standardOutput.isTerminal }
        var status = stat()
        guard stat(output, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else { return false }
        let descriptor = open(output, O_WRONLY | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return isatty(descriptor) == 1
    }

    func run() throws {
        let now = clock(at: at).now()
        let held = try readCookieFile(jar, now: now).cookies
        let cookies = held.unexpired(at: now)
        if held.count > cookies.count {
            let count = held.count - cookies.count
            printError("\(count) cookie\(count == 1 ? "" : "s") left out, expired by \(TimeFormatting.date(now)) (--at evaluates at another instant)")
        }
        let text: Data
        switch format {
        case .json:
            text = Data(CookieJSON.serializedBytes(cookies))
        case .cookiesTxt:
            let serialized: (text: String, leftOut: [CookieFileContents.LeftOut])
            do {
                serialized = try CookiesTxt.serialize(cookies)
            } catch {
                // The error's detail: its description names no file (`<input>`), the cookies being in memory.
                printError("\(jar): \(error.detail)")
                throw ToolExit.checksFailed
            }
            // cookies.txt has no escapes: a cookie's control or bidirectional formatting characters (a
            // server's CSI U+009B, a U+202E) are written raw, which a file keeps as they are but a terminal
            // would obey. To a terminal the export is refused, rather than escaped into a file no reader
            // would load as it shows.
            if writesToATerminal {
                let count = Self.linesATerminalWouldObey(serialized.text)
                if count > 0 {
                    printError(
                        "\(count) cookie\(count == 1 ? " holds" : "s hold") control or bidirectional formatting characters, which cookies.txt cannot escape: not written to the terminal (write it with --output FILE or a redirection, or show it with --format json, which escapes them)")
                    throw ToolExit.checksFailed
                }
            }
            text = Data(serialized.text.utf8)
            // What the format drops is said, not left to be found out: partitioned cookies are left out (read
            // back from cookies.txt, each would be sent under every top-level site), SameSite is lost.
            for leftOut in serialized.leftOut {
                printError("\(leftOut) (--format json keeps \(leftOut.count == 1 ? "it" : "them"))")
            }
            let sameSite = cookies.count { $0.sameSite != .default && $0.partitionKey == nil }
            if sameSite > 0 {
                printError("\(sameSite) cookie\(sameSite == 1 ? "" : "s") lose\(sameSite == 1 ? "s" : "") SameSite in cookies.txt (--format json keeps it)")
            }
        }
        guard let output else {
            _ = text.withUnsafeBytes { StandardOutput.write($0) }
            return
        }
        // Cookie files hold credentials: readable by their owner only, from the first byte.
        do {
            try PrivateFile.replace(output, with: text)
        } catch {
            printError(error.description)
            throw ToolExit.unwritableOutput
        }
    }

    /// How many lines of the cookies.txt `text` hold a character a terminal would obey
    /// (`TerminalControlCharacter`), the tab that ends each field aside.
    static func linesATerminalWouldObey(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var count = 0
            var lineCounted = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A {
                    lineCounted = false
                } else if byte != 0x09, !lineCounted, TerminalControlCharacter.mayStart(byte),
                          TerminalControlCharacter.at(index, in: bytes) != nil {
                    count += 1
                    lineCounted = true
                }
                index += 1
            }
            return count
        }
    }
}
