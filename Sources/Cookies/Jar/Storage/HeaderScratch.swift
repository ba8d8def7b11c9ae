#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a `Cookie` header is written before it becomes a String: on the stack when it is short, else in
/// a buffer of the calling thread's own, kept for its next header.
///
/// Why: the String takes the bytes as the well-formed UTF-8 they are (`String(wellFormedUTF8:isASCII:)`),
/// which needs them in one buffer; a String written in place (`String(unsafeUninitializedCapacity:)`)
/// validates them again, a third of a lookup's instructions (callgrind, `../shared/bench` lookups,
/// 2026-11-26). The stack holds at most 1 KiB (`withUnsafeTemporaryAllocation` allocates beyond it), and
/// lookups that share the jar's lock cannot share one buffer; a buffer per thread costs no allocation once
/// it is long enough, and is freed when its thread ends.
enum HeaderScratch {
    /// The longest header written on the stack.
    private static let stackLimit = 1024

    /// The key of each thread's buffer: a `malloc` block whose first word is its byte capacity.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        guard pthread_key_create(&key, { free($0) }) == 0 else { fatalError("pthread_key_create failed") }
        return key
    }()

    /// Calls `body` with `count` writable bytes: the stack's, or the calling thread's buffer.
    @inline(__always)
    static func withBytes<R>(count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> R) -> R {
        if count <= stackLimit {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count, body)
        }
        return body(UnsafeMutableBufferPointer(start: threadBuffer(count: count), count: count))
    }

    /// The calling thread's buffer, grown to at least `count` bytes.
    private static func threadBuffer(count: Int) -> UnsafeMutablePointer<UInt8> {
        let header = MemoryLayout<Int>.stride
        if let block = pthread_getspecific(key), block.load(as: Int.self) >= count {
            return (block + header).assumingMemoryBound(to: UInt8.self)
        }
        free(pthread_getspecific(key))
        // Grown to twice what is asked, so that headers growing byte by byte do not reallocate each time.
        let capacity = 2 * count
        guard let block = malloc(header + capacity) else { fatalError("out of memory for a Cookie header of \(count) bytes") }
        block.storeBytes(of: capacity, as: Int.self)
        pthread_setspecific(key, block)
        return (block + header).assumingMemoryBound(to: UInt8.self)
    }
}
