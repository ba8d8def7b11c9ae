import Foundation

/// Writes every byte of `bytes` to `descriptor`, continuing partial writes and writes an interrupt
/// stopped; returns the `errno` of a write that failed, 0 when all were written.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
    guard var next = bytes.baseAddress else { return 0 }
    var remaining = bytes.count
    while remaining > 0 {
        let written = write(descriptor, next, remaining)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        next += written
        remaining -= written
    }
    return 0
}
