import Foundation
import TestSupport
import Testing

@testable import Cookies

/// After `kill -9` at any moment, the file opens, holds every change flush() acknowledged, and no
/// partial cookie or half-written batch (issue 4, "Nothing lost, nothing corrupted").
///
/// The writer (Tests/CrashWriter) sets 20 cookies and toggles a 21st per iteration, flushing each
/// iteration as one batch and printing "acked <i>" after it. The test kills it with SIGKILL after a
/// random number of acknowledgements, 50 times on the same file, and checks after each kill that the
/// file holds one complete iteration, no older than the last acknowledged one.
@Suite struct KillTests {
    /// The random seed: COOKIEJAR_KILL_SEED to replay a failure, else a new one (printed).
    static let seed: UInt64 = ProcessInfo.processInfo.environment["COOKIEJAR_KILL_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 0...UInt64.max)

    /// Starts the writer, waits for `acks` acknowledgements, kills it with SIGKILL. Returns the last
    /// acknowledged iteration (nil if it printed none).
    func runWriterAndKill(_ writer: String, path: String, afterAcks acks: Int) throws -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: writer)
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var text = ""
        var seen: [Int] = []
        while seen.count < acks {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }  // the writer exited: the checks below report it
            text += String(decoding: data, as: UTF8.self)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            seen = lines.dropLast().compactMap { $0.hasPrefix("acked ") ? Int($0.dropFirst(6)) : nil }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the writer ended before it was killed")
        return seen.last
    }

    @Test func killedWriterLeavesEveryAcknowledgedChangeAndNoPartialBatch() throws {
        print("KillTests seed: \(Self.seed) (set COOKIEJAR_KILL_SEED to replay)")
        var random = SplitMix64(seed: Self.seed)
        let writer = try crashWriterPath()
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.file("cookies.sqlite")
        var acknowledged = 0
        for run in 0..<50 {
            let acks = Int(random.next() % 4) + 1
            if let last = try runWriterAndKill(writer, path: path, afterAcks: acks) { acknowledged = last }

            let jar = try openTestJar(path, clock: ManualCookieClock(testEpoch))
            let cookies = jar.allCookies()
            let iterations = Set(cookies.filter { $0.name != "odd" }.map { $0.value.prefix { $0 != "-" }.dropFirst() })
            #expect(iterations.count == 1, "run \(run): one batch, not a mix: \(iterations.sorted())")
            let iteration = Int(iterations.first ?? "") ?? 0
            #expect(iteration >= acknowledged, "run \(run): acknowledged \(acknowledged), file holds \(iteration)")
            let padding = String(repeating: "p", count: 100)
            for key in 0..<20 {
                let cookie = cookies.first { $0.name == "k\(key)" }
                #expect(cookie?.value == "v\(iteration)-\(key)-\(padding)", "run \(run): k\(key)")
                #expect(cookie?.path == "/p\(key)" && cookie?.isPersistent == true, "run \(run): k\(key)")
            }
            let odd = cookies.first { $0.name == "odd" }
            #expect(odd?.value == (iteration % 2 == 1 ? "v\(iteration)" : nil), "run \(run): odd at \(iteration)")
            try jar.close()
        }
        #expect(acknowledged >= 50)
    }
}

/// A small seeded generator (SplitMix64, Steele, Lea and Flood 2014), so a failing run can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
