import Foundation

/// A file as the system tells files apart, its device and inode: the same for every path (a link, a
/// hard link, `/dev/stdout`) and descriptor that leads to it.
struct FileIdentity: Equatable {
    let device: dev_t
    let inode: ino_t
    /// A regular file of 0 bytes when it was looked at.
    let isEmptyRegularFile: Bool

    /// The file at `path`, links followed; nil when there is none (or it cannot be examined).
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The file open on `descriptor`; nil when the descriptor is closed.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = status.st_dev
        inode = status.st_ino
        isEmptyRegularFile = status.st_mode & S_IFMT == S_IFREG && status.st_size == 0
    }

    /// The same file: the same device and inode, whatever its size when each was looked at.
    static func == (first: FileIdentity, second: FileIdentity) -> Bool {
        first.device == second.device && first.inode == second.inode
    }
}
