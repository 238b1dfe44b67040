import PTPIPCodec

/// A reliable, ordered byte stream to one peer: a TCP connection, or a test double.
///
/// The PTP/IP client and the simulated camera both speak through this, so it is symmetrical: the same
/// type comes out of `TCPTransport.connect` and `TCPListener.accept`. Timeouts are idle timeouts: the
/// longest a single call may wait for the peer to make progress. Errors are `PTPIPError`s naming the
/// peer's address; a call interrupted by `close()` or by task cancellation throws `.cancelled`.
package protocol Transport: AnyObject, Sendable {
    /// The peer's address as people read it ("192.168.122.1:15740", "[::1]:15740").
    var peerDescription: String { get }

    /// Writes every byte of `buffers`, in order, gathered into as few system calls as the kernel allows.
    ///
    /// Passing a request header and its payload as separate buffers sends them in one write without
    /// copying the payload.
    func send(_ buffers: [[UInt8]], timeout: Duration?) async throws

    /// Reads at least one and at most `maxCount` bytes; an empty result means the peer closed its side.
    ///
    /// Only one receive may run at a time on a transport.
    func receive(upTo maxCount: Int, timeout: Duration?) async throws -> [UInt8]

    /// Reads what has already arrived into `buffer`, without waiting: nil when nothing is there yet,
    /// 0 when the peer closed its side, else the number of bytes written (at most `buffer.count`).
    ///
    /// The caller's buffer is the destination, so a reader that owns its buffer (a `PacketFramer`)
    /// gets the bytes with one copy and no allocation. Never blocks. Like `receive`, one reader at a time.
    func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws -> Int?

    /// Waits until `readAvailable` has something to report (bytes, EOF or an error), at most `timeout`.
    ///
    /// A wakeup is a hint: `readAvailable` may still find nothing, and the caller then waits again.
    func waitUntilReadable(timeout: Duration?) async throws

    /// Closes the stream at once: pending and later calls fail, the peer sees EOF. Idempotent; never blocks.
    func close()
}

extension Transport {
    /// Writes every byte of `bytes`.
    package func send(_ bytes: [UInt8], timeout: Duration?) async throws {
        try await send([bytes], timeout: timeout)
    }

    /// Reads at least one byte straight into `framer` (at most `maximumCount`), waiting up to `timeout`
    /// each time nothing has arrived; returns the count, 0 when the peer closed its side.
    ///
    /// For a framer in a local variable; an actor's stored framer cannot be held across the wait, so
    /// the actor calls `PacketFramer.read(from:maximumCount:)` and `waitUntilReadable` itself.
    package func receive(into framer: inout PacketFramer, maximumCount: Int, timeout: Duration?) async throws -> Int {
        while true {
            if let count = try framer.read(from: self, maximumCount: maximumCount) { return count }
            try await waitUntilReadable(timeout: timeout)
        }
    }

    /// The incoming bytes as chunks of at most `maxChunk` bytes, ending at EOF.
    ///
    /// Each chunk is read only when the consumer asks for it, so a slow consumer slows the peer down
    /// (TCP flow control) instead of filling memory.
    package func chunks(maxChunk: Int = 256 * 1024, idleTimeout: Duration? = nil) -> TransportChunks {
        TransportChunks(transport: self, maxChunk: maxChunk, idleTimeout: idleTimeout)
    }
}

/// The bytes arriving on a `Transport`, as an `AsyncSequence` of chunks that ends at EOF.
package struct TransportChunks: AsyncSequence, Sendable {
    /// One chunk of received bytes (never empty).
    package typealias Element = [UInt8]

    let transport: any Transport
    let maxChunk: Int
    let idleTimeout: Duration?

    /// Reads chunk after chunk until EOF.
    package struct AsyncIterator: AsyncIteratorProtocol {
        let transport: any Transport
        let maxChunk: Int
        let idleTimeout: Duration?
        var finished = false

        /// The next chunk, or nil once the peer has closed its side.
        package mutating func next() async throws -> [UInt8]? {
            if finished { return nil }
            let chunk = try await transport.receive(upTo: maxChunk, timeout: idleTimeout)
            if chunk.isEmpty {
                finished = true
                return nil
            }
            return chunk
        }
    }

    /// Starts reading.
    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(transport: transport, maxChunk: maxChunk, idleTimeout: idleTimeout)
    }
}
