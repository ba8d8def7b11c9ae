import Cookies
import CookiesPostgres
import Foundation
import Testing

extension PostgresServerTests {
    /// Instances in processes of their own (Sources/PostgresWriter) on one jar id: concurrent receiving, and
    /// SIGKILL in the middle of flushes.
    @Suite struct ProcessTests {
        /// Starts the writer with `arguments` (its output read by `lines`).
        private func startWriter(_ arguments: [String]) throws -> (Process, Pipe) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try TestDatabase.executable("PostgresWriter"))
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }

        // Two processes receive 1,000 changes each into one jar at the same time (every fifth change deletes
        // the cookie set just before): every acknowledged change is there once, no deleted cookie is.
        @Test func twoProcessesReceivingIntoOneJarKeepEveryAcknowledgedChange() throws {
            let db = TestDatabase("processes")
            defer { db.drop() }
            _ = try db.instance()  // the tables, before the writers race to create them
            let writers = try ["p", "q"].map { try startWriter(["receive", db.schema, "shared", $0, "1000"]) }
            var acknowledged: [String] = []
            for (process, output) in writers {
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
                acknowledged += text.split(separator: "\n").map(String.init)
            }
            #expect(acknowledged.count == 2000)
            let deleted = Set(acknowledged.filter { $0.hasPrefix("deleted ") }.map { String($0.dropFirst(8)) })
            let set = Set(acknowledged.filter { $0.hasPrefix("set ") }.map { String($0.dropFirst(4)) })
            let rows = try TestDatabase.query(
                "SELECT name, count(*) FROM \(db.schema).cookiejar_cookies WHERE jar_id = 'shared' GROUP BY name")
            var stored: [String: Int64] = [:]
            for row in rows { stored[try row[0].decode(String.self)] = try row[1].decode(Int64.self) }
            #expect(Set(stored.keys) == set.subtracting(deleted))
            #expect(stored.values.allSatisfy { $0 == 1 })
            #expect(deleted.count == 400 && set.count == 1600)
        }

        // Two processes set the same five cookies 300 times each, a flush per change, at the same time: for
        // one cookie the later write wins (§5.7 step 23 across instances, in the jar's version order), so
        // each cookie ends as the last value one of the two processes acknowledged for it, never an earlier
        // one.
        @Test func twoProcessesSettingOneCookieEndWithALastWrite() throws {
            let db = TestDatabase("same")
            defer { db.drop() }
            _ = try db.instance()  // the tables, before the writers race to create them
            let writers = try ["p", "q"].map { try startWriter(["same", db.schema, "shared", $0, "300"]) }
            var last: [String: Set<String>] = [:]
            for (process, output) in writers {
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
                var lastOfProcess: [String: String] = [:]
                for line in text.split(separator: "\n") {
                    let parts = line.split(separator: " ")
                    lastOfProcess[String(parts[1])] = String(parts[2])
                }
                #expect(lastOfProcess.count == 5)
                for (name, value) in lastOfProcess { last[name, default: []].insert(value) }
            }
            let rows = try db.rows(of: "shared")
            #expect(rows.count == 5)
            for (name, value) in rows {
                #expect(last[name]?.contains(value) == true, "\(name) ended as \(value), not a last write of \(last[name] ?? [])")
            }
        }

        // SIGKILL of a writer in the middle of its flushes, 20 times: every acknowledged batch is stored
        // whole, and no batch is stored in part (each flush is one transaction).
        @Test func killedWriterLeavesNoPartialFlush() throws {
            let db = TestDatabase("kill")
            defer { db.drop() }
            _ = try db.instance()
            var lastAcked: [Int] = []
            for run in 0..<20 {
                let (process, output) = try startWriter(["batches", db.schema, "k\(run)", "r\(run)"])
                let acks = Int.random(in: 1...15)
                var text = ""
                while text.split(separator: "\n").count < acks {
                    let data = output.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                // Killed at a random moment after its acknowledgements, most likely mid-flush.
                usleep(UInt32.random(in: 0...3000))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                #expect(process.terminationReason == .uncaughtSignal)
                lastAcked.append(text.split(separator: "\n").compactMap { Int($0.dropFirst(6)) }.last ?? -1)
            }
            var batches: [String: Int] = [:]
            for run in 0..<20 {
                for (name, _) in try db.rows(of: "k\(run)") {
                    let parts = name.split(separator: "-")
                    batches["\(parts[0])-\(parts[1])", default: 0] += 1
                }
            }
            #expect(batches.values.allSatisfy { $0 == 10 }, "a batch stored in part: \(batches.filter { $0.value != 10 })")
            for (run, last) in lastAcked.enumerated() where last >= 0 {
                for batch in 0...last { #expect(batches["r\(run)-\(batch)"] == 10, "run \(run) batch \(batch)") }
            }
        }
    }
}
