import Posix
import Timing

/// A listening TCP socket that hands out `TCPTransport`s: the server side of the transport layer.
///
/// The simulated camera serves PTP/IP through this; tests bind to port 0 and read `port` back.
package final class TCPListener: Sendable {
    private let socket: Socket
    /// The address actually bound (with the kernel-chosen port when asked for port 0).
    package let localAddress: SocketAddress
    /// The clock `accept`'s timeout, and every timeout of the accepted connections, are measured on.
    package let clock: any Clock<Duration>

    /// The bound port.
    package var port: UInt16 { localAddress.port }

    private init(socket: Socket, localAddress: SocketAddress, clock: any Clock<Duration>) {
        self.socket = socket
        self.localAddress = localAddress
        self.clock = clock
    }

    deinit {
        socket.close()
    }

    /// Binds to `host` (an IPv4 or IPv6 literal; "::" or "0.0.0.0" for every interface) and `port`
    /// (0 lets the kernel choose) and starts listening; timeouts are measured on `clock`.
    package static func bind(
        host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 16,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws -> TCPListener {
        guard let address = SocketAddress(numericHost: host, port: port) else {
            throw PTPIPError.invalidState("cannot listen on '\(host)': not an IPv4 or IPv6 address")
        }
        do {
            let socket = try Socket(family: address.family)
            do {
                try socket.listen(on: address, backlog: backlog)
                return TCPListener(socket: socket, localAddress: try socket.localAddress() ?? address, clock: clock)
            } catch {
                socket.close()
                throw error
            }
        } catch {
            throw error.ptpip(address: address.description, during: "listen")
        }
    }

    /// Waits for the next connection; nil `timeout` waits until `close()` or task cancellation.
    ///
    /// Throws `.timedOut` when `timeout` passes and `.cancelled` after `close()` or task cancellation.
    package func accept(timeout: Duration? = nil) async throws -> TCPTransport {
        let (socket, clock) = (socket, clock)
        // The next queued connection, if one is waiting.
        @Sendable func next() throws(SocketFailure) -> TCPTransport? {
            guard let (client, peer) = try socket.tryAccept() else { return nil }
            return TCPTransport(
                socket: client, peer: peer, description: peer?.description ?? "an unknown peer", clock: clock)
        }
        do {
            // A connection already queued is taken without starting a timer.
            if let transport = try next() { return transport }
            return try await withTimeout(after: timeout, on: clock, throwing: SocketFailure.timedOut) {
                while true {
                    try await socket.wait(for: .readable)
                    if let transport = try next() { return transport }
                }
            }
        } catch {
            throw error.ptpip(address: localAddress.description, during: "accept")
        }
    }

    /// Stops listening at once; a pending `accept` throws `.cancelled`. Idempotent; never blocks.
    package func close() {
        socket.close()
    }
}
