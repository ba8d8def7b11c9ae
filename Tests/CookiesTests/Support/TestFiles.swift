import Foundation

@testable import Cookies

/// A flush scheduler that runs the scheduled writes only when the test says so: tests never wait.
final class ManualFlushScheduler: CookieFlushScheduler {
    private let scheduled = CookieLock<[(Duration, @Sendable () -> Void)]>([])

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        scheduled.withLock { $0.append((delay, work)) }
    }

    /// The delays of the writes scheduled and not yet run.
    var delays: [Duration] { scheduled.withLock { $0.map(\.0) } }

    /// Runs every scheduled write, as if their delays had passed.
    func runAll() {
        let work = scheduled.withLock { scheduled in
            defer { scheduled.removeAll() }
            return scheduled.map(\.1)
        }
        for item in work { item() }
    }
}

/// Options for tests: background writes go to `scheduler`.
func testFileOptions(_ scheduler: ManualFlushScheduler = ManualFlushScheduler()) -> CookieJarFileOptions {
    var options = CookieJarFileOptions()
    options.scheduler = scheduler
    return options
}

/// A jar on the test list, kept in the file at `path`.
func openTestJar(
    _ path: String, options: CookieJarFileOptions = testFileOptions(), clock: ManualCookieClock = ManualCookieClock(testEpoch)
) throws(CookieFileError) -> CookieJar {
    try CookieJar(contentsOf: path, options: options, publicSuffixList: testPublicSuffixList, clock: clock)
}

/// The bytes of a file, to check it was left untouched.
func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// Runs SQL on a file with the sqlite3 shell's engine (through the library's own wrapper).
func runSQL(_ sql: String, on path: String) throws {
    let connection = try SQLiteConnection(path: path, flags: [.readWrite, .create])
    try connection.execute(sql)
}

/// The CrashWriter executable (Tests/CrashWriter), built next to the test bundle.
func crashWriterPath() throws -> String {
    try builtExecutablePath(named: "CrashWriter")
}

/// An executable of the package, built next to the test bundle.
func builtExecutablePath(named name: String) throws -> String {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while directory.path != "/" {
        directory.deleteLastPathComponent()
        let candidate = directory.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw CocoaError(.fileNoSuchFile)
}
