// Writes a cookie jar in a loop until it is killed, for the kill test (CookiesTests/Persistence/
// KillTests.swift). Usage: CrashWriter <jar path>.
//
// Iteration i sets the 20 cookies k0…k19 to "v<i>-<k>-<padding>" (path /p<k>) and sets the cookie
// "odd" when i is odd or deletes it when i is even, flushes, and prints "acked <i>". It starts after
// the iteration the file holds, so the test can run it again on the same file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Cookies

/// Writes `line` to a file descriptor unbuffered, so that an "acked" line is out before the next step.
func say(_ line: String, to descriptor: Int32) {
    var line = line + "\n"
    line.withUTF8 { _ = write(descriptor, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 2, let origin = CookieURL("https://example.com/") else {
    say("usage: CrashWriter <jar path>", to: 2)
    exit(2)
}
var options = CookieFileOptions()
options.flushDelay = nil
do {
    let jar = try CookieJar(contentsOf: arguments[1], options: options)
    let stored = jar.allCookies().first { $0.name == "k0" }?.value
    var iteration = stored.flatMap { Int($0.dropFirst().prefix { $0 != "-" }) } ?? 0
    let padding = String(repeating: "p", count: 100)
    while true {
        iteration += 1
        for key in 0..<20 {
            jar.setCookie("k\(key)=v\(iteration)-\(key)-\(padding); Max-Age=86400; Path=/p\(key)", from: origin)
        }
        jar.setCookie(iteration % 2 == 1 ? "odd=v\(iteration); Max-Age=86400" : "odd=; Max-Age=0", from: origin)
        try jar.flush()
        say("acked \(iteration)", to: 1)
    }
} catch {
    say("CrashWriter: \(error)", to: 2)
    exit(1)
}
