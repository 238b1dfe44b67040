import Glibc
import Posix

/// Netlink protocol numbers (linux/netlink.h; Glibc does not export them).
package enum NetlinkProtocol {
    /// NETLINK_ROUTE: rtnetlink.
    package static let route: Int32 = 0
    /// NETLINK_USERSOCK: reserved for user-space protocols (our fake kernel in tests).
    package static let userSocket: Int32 = 2
    /// NETLINK_GENERIC: generic netlink (nl80211 lives here).
    package static let generic: Int32 = 16
}

/// `struct sockaddr_nl` (linux/netlink.h): family, pad, port id, legacy group mask; 12 bytes.
private struct NetlinkSocketAddress {
    var family = UInt16(AF_NETLINK)
    var pad: UInt16 = 0
    var portID: UInt32 = 0
    var groups: UInt32 = 0
}

/// Where netlink requests go: the protocol and the port id that plays the kernel.
///
/// The kernel is port 0 of NETLINK_ROUTE / NETLINK_GENERIC. Tests point the generic side at a fake
/// kernel on NETLINK_USERSOCK (which has no kernel socket, so the fake binds its own port id).
package struct NetlinkEndpoint: Sendable, Equatable {
    /// The `socket(AF_NETLINK, SOCK_RAW, protocol)` protocol.
    package var netlinkProtocol: Int32
    /// The port id requests are sent to and events are accepted from (0 = the kernel).
    package var peerPortID: UInt32

    /// rtnetlink on the real kernel.
    package static let route = NetlinkEndpoint(netlinkProtocol: NetlinkProtocol.route, peerPortID: 0)
    /// Generic netlink on the real kernel.
    package static let generic = NetlinkEndpoint(netlinkProtocol: NetlinkProtocol.generic, peerPortID: 0)

    /// Creates an endpoint.
    package init(netlinkProtocol: Int32, peerPortID: UInt32) {
        self.netlinkProtocol = netlinkProtocol
        self.peerPortID = peerPortID
    }
}

