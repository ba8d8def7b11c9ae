import Foundation

/// The command line's arguments as the system gave them. ArgumentParser reads each as UTF-8, an
/// ill-formed sequence becoming U+FFFD: a file name in another encoding (`$'out\xe9.json'`) would name
/// another file, and the tool would write or make that one. Such an argument is refused before parsing.
enum ArgumentBytes {
    /// A line naming the first argument that is not UTF-8, by position (the first after the command's
    /// name is 1) and its bytes escaped; nil when every argument is UTF-8.
    static func firstNonUTF8Argument() -> String? {
        for position in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[position] else { continue }
            let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument)).bindMemory(to: UInt8.self)
            guard let offset = IllFormedUTF8.firstOffset(in: bytes) else { continue }
            return "argument \(position) is not UTF-8 (byte \(offset) on): \"\(IllFormedUTF8.escaped(bytes))\": "
                + "read as UTF-8, its ill-formed bytes would become U+FFFD, naming another file or value"
        }
        return nil
    }
}
