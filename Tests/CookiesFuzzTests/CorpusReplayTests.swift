import CookiesFuzzTargets
import Foundation
import Testing

/// Replays the fuzz corpus (`corpus/<target>/`, seeds written by hand plus what libFuzzer found) and every
/// crasher ever found (`corpus/crashers/`) through the targets' invariants.
struct CorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus")

    @Test(arguments: FuzzTarget.all)
    func corpusKeepsTheInvariants(of target: FuzzTarget) throws {
        let files = try Corpus.files(in: [Self.corpus.appendingPathComponent(target.name).path])
        #expect(!files.isEmpty, "corpus/\(target.name)/ has no seeds")
        for file in files {
            do {
                try target.run(try Corpus.read(file))
            } catch let violation as InvariantViolation {
                Issue.record("\(file.lastPathComponent): \(violation)")
            }
        }
    }

    @Test func crashersKeepTheInvariants() throws {
        for file in try Corpus.files(in: [Self.corpus.appendingPathComponent("crashers").path]) {
            guard let target = Corpus.target(ofCrasher: file.lastPathComponent) else {
                Issue.record("crashers/\(file.lastPathComponent) is not named <target>-<what it exposed>")
                continue
            }
            do {
                try target.run(try Corpus.read(file))
            } catch let violation as InvariantViolation {
                Issue.record("crashers/\(file.lastPathComponent): \(violation)")
            }
        }
    }

    /// Every folder of corpus/ belongs to a target (or holds the crashers), so that none is left unreplayed.
    @Test func everyCorpusFolderHasATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.corpus.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }
        for folder in folders where folder != "crashers" {
            #expect(FuzzTarget.named(folder) != nil, "corpus/\(folder)/ has no fuzz target")
        }
    }
}
