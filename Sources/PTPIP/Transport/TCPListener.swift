import Posix

/// A listening TCP socket that hands out `TCPTransport`s: the server side of the transport layer.
///
/// The simulated camera serves PTP/IP through this; tests bind to port 0 and read `port` back.
package final class TCPListener: Sendable {
    private let socket: Socket
    /// The address actually bound (with the kernel-chosen port when asked for port 0).
    package let localAddress: SocketAddress

    /// The bound port.
    package var port: UInt16 { localAddress.port }

    private init(socket: Socket, localAddress: SocketAddress) {
        self.socket = socket
        self.localAddress = localAddress
    }

    deinit {
        socket.close()
    }

    /// Binds to `host` (an IPv4 or IPv6 literal; "::" or "0.0.0.0" for every interface) and `port`
    /// (0 lets the kernel choose) and starts listening.
    package static func bind(host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 16) throws -> TCPListener {
        guard let address = SocketAddress(numericHost: host, port: port) else {
            throw PTPIPError.invalidState("cannot listen on '\(host)': not an IPv4 or IPv6 address")
        }
        do {
            let socket = try Socket(family: address.family)
            do {
                try socket.listen(on: address, backlog: backlog)
                return TCPListener(socket: socket, localAddress: try socket.localAddress() ?? address)
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
        let deadline = MonotonicTime.deadline(after: timeout)
        do {
            while true {
                if let (client, peer) = try socket.tryAccept() {
                    let description = peer?.description ?? "an unknown peer"
                    return TCPTransport(socket: client, peer: peer, description: description)
                }
                try await socket.wait(for: .readable, deadline: deadline)
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
