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

/// One AF_NETLINK socket as the monitor uses it: Posix's `RawNetlinkSocket` (which makes the system calls)
/// with the monitor's errors: a dropped datagram is `.eventsLost`, a cut one `.malformed`.
///
/// Nothing here blocks: `receive()` takes what is queued, and a caller that must wait for more parks on the
/// shared `IOEventLoop` through `raw.waitUntilReadable()`. Not thread-safe (the receive buffer is reused):
/// a socket belongs to the one task or actor that uses it.
package final class NetlinkSocket {
    /// The kernel caps a dump datagram at 32 KiB (netlink_recvmsg max_recvmsg_len); events are smaller.
    private static let bufferSize = 32_768

    /// The socket itself, which any task may wait on.
    package let raw: RawNetlinkSocket
    private var buffer: [UInt8]

    /// The port id the kernel assigned at bind.
    package var portID: UInt32 { raw.portID }

    /// Wraps a socket opened elsewhere (in another network namespace, for example).
    package init(_ raw: RawNetlinkSocket) {
        self.raw = raw
        buffer = [UInt8](repeating: 0, count: Self.bufferSize)
    }

    /// Opens and binds a socket of `netlinkProtocol` (binding to `portID` 0 lets the kernel choose).
    package convenience init(
        netlinkProtocol: Int32, portID: UInt32 = 0, receiveBufferSize: Int? = nil
    ) throws(NetworkMonitorError) {
        self.init(
            try monitorCall { () throws(SocketFailure) in
                try RawNetlinkSocket(
                    netlinkProtocol: netlinkProtocol, portID: portID, receiveBufferSize: receiveBufferSize)
            })
    }

    /// Joins a multicast group by number (NETLINK_ADD_MEMBERSHIP; works for groups above 32).
    package func join(group: UInt32) throws(NetworkMonitorError) {
        try monitorCall { () throws(SocketFailure) in try raw.join(group: group) }
    }

    /// Sends one datagram to `port` (0 = the kernel), or to multicast `group` (a group number, not a mask).
    package func send(_ bytes: [UInt8], to port: UInt32, group: UInt32 = 0) throws(NetworkMonitorError) {
        try monitorCall { () throws(SocketFailure) in try raw.send(bytes, to: port, group: group) }
    }

    /// Receives one queued datagram and the sender's port id; nil when nothing is queued.
    ///
    /// ENOBUFS throws `.eventsLost`.
    package func receive() throws(NetworkMonitorError) -> (bytes: [UInt8], sender: UInt32)? {
        let received: (length: Int, sender: UInt32)?
        do {
            received = try raw.receive(into: &buffer)
        } catch {
            if case .system(.noBufferSpace, _) = error { throw .eventsLost }
            throw NetworkMonitorError(error)
        }
        guard let received else { return nil }
        guard received.length <= buffer.count else {
            throw .malformed(
                context: "datagram",
                .invalidValue(
                    field: "datagram length", reason: "\(received.length) bytes exceed the \(buffer.count)-byte buffer")
            )
        }
        return (Array(buffer[0..<received.length]), received.sender)
    }
}

extension NetworkMonitorError {
    /// The monitor's error for a failed system call of Posix's.
    init(_ failure: SocketFailure) {
        switch failure {
        case let .system(errno, call): self = .system(operation: call, errno: errno)
        case .timedOut, .closed, .cancelled: self = .closed
        }
    }
}

/// Runs a Posix call and gives its failure as the monitor's error.
func monitorCall<T>(_ body: () throws(SocketFailure) -> T) throws(NetworkMonitorError) -> T {
    do { return try body() } catch { throw NetworkMonitorError(error) }
}