/// One AF_NETLINK socket; each syscall goes through Posix's wrapper: errno read at once, EINTR retried, typed `Errno`.
///
/// Not thread-safe: a socket belongs to the one thread that uses it.
package final class NetlinkSocket {
    /// SOL_NETLINK (linux/socket.h).
    private static let solNetlink: Int32 = 270
    /// NETLINK_ADD_MEMBERSHIP (linux/netlink.h).
    private static let addMembership: Int32 = 1
    /// The kernel caps a dump datagram at 32 KiB (netlink_recvmsg max_recvmsg_len); events are smaller.
    private static let bufferSize = 32_768

    /// The file descriptor (for poll).
    package let descriptor: Int32
    /// The port id the kernel assigned at bind.
    package let portID: UInt32
    private var buffer: [UInt8]

    /// Opens and binds a socket of `netlinkProtocol` (binding to `portID` 0 lets the kernel choose).
    package init(
        netlinkProtocol: Int32, portID: UInt32 = 0, receiveBufferSize: Int? = nil
    ) throws(NetworkMonitorError) {
        let fd = try netlinkCall("socket(AF_NETLINK, \(netlinkProtocol))") {
            socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkProtocol)
        }
        do throws(NetworkMonitorError) {
            if let size = receiveBufferSize {
                try Self.setOption(fd, SOL_SOCKET, SO_RCVBUF, Int32(size), name: "SO_RCVBUF")
            }
            var address = Self.address(port: portID)
            _ = try netlinkCall("bind") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<NetlinkSocketAddress>.size))
                    }
                }
            }
            var local = NetlinkSocketAddress()
            var length = socklen_t(MemoryLayout<NetlinkSocketAddress>.size)
            _ = try netlinkCall("getsockname") {
                withUnsafeMutablePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                }
            }
            descriptor = fd
            self.portID = local.portID
            buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Joins a multicast group by number (NETLINK_ADD_MEMBERSHIP; works for groups above 32).
    package func join(group: UInt32) throws(NetworkMonitorError) {
        try Self.setOption(
            descriptor, Self.solNetlink, Self.addMembership, Int32(bitPattern: group),
            name: "NETLINK_ADD_MEMBERSHIP(\(group))")
    }

    /// Makes blocking receives give up after `duration` (they then throw EAGAIN).
    package func setReceiveTimeout(_ duration: Duration) throws(NetworkMonitorError) {
        let (seconds, attoseconds) = duration.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = try netlinkCall("setsockopt(SO_RCVTIMEO)") {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Sends one datagram to `port` (0 = the kernel), or to multicast `group` (a group number, not a mask).
    package func send(_ bytes: [UInt8], to port: UInt32, group: UInt32 = 0) throws(NetworkMonitorError) {
        var address = Self.address(port: port, groups: group == 0 ? 0 : 1 << (group - 1))
        _ = try netlinkCall("sendto") {
            bytes.withUnsafeBytes { raw in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(
                            descriptor, raw.baseAddress, raw.count, 0, $0,
                            socklen_t(MemoryLayout<NetlinkSocketAddress>.size))
                    }
                }
            }
        }
    }

    /// Receives one datagram and the sender's port id.
    ///
    /// Blocks unless `wait` is false (then nil means nothing queued). ENOBUFS throws `.eventsLost`;
    /// a receive timeout throws `.system(errno: EAGAIN)`.
    package func receive(wait: Bool = true) throws(NetworkMonitorError) -> (bytes: [UInt8], sender: UInt32)? {
        var sender = NetlinkSocketAddress()
        var length = socklen_t(MemoryLayout<NetlinkSocketAddress>.size)
        let flags = Int32(MSG_TRUNC) | (wait ? 0 : Int32(MSG_DONTWAIT))
        let outcome = retryingInterrupts {
            length = socklen_t(MemoryLayout<NetlinkSocketAddress>.size)
            return buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(descriptor, raw.baseAddress, raw.count, flags, $0, &length)
                    }
                }
            }
        }
        switch outcome {
        case let .success(received):
            guard received <= buffer.count else {
                throw .malformed(
                    context: "datagram",
                    .invalidValue(
                        field: "datagram length", reason: "\(received) bytes exceed the \(buffer.count)-byte buffer"))
            }
            return (Array(buffer[0..<received]), sender.portID)
        case .failure(.noBufferSpace): throw .eventsLost
        case .failure(.wouldBlock) where !wait: return nil
        case let .failure(code): throw .system(operation: "recvfrom", errno: code)
        }
    }

    private static func address(port: UInt32, groups: UInt32 = 0) -> NetlinkSocketAddress {
        NetlinkSocketAddress(portID: port, groups: groups)
    }

    private static func setOption(
        _ fd: Int32, _ level: Int32, _ option: Int32, _ value: Int32, name: String
    )
        throws(NetworkMonitorError)
    {
        var value = value
        _ = try netlinkCall("setsockopt(\(name))") {
            setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }
}

/// A self-pipe that wakes a thread blocked in `poll`, so the monitor can be stopped without hanging.
///
/// (Glibc's module map does not export `eventfd`; a non-blocking pipe does the same job.)
package final class Wakeup: Sendable {
    /// The read end, polled by the monitor thread.
    package let descriptor: Int32
    private let writeEnd: Int32

    /// Creates the pipe.
    package init() throws(NetworkMonitorError) {
        var ends: [Int32] = [-1, -1]
        _ = try netlinkCall("pipe") { pipe(&ends) }
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
package func pollReadable(_ descriptors: [Int32]) throws(NetworkMonitorError) -> [Int] {
    var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    _ = try netlinkCall("poll") { poll(&entries, nfds_t(entries.count), -1) }
    return entries.indices.filter { entries[$0].revents != 0 }
}

/// Runs one system call through Posix's wrapper (errno read at once, EINTR retried) and names it in the error.
private func netlinkCall<T: FixedWidthInteger>(
    _ operation: @autoclosure () -> String, _ body: () -> T
) throws(NetworkMonitorError) -> T {
    switch retryingInterrupts(body) {
    case let .success(value): return value
    case let .failure(error): throw .system(operation: operation(), errno: error)
    }
}
