import Posix
import Synchronization
import Timing

/// A `Transport` over a non-blocking TCP socket with `TCP_NODELAY`.
///
/// Requests are small and latency-bound (each PTP operation is a round trip), so Nagle's algorithm
/// is off. Waits never occupy a pool thread: they park on the shared `IOEventLoop`. Timeouts are measured
/// on the injected clock (`withTimeout`), so a test clock decides when a silent peer times out.
package final class TCPTransport: Transport {
    /// Size of the reusable receive buffer; also the largest chunk one `receive` returns.
    static let scratchSize = 256 * 1024

    private let socket: Socket
    /// The peer's address ("host:port").
    package let peerDescription: String
    /// The peer's address, when the kernel reported one.
    package let peerAddress: SocketAddress?
    /// The clock every timeout of this connection is measured on.
    package let clock: any Clock<Duration>
    private let receiving = Atomic(false)
    /// Reused by every receive (only one runs at a time), so a read allocates only its right-sized result.
    private nonisolated(unsafe) let scratch: UnsafeMutableRawBufferPointer

    init(socket: Socket, peer: SocketAddress?, description: String, clock: any Clock<Duration>) {
        self.socket = socket
        self.peerAddress = peer
        self.peerDescription = description
        self.clock = clock
        self.scratch = .allocate(byteCount: Self.scratchSize, alignment: 16)
        // Best effort: a socket that refuses TCP_NODELAY still works, only slower.
        try? socket.setNoDelay()
    }

    deinit {
        socket.close()
        scratch.deallocate()
    }

    /// Connects to `host` (an IPv4 or IPv6 literal, or a name) within `timeout` on `clock` (resolution
    /// included); the connection then measures its timeouts on `clock` too.
    ///
    /// Each resolved address is tried in turn; the error of the last attempt is thrown if none accepts.
    package static func connect(
        host: String, port: UInt16, timeout: Duration?, clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> TCPTransport {
        let stopwatch = Stopwatch(clock: clock)
        // A literal needs no lookup, so no timer either.
        var addresses = SocketAddress(numericHost: host, port: port).map { [$0] } ?? []
        if addresses.isEmpty {
            addresses = try await withTimeout(
                after: timeout, on: clock,
                throwing: PTPIPError.timedOut(address: "\(host):\(port)", during: "name resolution")
            ) {
                do {
                    return try await SocketAddress.resolve(host: host, port: port)
                } catch let failure as NameResolutionFailure {
                    throw PTPIPError.nameResolutionFailed(host: failure.host, reason: failure.reason)
                } catch is CancellationError {
                    throw PTPIPError.cancelled(during: "name resolution of \(host)")
                }
            }
        }
        var lastError: any Error = PTPIPError.nameResolutionFailed(host: host, reason: "no address")
        for address in addresses {
            do {
                let socket = try Socket(family: address.family)
                do {
                    try await withTimeout(
                        after: timeout.map(stopwatch.remaining), on: clock, throwing: SocketFailure.timedOut
                    ) {
                        try await socket.connect(to: address)
                    }
                } catch {
                    socket.close()
                    throw error
                }
                return TCPTransport(socket: socket, peer: address, description: address.description, clock: clock)
            } catch {
                lastError = error.ptpip(address: address.description, during: "connect")
                if Task.isCancelled { throw lastError }
            }
        }
        throw lastError
    }

    package func send(_ buffers: [[UInt8]], timeout: Duration?) async throws {
        let total = buffers.reduce(0) { $0 + $1.count }
        var written = 0
        do {
            while written < total {
                if let count = try socket.tryWrite(buffers, skipping: written) {
                    written += count
                } else {
                    try await wait(for: .writable, timeout: timeout)
                }
            }
        } catch {
            throw error.ptpip(address: peerDescription, during: "send")
        }
    }

    package func receive(upTo maxCount: Int, timeout: Duration?) async throws -> [UInt8] {
        precondition(maxCount > 0, "receive needs room for at least one byte")
        try enterReceive()
        defer { leaveReceive() }
        let window = UnsafeMutableRawBufferPointer(rebasing: scratch[..<min(maxCount, scratch.count)])
        while true {
            if let count = try read(into: window) {
                return [UInt8](UnsafeRawBufferPointer(rebasing: window[..<count]))
            }
            try await waitReadable(timeout: timeout)
        }
    }

    package func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        try enterReceive()
        defer { leaveReceive() }
        return try read(into: buffer)
    }

    package func waitUntilReadable(timeout: Duration?) async throws {
        try enterReceive()
        defer { leaveReceive() }
        try await waitReadable(timeout: timeout)
    }

    /// Claims the single receiver slot; a second reader at the same time is our bug, reported as an error.
    private func enterReceive() throws {
        guard !receiving.exchange(true, ordering: .acquiring) else {
            throw PTPIPError.invalidState("two receives at once on the connection to \(peerDescription)")
        }
    }

    private func leaveReceive() {
        receiving.store(false, ordering: .releasing)
    }

    /// One non-blocking read (nil: nothing yet, 0: EOF), errors mapped to `PTPIPError`.
    private func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        do {
            return try socket.tryRead(into: buffer)
        } catch {
            throw error.ptpip(address: peerDescription, during: "receive")
        }
    }

    /// Parks on the event loop until the socket is readable, errors mapped to `PTPIPError`.
    private func waitReadable(timeout: Duration?) async throws {
        do {
            try await wait(for: .readable, timeout: timeout)
        } catch {
            throw error.ptpip(address: peerDescription, during: "receive")
        }
    }

    /// Parks on the event loop until the socket is ready for `interest`, at most `timeout` on the clock
    /// (an idle timeout: each wait has the whole of it).
    private func wait(for interest: IOInterest, timeout: Duration?) async throws {
        let socket = socket
        try await withTimeout(after: timeout, on: clock, throwing: SocketFailure.timedOut) {
            try await socket.wait(for: interest)
        }
    }

    package func close() {
        socket.close()
    }
}

extension SocketFailure {
    /// The layer's error for this failure, naming the peer and what we were doing.
    func ptpip(address: String, during: String) -> PTPIPError {
        switch self {
        case .timedOut:
            return .timedOut(address: address, during: during)
        case .closed, .cancelled:
            return .cancelled(during: "\(during) (\(address))")
        case let .system(errno, call):
            switch errno {
            case .connectionRefused: return .connectionRefused(address: address)
            case .hostUnreachable: return .hostUnreachable(address: address)
            case .networkUnreachable: return .networkUnreachable(address: address)
            case .timedOut: return .timedOut(address: address, during: during)
            case .connectionReset, .brokenPipe: return .connectionReset(during: "\(during) (\(address))")
            default: return .systemCallFailed(call: call, errno: errno)
            }
        }
    }
}

extension Error {
    /// Maps socket failures to `PTPIPError`; passes other errors (already `PTPIPError`) through.
    func ptpip(address: String, during: String) -> any Error {
        if let failure = self as? SocketFailure { return failure.ptpip(address: address, during: during) }
        return self
    }
}
