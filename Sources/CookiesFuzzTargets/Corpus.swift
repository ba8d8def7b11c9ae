import Foundation

/// The files of a fuzz corpus, for replaying without libFuzzer.
public enum Corpus {
    /// The files named by `paths`: a file as is, a folder's files (not its subfolders, not README*),
    /// sorted by path.
    public static func files(in paths: [String]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            guard try url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true else {
                files.append(url)
                continue
            }
            let entries = try FileManager.default.contentsOfDirectory(
                at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            files += try entries.filter {
                try $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true
                    && !$0.lastPathComponent.hasPrefix("README")
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The bytes of one input.
    public static func read(_ file: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: file))
    }

    /// The target a file of `corpus/crashers/` is for: its name is `<target>-<what it exposed>`.
    public static func target(ofCrasher name: String) -> FuzzTarget? {
        FuzzTarget.all.filter { name.hasPrefix($0.name + "-") }.max { $0.name.count < $1.name.count }
    }
}
