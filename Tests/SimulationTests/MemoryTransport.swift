import PTPIP
import PTPIPCodec
import Synchronization
import TestSupport

/// One end of an in-memory byte stream: what the client (the real `PTPIPClient`) holds. What it sends goes
/// straight to the simulated body (`WorldBody.received`), which answers at once by `deliver`ing bytes back; no
/// socket, no thread. Timeouts are not measured: the body never hangs in this world, so a wait ends when bytes,
/// EOF or a cancellation arrive.
final class MemoryTransport: Transport, @unchecked Sendable {
    private struct State {
        var incoming: [UInt8] = []
        var peerClosed = false
        var closed = false
        var waiter: CheckedContinuation<Void, any Error>?
    }

    let peerDescription: String
    let connection: Int
    private let state = Mutex(State())
    private let onSend: @Sendable (Int, [UInt8]) -> Void
    private let onClose: @Sendable (Int) -> Void
    /// The world's clock: a wait's timeout is measured on it.
    private let clock: TestClock

    init(
        connection: Int, peer: String, clock: TestClock,
        onSend: @escaping @Sendable (Int, [UInt8]) -> Void, onClose: @escaping @Sendable (Int) -> Void
    ) {
        self.connection = connection
        self.peerDescription = peer
        self.clock = clock
        self.onSend = onSend
        self.onClose = onClose
    }

    // MARK: - The body's side

    /// Bytes from the body.
    func deliver(_ bytes: [UInt8]) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.closed, !state.peerClosed else { return nil }
            state.incoming += bytes
            return Self.take(&state)
        }
        waiter?.resume()
    }

    /// The body closed its side (a drop): the client reads what arrived, then EOF.
    func closeFromPeer() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.peerClosed = true
            return Self.take(&state)
        }
        waiter?.resume()
    }

    var isOpen: Bool { state.withLock { !$0.closed && !$0.peerClosed } }

    // MARK: - Transport

    func send(_ buffers: [[UInt8]], timeout: Duration?) async throws {
        let (closed, peerClosed) = state.withLock { ($0.closed, $0.peerClosed) }
        if closed { throw PTPIPError.cancelled(during: "send") }
        if peerClosed { throw PTPIPError.connectionReset(during: "send") }
        onSend(connection, Array(buffers.joined()))
    }

    func receive(upTo maxCount: Int, timeout: Duration?) async throws -> [UInt8] {
        while true {
            let taken = try state.withLock { state -> [UInt8]? in
                if state.closed { throw PTPIPError.cancelled(during: "receive") }
                if !state.incoming.isEmpty {
                    let count = min(maxCount, state.incoming.count)
                    defer { state.incoming.removeFirst(count) }
                    return Array(state.incoming.prefix(count))
                }
                return state.peerClosed ? [] : nil
            }
            if let taken { return taken }
            try await waitUntilReadable(timeout: timeout)
        }
    }

    func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        try state.withLock { state -> Int? in
            if state.closed { throw PTPIPError.cancelled(during: "receive") }
            if state.incoming.isEmpty { return state.peerClosed ? 0 : nil }
            let count = min(buffer.count, state.incoming.count)
            state.incoming.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: count)
            }
            state.incoming.removeFirst(count)
            return count
        }
    }

    func waitUntilReadable(timeout: Duration?) async throws {
        guard let timeout else { return try await waitForBytes() }
        // The wait races the timeout on the world's clock, as TCPTransport's races its own clock.
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await self.waitForBytes()
                return true
            }
            group.addTask {
                try await self.clock.sleep(for: timeout)
                return false
            }
            let arrived = try await group.next() ?? false
            group.cancelAll()
            if !arrived { throw PTPIPError.timedOut(address: peerDescription, during: "receive") }
        }
    }

    private func waitForBytes() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Bool in
                    if state.closed || state.peerClosed || !state.incoming.isEmpty || Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in Self.take(&state) }
            waiter?.resume(throwing: PTPIPError.cancelled(during: "receive"))
        }
        if Task.isCancelled { throw PTPIPError.cancelled(during: "receive") }
    }

    /// Takes the waiter to resume. Its job goes on the world's executor at once, so the world is not idle until it
    /// ran (`SimulationWorld.settle`).
    private static func take(_ state: inout State) -> CheckedContinuation<Void, any Error>? {
        guard let waiter = state.waiter else { return nil }
        state.waiter = nil
        return waiter
    }

    func close() {
        let (waiter, wasOpen) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, Bool) in
            let wasOpen = !state.closed
            state.closed = true
            return (Self.take(&state), wasOpen)
        }
        waiter?.resume(throwing: PTPIPError.cancelled(during: "receive"))
        if wasOpen { onClose(connection) }
    }
}
