// Writes a cookie jar in a loop, for the persistence tests that run it as a sub-process.
//
// `CrashWriter <jar path>` (CookiesTests/Persistence/JarFile/KillTests.swift): runs until it is killed.
// Iteration i sets the 20 cookies k0…k19 to "v<i>-<k>-<padding>" (path /p<k>) and sets the cookie
// "odd" when i is odd or deletes it when i is even, flushes, and prints "acked <i>". It starts after
// the iteration the file holds, so the test can run it again on the same file.
//
// `CrashWriter --share <writer> <iterations> <jar path>` (SharedFileTests.swift): one of several
// processes on one file. It opens the jar, prints "ready" and waits for a line on stdin, so that the
// test starts every writer's flushes together. Iteration i then sets its own cookie "w<writer>-<i>" (never touched again), its
// counter "count-<writer>" to i, and the cookie "shared", which every writer sets, to "w<writer>-<i>";
// flushes, and prints "acked <i>". It closes the jar and exits 0 after the last iteration; any error
// is printed on stderr and exits 1.
//
// `CrashWriter --open jar|read <jar path>` (OpeningRaceTests.swift): one of several processes opening
// one file at once. It prints "ready" and waits for a line on stdin, so that the test releases every
// process together; then it opens the file as a jar (`jar`, `CookieJar(contentsOf:)`) or reads it
// without writing (`read`, `CookieImportFile.read`, what `cookiejar inspect` does), prints "opened <count of
// cookies>" and exits 0; an error is printed on stderr and exits 1.
//
// `CrashWriter --lock-holder <path>` (ProcessLockTests.swift): prints the process id of a process that holds a
// POSIX advisory lock on the file, one that a write lock over the whole file would conflict with
// (`fcntl(F_GETLK)`), or 0 when none does: another process's view of the locks the test's connections hold.
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

func usage() -> Never {
    say(
        "usage: CrashWriter <jar path> | CrashWriter --share <writer> <iterations> <jar path> "
            + "| CrashWriter --open jar|read <jar path> | CrashWriter --lock-holder <path>", to: 2)
    exit(2)
}

/// Until killed: a complete batch of 21 changes per iteration.
func writeUntilKilled(_ path: String, origin: CookieURL, options: CookieJarFileOptions) throws {
    let jar = try CookieJar(contentsOf: path, options: options)
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
}

/// One writer among several on the same file: disjoint and shared cookies, a flush per iteration.
func writeShared(_ path: String, writer: Int, iterations: Int, origin: CookieURL, options: CookieJarFileOptions) throws {
    let jar = try CookieJar(contentsOf: path, options: options)
    say("ready", to: 1)
    _ = readLine()
    for iteration in 1...iterations {
        jar.setCookie("w\(writer)-\(iteration)=\(iteration); Max-Age=86400", from: origin)
        jar.setCookie("count-\(writer)=\(iteration); Max-Age=86400", from: origin)
        jar.setCookie("shared=w\(writer)-\(iteration); Max-Age=86400", from: origin)
        try jar.flush()
        say("acked \(iteration)", to: 1)
    }
    try jar.close()
}

/// One of several processes opening the same file at the same moment.
func openTogether(_ path: String, asJar: Bool, options: CookieJarFileOptions) throws {
    say("ready", to: 1)
    _ = readLine()
    let count = asJar ? try CookieJar(contentsOf: path, options: options).count : try CookieImportFile.read(path: path, now: .distantPast).cookies.count
    say("opened \(count)", to: 1)
}

/// Prints who holds a lock on the file at `path` (its process id, 0 for no one).
func printLockHolder(_ path: String) {
    let descriptor = open(path, O_RDWR)
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    guard descriptor >= 0, fcntl(descriptor, F_GETLK, &lock) == 0 else {
        say("CrashWriter: cannot examine the locks on \(path): \(String(cString: strerror(errno)))", to: 2)
        exit(1)
    }
    say(lock.l_type == Int16(F_UNLCK) ? "0" : "\(lock.l_pid)", to: 1)
}

let arguments = CommandLine.arguments
guard let origin = CookieURL("https://example.com/") else { usage() }
var options = CookieJarFileOptions()
options.flushDelay = nil
do {
    switch arguments.count {
    case 2: try writeUntilKilled(arguments[1], origin: origin, options: options)
    case 5 where arguments[1] == "--share":
        guard let writer = Int(arguments[2]), let iterations = Int(arguments[3]), iterations > 0 else { usage() }
        try writeShared(arguments[4], writer: writer, iterations: iterations, origin: origin, options: options)
    case 4 where arguments[1] == "--open" && ["jar", "read"].contains(arguments[2]):
        try openTogether(arguments[3], asJar: arguments[2] == "jar", options: options)
    case 3 where arguments[1] == "--lock-holder": printLockHolder(arguments[2])
    default: usage()
    }
} catch {
    say("CrashWriter: \(error)", to: 2)
    exit(1)
}
