import Foundation
import Glibc
import Synchronization

/// A raw socket bound to 127.0.0.1 on a port the kernel picks (port 0), not listening.
///
/// Bound but not listening, a TCP port refuses connections, and no other test can take the number while
/// the socket lives (a closed listener's port could be handed to a parallel test at once). Tests that serve
/// by hand call `listen` on `descriptor`; tests that want a port nothing is bound to read `port` and `close()`.
package final class LoopbackSocket: Sendable {
    /// The socket type to bind.
    package enum Kind: Sendable {
        /// A TCP stream socket.
        case tcp
        /// A UDP datagram socket.
        case udp
    }

    /// The file descriptor (valid until `close()`).
    package let descriptor: Int32
    /// The port the kernel gave, in host byte order.
    package let port: UInt16
    private let closed = Atomic(false)

    /// Binds a new `kind` socket to 127.0.0.1, port 0; throws `EADDRNOTAVAIL` when the kernel refuses.
    package init(_ kind: Kind = .tcp) throws {
        let type = kind == .tcp ? SOCK_STREAM : SOCK_DGRAM
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// The number of a loopback TCP port nothing is bound to now: bound to learn it, then closed.
    package static func closedTCPPort() throws -> UInt16 {
        let socket = try LoopbackSocket(.tcp)
        socket.close()
        return socket.port
    }

    /// Closes the socket (once; later calls do nothing).
    package func close() {
        if !closed.exchange(true, ordering: .acquiringAndReleasing) { Glibc.close(descriptor) }
    }

    deinit { close() }
}
