extension PacketFramer {
    /// Reads what `transport` has ready straight into the framer's buffer, without waiting: nil when
    /// nothing has arrived yet, 0 when the peer closed its side, else the number of bytes added.
    ///
    /// One copy, kernel to framer, and no allocation once the buffer has reached its working size. Call
    /// `nextPacket()`/`nextFrame()` first; a failed framer takes no bytes and this throws its error.
    package mutating func read(from transport: some Transport, maximumCount: Int) throws -> Int? {
        if let failure { throw failure }
        var outcome: Int?
        try fill(maximumCount: maximumCount) { room in
            outcome = try transport.readAvailable(into: room)
            return outcome ?? 0
        }
        return outcome
    }
}
