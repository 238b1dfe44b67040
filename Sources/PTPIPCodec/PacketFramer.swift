import ByteCoding

/// Cuts a PTP/IP byte stream (one TCP connection) into packets, whatever the split of the bytes.
///
/// Feed bytes with `fill` (a socket read straight into the framer's buffer) or `append`, then call `nextPacket()`
/// (whole packets) or `nextFrame()` (Data and End_Data payloads streamed as chunks) until it returns nil, which means
/// "need more bytes".
/// A declared length below 8, above the packet type's own limit or above the configured maximum, and
/// an unknown packet type are errors as soon as the header arrives, before any of the body is kept.
/// After an error the framer stays failed: the connection is out of step and must be closed.
package struct PacketFramer: Sendable {
    /// The default largest packet `nextPacket()` buffers whole (16 MiB).
    package static let defaultMaximumPacketLength = 16 << 20

    /// Payloads at least this large are handed over without copying when they fill the buffer exactly.
    static let handOverThreshold = 64 << 10

    /// Largest packet buffered whole: every packet in `nextPacket()`, all but Data/End_Data in `nextFrame()`.
    package let maximumPacketLength: Int
    /// Largest Data/End_Data packet `nextFrame()` streams (never buffered whole).
    package let maximumStreamedPacketLength: Int

    /// Received bytes live in `buffer[readIndex..<writeIndex]`; the rest of the array is room for the
    /// next read. `buffer.count` only grows (zero-filled, once per high-water mark), so reading into the
    /// framer costs no allocation and no zero-fill in the steady state.
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var writeIndex = 0
    private var state: State = .betweenPackets

    private enum State: Sendable {
        case betweenPackets
        /// Inside a Data/End_Data packet in streaming mode, with `remaining` payload bytes still to come.
        case streaming(type: PacketType, transactionID: UInt32, remaining: Int)
        case failed(PTPIPCodecError)
    }

    /// Creates a framer; `maximumPacketLength` bounds what is buffered, and must cover the 8-byte header.
    package init(
        maximumPacketLength: Int = defaultMaximumPacketLength, maximumStreamedPacketLength: Int = Int(UInt32.max)
    ) {
        precondition(maximumPacketLength >= PacketHeader.size, "the maximum must allow the 8-byte header")
        self.maximumPacketLength = maximumPacketLength
        self.maximumStreamedPacketLength = max(maximumStreamedPacketLength, maximumPacketLength)
    }

    /// Bytes received but not yet returned as packets or chunks.
    package var bufferedByteCount: Int { writeIndex - readIndex }

    /// The error that broke the stream, once `nextPacket()` or `nextFrame()` has thrown one.
    package var failure: PTPIPCodecError? {
        if case let .failed(error) = state { return error }
        return nil
    }

    /// Bytes the buffer holds without growing (received ones included); it never shrinks.
    package var capacity: Int { buffer.count }

    /// Whether the stream ends cleanly here: nothing buffered and no packet half-received.
    /// An EOF when this is false means the peer closed mid-packet.
    package var isAtPacketBoundary: Bool {
        if case .betweenPackets = state { return bufferedByteCount == 0 }
        return false
    }

    // MARK: - Feeding bytes

    /// Appends received bytes.
    package mutating func append<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        let count = bytes.count
        fill(maximumCount: count) { room in
            room.copyBytes(from: bytes)
            return count
        }
    }

    /// Appends received bytes from raw memory.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        fill(maximumCount: bytes.count) { room in
            room.copyMemory(from: bytes)
            return bytes.count
        }
    }

    /// Lets a transport read straight into the framer's buffer, right after the bytes already there:
    /// `body` gets room for exactly `maximumCount` bytes and returns how many it wrote (0...maximumCount).
    /// Returns that count.
    ///
    /// The room is reused from call to call: the buffer grows (zero-filled) only when it has never been
    /// this large, and a partial packet moves to the front only when the room behind it is too small.
    /// If `body` throws, nothing it wrote counts and the framer's content is unchanged. Once the framer has
    /// failed, `body` is not called and 0 is returned: check `nextPacket()`/`nextFrame()` first, which throw.
    ///
    /// Chunks from `nextFrame()` share the buffer's storage: drop them before the next `fill` or `append`.
    /// A chunk still held then stays correct (copy-on-write), but that copies the whole buffer.
    @discardableResult
    package mutating func fill(
        maximumCount: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Int
    ) rethrows -> Int {
        precondition(maximumCount >= 0, "negative read size")
        if case .failed = state { return 0 }
        makeRoom(for: maximumCount)
        let start = writeIndex
        let written = try buffer.withUnsafeMutableBytes { raw in
            try body(UnsafeMutableRawBufferPointer(rebasing: raw[start..<(start + maximumCount)]))
        }
        precondition(written >= 0 && written <= maximumCount, "fill body returned an impossible count")
        writeIndex += written
        return written
    }

    /// Ensures `count` bytes of room after `writeIndex`: free, by moving the unread tail to the front, or
    /// by growing the array to exactly the room needed.
    ///
    /// The tail moves when the room behind it is too small, or when it is no larger than the consumed
    /// bytes before it: then the move costs less than the bytes already consumed (amortised O(1) per byte)
    /// and happens while the tail is short, instead of after a large partial packet has grown behind it.
    private mutating func makeRoom(for count: Int) {
        if readIndex == writeIndex {
            // Everything was consumed: start over at the front, nothing to move.
            readIndex = 0
            writeIndex = 0
        }
        let unread = writeIndex - readIndex
        if readIndex > 0, unread <= readIndex || buffer.count - writeIndex < count {
            // Only the tail of a partial packet moves: whole packets were consumed already.
            let from = readIndex
            buffer.withUnsafeMutableBytes { raw in
                // Overlapping ranges are fine: this is a memmove.
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + from, byteCount: unread)
            }
            readIndex = 0
            writeIndex = unread
        }
        if buffer.count - writeIndex >= count { return }
        // Zero-fill only up to the new high-water mark; the array's own geometric growth keeps this
        // amortised when the mark creeps up (a large packet buffered whole, read by read).
        buffer.append(contentsOf: [UInt8](repeating: 0, count: writeIndex + count - buffer.count))
    }

    // MARK: - Taking packets out

    /// The next whole packet, or nil when more bytes are needed. Data payloads are copied at most once
    /// (not at all when a large packet fills the buffer exactly).
    package mutating func nextPacket() throws(PTPIPCodecError) -> Packet? {
        switch state {
        case let .failed(error): throw error
        case .streaming: preconditionFailure("nextPacket() called while nextFrame() streams a data packet")
        case .betweenPackets: break
        }
        do {
            guard let (length, type) = try peekHeader(streamData: false) else { return nil }
            guard bufferedByteCount >= length else { return nil }
            let start = readIndex
            let end = start + length
            readIndex = end
            if type == .data || type == .endData {
                return try takeDataPacket(type: type, start: start, end: end)
            }
            return try Packet.decode(type: type, body: buffer[(start + PacketHeader.size)..<end])
        } catch {
            let failure = PTPIPCodecError.wrap(error)
            state = .failed(failure)
            throw failure
        }
    }

    /// The next packet or Data/End_Data payload chunk, or nil when more bytes are needed.
    ///
    /// Data and End_Data packets are never buffered whole: their payload comes out in chunks as it
    /// arrives, each chunk a slice of the framer's buffer (use it before the next `fill`/`append`;
    /// keeping it longer is safe but makes that call copy the whole buffer). Every Data/End_Data packet yields at least
    /// one chunk, and exactly one chunk has `isLastChunkOfPacket` set.
    package mutating func nextFrame() throws(PTPIPCodecError) -> Frame? {
        do {
            switch state {
            case let .failed(error):
                throw error
            case let .streaming(type, transactionID, remaining):
                return takeChunk(type: type, transactionID: transactionID, remaining: remaining)
            case .betweenPackets:
                guard let (length, type) = try peekHeader(streamData: true) else { return nil }
                if type == .data || type == .endData {
                    let prefix = PacketHeader.size + 4
                    guard length >= prefix else {
                        throw PTPIPCodecError.layout(
                            .truncated(field: "transactionID", needed: 4, available: length - 8))
                    }
                    guard bufferedByteCount >= prefix else { return nil }
                    var reader = ByteReader(slice: buffer[(readIndex + PacketHeader.size)..<(readIndex + prefix)])
                    let transactionID = try reader.readInteger(UInt32.self, field: "transactionID")
                    readIndex += prefix
                    if length == prefix {
                        return .dataChunk(
                            DataChunk(
                                type: type, transactionID: transactionID, bytes: [], isLastChunkOfPacket: true))
                    }
                    state = .streaming(type: type, transactionID: transactionID, remaining: length - prefix)
                    return takeChunk(type: type, transactionID: transactionID, remaining: length - prefix)
                }
                guard bufferedByteCount >= length else { return nil }
                let start = readIndex
                readIndex += length
                return .packet(
                    try Packet.decode(type: type, body: buffer[(start + PacketHeader.size)..<(start + length)]))
            }
        } catch {
            let failure = PTPIPCodecError.wrap(error)
            state = .failed(failure)
            throw failure
        }
    }

    /// Validates the header at `readIndex` as soon as its bytes are there; nil until the 8 bytes arrived.
    private func peekHeader(streamData: Bool) throws -> (length: Int, type: PacketType)? {
        let available = bufferedByteCount
        guard available >= 4 else { return nil }
        var reader = ByteReader(slice: buffer[readIndex..<(readIndex + min(available, PacketHeader.size))])
        let declared = try reader.readInteger(UInt32.self, field: "length")
        guard declared >= PacketHeader.size else { throw PTPIPCodecError.packetTooShort(declaredLength: declared) }
        let absoluteMaximum = streamData ? maximumStreamedPacketLength : maximumPacketLength
        guard UInt64(declared) <= UInt64(absoluteMaximum) else {
            throw PTPIPCodecError.packetTooLarge(declaredLength: declared, maximum: absoluteMaximum, type: nil)
        }
        guard available >= PacketHeader.size else { return nil }
        let rawType = try reader.readInteger(UInt32.self, field: "packetType")
        guard let type = PacketType(rawValue: rawType) else { throw PTPIPCodecError.unknownPacketType(rawType) }
        let isStreamed = streamData && (type == .data || type == .endData)
        let limit = min(type.maximumLength ?? Int.max, isStreamed ? maximumStreamedPacketLength : maximumPacketLength)
        guard UInt64(declared) <= UInt64(limit) else {
            throw PTPIPCodecError.packetTooLarge(declaredLength: declared, maximum: limit, type: type)
        }
        return (Int(declared), type)
    }

    /// Decodes a complete Data/End_Data packet at `start..<end`, copying its payload at most once.
    private mutating func takeDataPacket(type: PacketType, start: Int, end: Int) throws -> Packet {
        let prefix = start + PacketHeader.size + 4
        guard end >= prefix else {
            throw PTPIPCodecError.layout(.truncated(field: "transactionID", needed: 4, available: end - start - 8))
        }
        var reader = ByteReader(slice: buffer[(start + PacketHeader.size)..<prefix])
        let transactionID = try reader.readInteger(UInt32.self, field: "transactionID")
        let payload: ArraySlice<UInt8>
        if start == 0, end == writeIndex, end - prefix >= Self.handOverThreshold {
            // The packet is all the buffer holds: hand the storage over instead of copying it.
            let whole = buffer
            buffer = []
            readIndex = 0
            writeIndex = 0
            payload = whole[prefix..<end]
        } else {
            payload = Array(buffer[prefix..<end])[...]
        }
        return type == .data
            ? .data(transactionID: transactionID, payload: payload)
            : .endData(transactionID: transactionID, payload: payload)
    }

    private mutating func takeChunk(type: PacketType, transactionID: UInt32, remaining: Int) -> Frame? {
        let count = min(bufferedByteCount, remaining)
        guard count > 0 else { return nil }
        let chunk = buffer[readIndex..<(readIndex + count)]
        readIndex += count
        let left = remaining - count
        state = left == 0 ? .betweenPackets : .streaming(type: type, transactionID: transactionID, remaining: left)
        return .dataChunk(
            DataChunk(type: type, transactionID: transactionID, bytes: chunk, isLastChunkOfPacket: left == 0))
    }
}

/// What `PacketFramer.nextFrame()` returns: a whole packet, or a piece of a Data/End_Data payload.
package enum Frame: Sendable, Equatable {
    /// Any packet other than Data and End_Data.
    case packet(Packet)
    /// A piece of a Data or End_Data packet's payload.
    case dataChunk(DataChunk)
}

/// A piece of the payload of one Data or End_Data packet, as it arrived.
package struct DataChunk: Sendable, Equatable {
    /// `.data` or `.endData`.
    package var type: PacketType
    /// The transaction the data belongs to.
    package var transactionID: UInt32
    /// The payload bytes (may be empty for an empty packet).
    package var bytes: ArraySlice<UInt8>
    /// Whether this chunk completes its packet (for End_Data: the data phase is over).
    package var isLastChunkOfPacket: Bool

    /// Creates a chunk.
    package init(type: PacketType, transactionID: UInt32, bytes: ArraySlice<UInt8>, isLastChunkOfPacket: Bool) {
        self.type = type
        self.transactionID = transactionID
        self.bytes = bytes
        self.isLastChunkOfPacket = isLastChunkOfPacket
    }
}
