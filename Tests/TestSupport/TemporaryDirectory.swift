import Foundation

/// A fresh directory under the system's temporary directory, for a test's files: removed with everything
/// in it when the last reference to it goes. A suite holds one in a stored property (Swift Testing makes
/// a suite instance for each test, and drops it when the test ends); a test that makes one itself keeps it
/// alive to its end (`defer { withExtendedLifetime(directory) {} }`).
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "cookiejar-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String {
        path + "/" + name
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
