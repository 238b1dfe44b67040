import Glibc

/// One AF_NETLINK datagram socket (raw, non-blocking, close-on-exec) whose waits park on the `IOEventLoop`,
/// its calls wrapped like every other: `errno` read at once, `EINTR` retried, failures as
/// `SocketFailure.system` naming the call. NetworkMonitor builds its requests and event readers on it.
///
/// Built on `Socket`, which owns the descriptor: `close()` (or the last reference going away) wakes a waiting
/// task with `.closed` and never closes the number under a running call. No call blocks: `receive` returns
/// nil when nothing is queued, and `waitUntilReadable` parks on the loop until something is (a caller bounds
/// that wait with `withTimeout` on its own clock, as the monitor's requests do).
package final class RawNetlinkSocket: Sendable {
    /// `struct sockaddr_nl` (linux/netlink.h): family, pad, port id, legacy group mask; 12 bytes.
    private struct Address {
        var family = UInt16(AF_NETLINK)
        var pad: UInt16 = 0
        var portID: UInt32 = 0
        var groups: UInt32 = 0
    }

    /// SOL_NETLINK (linux/socket.h; Glibc does not export it).
    private static let solNetlink: Int32 = 270
    /// NETLINK_ADD_MEMBERSHIP (linux/netlink.h).
    private static let addMembership: Int32 = 1
    private static let addressLength = socklen_t(MemoryLayout<Address>.size)

    private let socket: Socket
    /// The port id the kernel assigned at bind.
    package let portID: UInt32

    /// Opens and binds a socket of `netlinkProtocol` (binding to `portID` 0 lets the kernel choose), with a
    /// receive buffer of `receiveBufferSize` bytes when given (`SO_RCVBUF`).
    ///
    /// The socket belongs to the network namespace of the calling thread (socket(7)), whichever thread
    /// uses it later.
    package init(
        netlinkProtocol: Int32, portID: UInt32 = 0, receiveBufferSize: Int? = nil, loop: IOEventLoop = .shared
    ) throws(SocketFailure) {
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try systemCall("socket(AF_NETLINK, \(netlinkProtocol))") {
            Glibc.socket(AF_NETLINK, type, netlinkProtocol)
        }
        let socket = Socket(adopting: fd, loop: loop)
        do throws(SocketFailure) {
            if let size = receiveBufferSize {
                try socket.setOption(
                    level: SOL_SOCKET, name: SO_RCVBUF, value: Int32(size), call: "setsockopt(SO_RCVBUF)")
            }
            self.portID = try socket.withDescriptor { fd throws(SocketFailure) in
                var address = Address(portID: portID)
                _ = try systemCall("bind") {
                    withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, Self.addressLength) }
                    }
                }
                var local = Address()
                var length = Self.addressLength
                _ = try systemCall("getsockname") {
                    withUnsafeMutablePointer(to: &local) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                    }
                }
                return local.portID
            }
        } catch {
            socket.close()
            throw error
        }
        self.socket = socket
    }

    deinit { socket.close() }

    /// Closes the socket: a task waiting in `waitUntilReadable` ends with `.closed`, later calls fail with it.
    package func close() { socket.close() }

    /// Joins a multicast group by number (NETLINK_ADD_MEMBERSHIP; works for groups above 32).
    package func join(group: UInt32) throws(SocketFailure) {
        try socket.setOption(
            level: Self.solNetlink, name: Self.addMembership, value: Int32(bitPattern: group),
            call: "setsockopt(NETLINK_ADD_MEMBERSHIP(\(group)))")
    }

    /// Sends one datagram to `port` (0 = the kernel), or to multicast `group` (a group number, not a mask).
    ///
    /// A request to the kernel is handled inside the call; a full receiver (a user-space peer) fails with
    /// `.wouldBlock`.
    package func send(_ bytes: [UInt8], to port: UInt32, group: UInt32 = 0) throws(SocketFailure) {
        var address = Address(portID: port, groups: group == 0 ? 0 : 1 << (group - 1))
        try socket.withDescriptor { fd throws(SocketFailure) in
            _ = try systemCall("sendto") {
                bytes.withUnsafeBytes { raw in
                    withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(fd, raw.baseAddress, raw.count, 0, $0, Self.addressLength)
                        }
                    }
                }
            }
        }
    }

    /// Receives one queued datagram into `buffer` and returns its full length (which exceeds `buffer.count`
    /// when it was cut: `MSG_TRUNC`) and the sender's port id; nil when nothing is queued.
    ///
    /// Failures are `.system(errno, "recvfrom")`: `.noBufferSpace` means the kernel dropped datagrams.
    package func receive(into buffer: inout [UInt8]) throws(SocketFailure) -> (length: Int, sender: UInt32)? {
        try socket.withDescriptor { fd throws(SocketFailure) in
            var sender = Address()
            var length = Self.addressLength
            let outcome = retryingInterrupts {
                length = Self.addressLength
                return buffer.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &sender) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            recvfrom(fd, raw.baseAddress, raw.count, Int32(MSG_TRUNC), $0, &length)
                        }
                    }
                }
            }
            switch outcome {
            case let .success(received): return (received, sender.portID)
            case .failure(.wouldBlock): return nil
            case let .failure(code): throw .system(code, call: "recvfrom")
            }
        }
    }

    /// Suspends on the loop until a datagram (or an error such as ENOBUFS) is queued; ends with `.cancelled`
    /// when the task is cancelled and with `.closed` when the socket is closed.
    package func waitUntilReadable() async throws(SocketFailure) {
        try await socket.wait(for: .readable)
    }
}
