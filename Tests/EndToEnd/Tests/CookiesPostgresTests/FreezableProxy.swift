import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 to a server's port that can be frozen: while frozen it forwards no byte either
/// way and answers nothing, its connections left open, as a network that stopped delivering (a failover
/// without a reset, a firewall that dropped the connections' state) looks to a client.
final class FreezableProxy: Sendable {
    /// The port clients connect to.
    let port: Int
    private let listener: Int32
    private let frozen = Mutex(false)

    /// A proxy to `127.0.0.1:upstreamPort`, accepting connections from now on.
    init(upstreamPort: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                let server = Self.connect(to: upstreamPort)
                guard server >= 0 else {
                    close(client)
                    continue
                }
                let pair = SocketPair(client, server)
                Thread { self.pump(from: client, to: server, closing: pair) }.start()
                Thread { self.pump(from: server, to: client, closing: pair) }.start()
            }
        }.start()
    }

    /// Stops forwarding, from the next bytes on.
    func freeze() { frozen.withLock { $0 = true } }

    /// Forwards again, what was held first.
    func thaw() { frozen.withLock { $0 = false } }

    /// Stops accepting (the connections made go on until their ends close them).
    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private static func connect(to port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if !connected { close(fd) }
        return connected ? fd : -1
    }

    /// A connection's two sockets, closed by the second of its pumps to end: a socket closed while the other
    /// pump still uses its number could be a later connection's by then.
    private final class SocketPair: Sendable {
        private let sockets: (Int32, Int32)
        private let pumpsRunning = Atomic(2)

        init(_ first: Int32, _ second: Int32) { sockets = (first, second) }

        func pumpEnded() {
            guard pumpsRunning.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
            close(sockets.0)
            close(sockets.1)
        }
    }

    /// Copies bytes from `source` to `destination` until either end closes, holding them while `frozen`.
    private func pump(from source: Int32, to destination: Int32, closing pair: SocketPair) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        defer {
            shutdown(destination, Int32(SHUT_WR))
            pair.pumpEnded()
        }
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { return }
            while frozen.withLock({ $0 }) { usleep(10_000) }
            var written = 0
            while written < count {
                let result = buffer[written..<count].withUnsafeBytes { send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard result > 0 else { return }
                written += result
            }
        }
    }
}
