import Posix
import Timing

/// A non-blocking UDP socket for SSDP: send datagrams, receive them with a timeout on an injected clock.
///
/// Built on the same `Socket` and `IOEventLoop` as the TCP transport, so a receive waiting for a silent
/// network parks on the loop thread, never on a pool thread, and `close()` or cancellation ends it at once.
/// Errors are `PTPIPError`s naming the address and what was being done.
package final class UDPSocket: Sendable {
    /// One received datagram and who sent it.
    package struct Datagram: Sendable, Hashable {
        /// The payload (at most `UDPSocket.maximumDatagram` bytes; longer ones are cut by the kernel).
        package var bytes: [UInt8]
        /// The sender's address and port.
        package var sender: SocketAddress
    }

    /// The largest datagram read; SSDP answers are a few hundred bytes, anything near this is not one.
    package static let maximumDatagram = 8192

    private let socket: Socket
    /// The address actually bound (with the kernel-chosen port when asked for port 0).
    package let localAddress: SocketAddress
    /// The clock the timeouts of `send` and `receive` are measured on.
    package let clock: any Clock<Duration>

    private init(socket: Socket, localAddress: SocketAddress, clock: any Clock<Duration>) {
        self.socket = socket
        self.localAddress = localAddress
        self.clock = clock
    }

    deinit {
        socket.close()
    }

    /// Opens a UDP socket bound to `host` (an IPv4 or IPv6 literal; "0.0.0.0" for every interface) and
    /// `port` (0 lets the kernel choose); timeouts are measured on `clock`.
    package static func bind(
        host: String = "0.0.0.0", port: UInt16 = 0, clock: any Clock<Duration> = ContinuousClock()
    ) throws -> UDPSocket {
        guard let address = SocketAddress(numericHost: host, port: port) else {
            throw PTPIPError.invalidState("cannot bind UDP to '\(host)': not an IPv4 or IPv6 address")
        }
        do {
            let socket = try Socket.udp(boundTo: address)
            do {
                return UDPSocket(socket: socket, localAddress: try socket.localAddress() ?? address, clock: clock)
            } catch {
                socket.close()
                throw error
            }
        } catch {
            throw error.ptpip(address: address.description, during: "UDP bind")
        }
    }

    /// Sends multicast datagrams out of the interface that owns `interfaceAddress` (IPv4), with `ttl` hops.
    ///
    /// Without this the kernel picks the interface of the default route, so a camera on a second
    /// network (its own Wi-Fi next to a wired LAN) would never hear the search.
    package func setMulticastInterface(_ interfaceAddress: String, ttl: Int32 = 2) throws {
        let isIPv4: Bool
        do {
            isIPv4 = try socket.setMulticastInterface(interfaceAddress, ttl: ttl)
        } catch {
            throw error.ptpip(address: localAddress.description, during: "multicast setup")
        }
        guard isIPv4 else { throw PTPIPError.invalidState("'\(interfaceAddress)' is not an IPv4 interface address") }
    }

    /// Sends `bytes` as one datagram to `destination`, waiting (up to `timeout`) while the send buffer is full.
    package func send(_ bytes: [UInt8], to destination: SocketAddress, timeout: Duration? = .seconds(1)) async throws {
        let socket = socket
        do {
            // A datagram nearly always goes out at once; only a full send buffer starts a timer.
            if try socket.trySend(bytes, to: destination) { return }
            try await withTimeout(after: timeout, on: clock, throwing: SocketFailure.timedOut) {
                repeat {
                    try await socket.wait(for: .writable)
                } while try !socket.trySend(bytes, to: destination)
            }
        } catch {
            throw error.ptpip(address: destination.description, during: "UDP send")
        }
    }

    /// The next datagram, or nil when none arrived within `timeout` (nil `timeout` waits until `close()`).
    ///
    /// Throws `.cancelled` after `close()` or task cancellation.
    package func receive(timeout: Duration?) async throws -> Datagram? {
        let socket = socket
        var buffer = [UInt8](repeating: 0, count: Self.maximumDatagram)
        do {
            // One already queued is taken without starting a timer.
            if let datagram = try Self.tryReceive(from: socket, into: &buffer) { return datagram }
            return try await withTimeout(after: timeout, on: clock, throwing: SocketFailure.timedOut) {
                var buffer = [UInt8](repeating: 0, count: Self.maximumDatagram)
                while true {
                    try await socket.wait(for: .readable)
                    if let datagram = try Self.tryReceive(from: socket, into: &buffer) { return datagram }
                }
            }
        } catch SocketFailure.timedOut {
            return nil
        } catch {
            throw error.ptpip(address: localAddress.description, during: "UDP receive")
        }
    }

    /// Reads one waiting datagram; nil when none is queued (or it came from an unknown address family).
    private static func tryReceive(from socket: Socket, into buffer: inout [UInt8]) throws(SocketFailure) -> Datagram? {
        guard let received = try socket.tryReceive(into: &buffer), let sender = received.sender else { return nil }
        return Datagram(bytes: Array(buffer[..<received.count]), sender: sender)
    }

    /// Stops the socket at once; a pending `receive` throws `.cancelled`. Idempotent; never blocks.
    package func close() {
        socket.close()
    }
}
