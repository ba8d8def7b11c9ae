#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The rows of a large jar file read ahead on a thread of their own, while the thread that opens the jar
/// (or reads the file whole) takes the ones read already: reading a row (SQLite's stepping and column
/// reads, the UTF-8 check of its texts) and filing its cookie into a jar each take about half of a load.
/// Loading the 32,572 rows of the ../shared/bench jar file took 0.83–0.86 µs a cookie instead of
/// 1.11–1.13 (three runs each, 2026-11-28, 2 cores), for 9 % more instructions (the copies below).
///
/// The reading thread copies each cookie's texts into a chunk (SQLite's own buffers last only until the
/// next step) and hands full chunks over; the opening thread takes them in order and gives each cookie to
/// its body with the chunk's bytes, then gives the chunk back to be filled again. Three chunks go round, so
/// that neither thread waits while the other has work. A row too large for a chunk (no jar holds one) is
/// handed over uncopied, and the reading waits until it was taken before it steps again. The reading
/// thread alone uses the statement from `start` until `forEach` returns, which joins it; the handing over
/// is a pthread mutex and condition, which ThreadSanitizer sees.
final class RowReadAhead<Failure: Error> {
    /// Cookies whose texts live in the chunk's bytes, in the order read. The reading and the taking each
    /// make one access to the counts a cookie (a class's stored properties are checked for exclusive
    /// access at each).
    private final class Chunk {
        private let slots: UnsafeMutableBufferPointer<LoadedCookie>
        private let bytes: UnsafeMutableBufferPointer<UInt8>
        private var count = 0
        private var used = 0

        init() {
            slots = .allocate(capacity: RowReadAhead.rowsPerChunk)
            bytes = .allocate(capacity: RowReadAhead.bytesPerChunk)
        }

        deinit {
            // A `LoadedCookie` is plain data: nothing to deinitialize.
            slots.deallocate()
            bytes.deallocate()
        }

        var isFull: Bool { count == slots.count }
        var isEmpty: Bool { count == 0 }
        /// The cookies appended.
        var cookies: UnsafeBufferPointer<LoadedCookie> { UnsafeBufferPointer(rebasing: slots[..<count]) }

        func empty() {
            count = 0
            used = 0
        }

        /// Appends `cookie` with its texts copied into this chunk; false, appending nothing, when they do not
        /// fit.
        func append(_ cookie: LoadedCookie) -> Bool {
            var position = used
            let needed = cookie.name.count + cookie.value.count + cookie.domain.count + cookie.path.count
                + (cookie.partitionKey?.count ?? 0)
            guard count < slots.count, needed <= bytes.count - position else { return false }
            // Copied by memmove: the project's `copyBytes` made the bench's 32,605-row load 30.5–35 ms
            // instead of 26.3 (2026-11-28).
            func keep(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
                let destination = bytes.baseAddress! + position
                if let source = text.baseAddress { destination.update(from: source, count: text.count) }
                position += text.count
                return UnsafeBufferPointer(start: destination, count: text.count)
            }
            var copy = cookie
            copy.name = keep(cookie.name)
            copy.value = keep(cookie.value)
            copy.domain = keep(cookie.domain)
            copy.path = keep(cookie.path)
            copy.partitionKey = cookie.partitionKey.map(keep)
            appendInPlace(copy)
            used = position
            return true
        }

        /// Appends `cookie` as it is: its texts stay where they are.
        func appendInPlace(_ cookie: LoadedCookie) {
            (slots.baseAddress! + count).initialize(to: cookie)
            count += 1
        }
    }

    /// How many chunks go round, how many rows a chunk holds, and the room for their texts.
    private static var chunks: Int { 3 }
    static var rowsPerChunk: Int { 1024 }
    static var bytesPerChunk: Int { rowsPerChunk * 128 }

    /// The next row, nil after the last; runs on the reading thread only.
    private let next: () throws(Failure) -> LoadedCookie?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Under `mutex`: the chunks filled and not yet taken (oldest first), those free to be filled, and how
    // the reading ended.
    private var filled: [Chunk] = []
    private var free: [Chunk] = (0..<RowReadAhead.chunks).map { _ in Chunk() }
    private var isFinished = false
    private var failure: Failure?
    private var thread: pthread_t?

