import Glibc

/// One AF_NETLINK datagram socket (raw, close-on-exec), its calls wrapped like every other: `errno` read at
/// once, `EINTR` retried, failures as `SocketFailure.system` naming the call. NetworkMonitor builds its
/// requests and event readers on it.
///
/// Not thread-safe: a socket belongs to the one thread that uses it.
package final class RawNetlinkSocket {
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

    /// The file descriptor (for `pollReadable`).
    package let descriptor: Int32
    /// The port id the kernel assigned at bind.
    package let portID: UInt32

    /// Opens and binds a socket of `netlinkProtocol` (binding to `portID` 0 lets the kernel choose), with a
    /// receive buffer of `receiveBufferSize` bytes when given (`SO_RCVBUF`).
    package init(netlinkProtocol: Int32, portID: UInt32 = 0, receiveBufferSize: Int? = nil) throws(SocketFailure) {
        let fd = try systemCall("socket(AF_NETLINK, \(netlinkProtocol))") {
            socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkProtocol)
        }
        do throws(SocketFailure) {
            if let size = receiveBufferSize {
                try Self.setOption(fd, SOL_SOCKET, SO_RCVBUF, Int32(size), name: "SO_RCVBUF")
            }
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
            descriptor = fd
            self.portID = local.portID
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Joins a multicast group by number (NETLINK_ADD_MEMBERSHIP; works for groups above 32).
    package func join(group: UInt32) throws(SocketFailure) {
        try Self.setOption(
            descriptor, Self.solNetlink, Self.addMembership, Int32(bitPattern: group),
            name: "NETLINK_ADD_MEMBERSHIP(\(group))")
    }

    /// Makes blocking receives give up after `duration` (they then fail with `.wouldBlock`).
    package func setReceiveTimeout(_ duration: Duration) throws(SocketFailure) {
        let (seconds, attoseconds) = duration.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = try systemCall("setsockopt(SO_RCVTIMEO)") {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Sends one datagram to `port` (0 = the kernel), or to multicast `group` (a group number, not a mask).
    package func send(_ bytes: [UInt8], to port: UInt32, group: UInt32 = 0) throws(SocketFailure) {
        var address = Address(portID: port, groups: group == 0 ? 0 : 1 << (group - 1))
        _ = try systemCall("sendto") {
            bytes.withUnsafeBytes { raw in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(descriptor, raw.baseAddress, raw.count, 0, $0, Self.addressLength)
                    }
                }
            }
        }
    }

    /// Receives one datagram into `buffer` and returns its full length (which exceeds `buffer.count` when it
    /// was cut: `MSG_TRUNC`) and the sender's port id.
    ///
    /// Blocks unless `wait` is false (then nil means nothing queued). Failures are `.system(errno, "recvfrom")`:
    /// `.noBufferSpace` means the kernel dropped datagrams; `.wouldBlock` after a receive timeout.
    package func receive(
        into buffer: inout [UInt8], wait: Bool = true
    ) throws(SocketFailure) -> (length: Int, sender: UInt32)? {
        var sender = Address()
        var length = Self.addressLength
        let flags = Int32(MSG_TRUNC) | (wait ? 0 : Int32(MSG_DONTWAIT))
        let outcome = retryingInterrupts {
            length = Self.addressLength
            return buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(descriptor, raw.baseAddress, raw.count, flags, $0, &length)
                    }
                }
            }
        }
        switch outcome {
        case let .success(received): return (received, sender.portID)
        case .failure(.wouldBlock) where !wait: return nil
        case let .failure(code): throw .system(code, call: "recvfrom")
        }
    }

    private static func setOption(
        _ fd: Int32, _ level: Int32, _ option: Int32, _ value: Int32, name: String
    ) throws(SocketFailure) {
        var value = value
        _ = try systemCall("setsockopt(\(name))") {
            setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }
}

/// A self-pipe that wakes a thread blocked in `pollReadable`, so a blocking reader can be stopped.
///
/// (Glibc's module map does not export `eventfd`; a non-blocking pipe does the same job.)
package final class Wakeup: Sendable {
    /// The read end, polled beside the descriptors the thread waits on.
    package let descriptor: Int32
    private let writeEnd: Int32

    /// Creates the pipe (both ends close-on-exec and non-blocking).
    package init() throws(SocketFailure) {
        var ends: [Int32] = [-1, -1]
        _ = try systemCall("pipe") { pipe(&ends) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Wakes the poller (safe from any thread, any number of times; a full pipe is already a wake-up).
    package func signal() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }
}

/// Blocks until one of `descriptors` is readable; returns their indices. No timeout: idle costs no CPU.
package func pollReadable(_ descriptors: [Int32]) throws(SocketFailure) -> [Int] {
    var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    _ = try systemCall("poll") { poll(&entries, nfds_t(entries.count), -1) }
    return entries.indices.filter { entries[$0].revents != 0 }
}
