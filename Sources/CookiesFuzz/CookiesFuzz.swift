// The fuzz targets of `CookiesFuzzTargets` as one program; the environment variable FUZZ_TARGET picks
// the target. Built with -DFUZZING (and -sanitize=fuzzer) it is a libFuzzer binary; otherwise it replays
// the files and folders given as arguments through the target's invariants.
import CookiesFuzzTargets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one line to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// The target FUZZ_TARGET names; exits with the list of targets when there is none.
let selectedTarget: FuzzTarget = {
    let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
    guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }) else {
        printError("CookiesFuzz: set FUZZ_TARGET to one of: \(names)")
        exit(2)
    }
    guard let target = FuzzTarget.named(name) else {
        printError("CookiesFuzz: unknown FUZZ_TARGET \(name); targets: \(names)")
        exit(2)
    }
    return target
}()

#if FUZZING
/// libFuzzer's entry point: one input; a broken invariant traps, so libFuzzer keeps the input as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        try selectedTarget.run(UnsafeBufferPointer(start: data, count: size))
    } catch {
        fatalError(error.description)
    }
    return 0
}
#else
import Foundation

/// Replays files and folders: exit 0 when every input keeps the invariants, 1 when one breaks them,
/// 2 for usage, 3 when an input cannot be read.
@main
enum CookiesFuzz {
    static func main() {
        let paths = Array(CommandLine.arguments.dropFirst())
        guard !paths.isEmpty else {
            printError("usage: FUZZ_TARGET=name CookiesFuzz FILE|FOLDER...")
            exit(2)
        }
        let target = selectedTarget
        var failures = 0
        var count = 0
        do {
            for file in try Corpus.files(in: paths) {
                count += 1
                do {
                    try target.run(try Corpus.read(file))
                } catch let violation as InvariantViolation {
                    failures += 1
                    print("\(file.path): \(violation)")
                }
            }
        } catch {
            printError("CookiesFuzz: cannot read the inputs: \(error.localizedDescription)")
            exit(3)
        }
        print("\(target.name): \(count) inputs, \(failures) broke an invariant")
        exit(failures == 0 ? 0 : 1)
    }
}
#endif