    private init(next: @escaping () throws(Failure) -> LoadedCookie?) {
        self.next = next
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Starts reading rows with `next` on a thread of its own; nil when no thread could be made (the caller
    /// reads them itself). Until `forEach` returns, only that thread may use what `next` reads.
    static func start(next: @escaping () throws(Failure) -> LoadedCookie?) -> RowReadAhead? {
        let readAhead = RowReadAhead(next: next)
        guard let thread = ReadingThread.start({ readAhead.read() }) else { return nil }
        readAhead.thread = thread
        return readAhead
    }

    /// Gives `body` every row read, in order, and returns how many there were; throws what ended the
    /// reading when it failed (after the rows read before the failure). Waits for the reading thread to end.
    func forEach(_ body: (LoadedCookie) -> Void) throws(Failure) -> Int {
        var count = 0
        var chunk: Chunk?
        while true {
            pthread_mutex_lock(mutex)
            if let done = chunk {
                done.empty()
                free.append(done)
                pthread_cond_signal(changed)
            }
            while filled.isEmpty && !isFinished { pthread_cond_wait(changed, mutex) }
            chunk = filled.isEmpty ? nil : filled.removeFirst()
            pthread_mutex_unlock(mutex)
            guard let chunk else { break }
            let cookies = chunk.cookies
            for cookie in cookies { body(cookie) }
            count += cookies.count
        }
        if let thread { pthread_join(thread, nil) }
        if let failure { throw failure }
        return count
    }

    /// The reading thread's work: fills chunks with rows until `next` gives none or fails.
    private func read() {
        var chunk = takeFreeChunk()
        var failure: Failure?
        do throws(Failure) {
            while let row = try next() {
                if !chunk.append(row) {
                    // Its texts do not fit beside the others'.
                    if !chunk.isEmpty {
                        hand(chunk)
                        chunk = takeFreeChunk()
                    }
                    if !chunk.append(row) {
                        // Nor in a chunk of their own (a row no jar may hold: a name and value are 4,096 bytes
                        // at most): the row is handed over as SQLite's buffers hold it, which stay valid while
                        // the reading waits for it to be taken (every chunk given back), rather than copied.
                        chunk.appendInPlace(row)
                        hand(chunk)
                        chunk = takeFreeChunk(afterAllTaken: true)
                        continue
                    }
                }
                if chunk.isFull {
                    hand(chunk)
                    chunk = takeFreeChunk()
                }
            }
        } catch {
            failure = error
        }
        pthread_mutex_lock(mutex)
        if !chunk.isEmpty { filled.append(chunk) }
        self.failure = failure
        isFinished = true
        pthread_cond_signal(changed)
        pthread_mutex_unlock(mutex)
    }

    /// A chunk to fill; when `afterAllTaken`, once every chunk handed over was taken and given back.
    private func takeFreeChunk(afterAllTaken: Bool = false) -> Chunk {
        pthread_mutex_lock(mutex)
        while free.count < (afterAllTaken ? Self.chunks : 1) { pthread_cond_wait(changed, mutex) }
        let chunk = free.removeLast()
        pthread_mutex_unlock(mutex)
        return chunk
    }

    private func hand(_ chunk: Chunk) {
        pthread_mutex_lock(mutex)
        filled.append(chunk)
        pthread_cond_signal(changed)
        pthread_mutex_unlock(mutex)
    }
}

/// A thread running one closure (`RowReadAhead`'s reading), to be joined. A C function starts it, which
/// cannot refer to a generic type: the closure is boxed in a class of its own.
private final class ReadingThread {
    private let work: () -> Void

    private init(_ work: @escaping () -> Void) { self.work = work }

    /// The thread running `work`; nil when none could be made. On Apple's platforms it runs at the quality
    /// of service of the calling thread, which waits for it (a thread made without one runs at the default).
    static func start(_ work: @escaping () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(ReadingThread(work)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        #if canImport(Darwin)
        pthread_attr_set_qos_class_np(&attributes, qos_class_self(), 0)
        #endif
        // glibc's pthread_t is an integer; Darwin's and musl's a pointer.
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<ReadingThread>.fromOpaque(context!).takeRetainedValue().work()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<ReadingThread>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
}
