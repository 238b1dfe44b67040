import PTPIPCodec

extension PacketFramer {
    /// Reads what `transport` has ready straight into the framer's buffer, without waiting: nil when
    /// nothing has arrived yet, 0 when the peer closed its side, else the number of bytes added.
    ///
    /// One copy, kernel to framer, and no allocation once the buffer has reached its working size. Call
    /// `nextPacket()`/`nextFrame()` first; a failed framer takes no bytes and this throws its error (as `.malformed`).
    package mutating func read(from transport: some Transport, maximumCount: Int) throws -> Int? {
        if let failure { throw PTPIPError.malformed(failure) }
        var outcome: Int?
        try fill(maximumCount: maximumCount) { room in
            outcome = try transport.readAvailable(into: room)
            return outcome ?? 0
        }
        return outcome
    }
}

extension PacketFramer {
    /// `nextPacket()` for a reader of a connection: the codec's error becomes the layer's `PTPIPError.malformed`.
    mutating func nextPacketOrMalformed() throws(PTPIPError) -> Packet? {
        do {
            return try nextPacket()
        } catch {
            throw .malformed(error)
        }
    }

    /// What a close inside a packet is said to interrupt, unless the caller names its activity.
    package static let midPacketActivity = "receive (in the middle of a packet)"

    /// The next whole packet, reading from `transport` (at most `maximumCount` bytes at a time, waiting up to
    /// `timeout` whenever nothing has arrived) until the framer has one: the one "read until a packet" of
    /// the client's handshake and the simulated camera.
    ///
    /// Nil when the peer closed its side between packets; a close inside a packet throws
    /// `.peerClosed(during: during)`. For a framer in a local variable (an actor reads into its stored
    /// framer with `read(from:maximumCount:)` and `waitUntilReadable` itself).
    package mutating func nextPacket(
        from transport: some Transport, maximumCount: Int = 64 * 1024, timeout: Duration?,
        during: String = midPacketActivity
    ) async throws -> Packet? {
        while true {
            if let packet = try nextPacketOrMalformed() { return packet }
            let count = try await transport.receive(into: &self, maximumCount: maximumCount, timeout: timeout)
            if count == 0 {
                if isAtPacketBoundary { return nil }
                throw PTPIPError.peerClosed(during: during)
            }
        }
    }
}
