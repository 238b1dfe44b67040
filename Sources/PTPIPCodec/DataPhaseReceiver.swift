/// Checks one incoming data phase (Start_Data, Data..., End_Data) and passes its payload to a sink.
///
/// Pure protocol bookkeeping shared by the client (data-in) and the simulator (data-out): the transaction
/// id must match throughout, Start_Data must come first, and the payload must add up to exactly the
/// announced total length. Payload slices go to the sink as they arrive, so a 50 MB image is never held
/// twice. Frames that are not part of a data phase (an Operation_Response answering without data, say)
/// are left to the caller.
package struct DataPhaseReceiver: Sendable {
    /// Where the data phase stands.
    package enum State: Sendable, Equatable {
        /// Waiting for Start_Data.
        case awaitingStart
        /// Start_Data came; `received` of `total` payload bytes so far.
        case receiving(total: UInt64, received: UInt64)
        /// End_Data came and the payload added up to `total`.
        case complete(total: UInt64)
    }

    /// The transaction whose data phase this is.
    package let transactionID: UInt32
    /// Where the data phase stands.
    package private(set) var state: State = .awaitingStart

    /// Creates a receiver for the data phase of `transactionID`.
    package init(transactionID: UInt32) { self.transactionID = transactionID }

    /// Whether End_Data came and the total matched.
    package var isComplete: Bool {
        if case .complete = state { return true }
        return false
    }

    /// Feeds a frame from `PacketFramer.nextFrame()`; returns false when the frame is no part of a data
    /// phase (the caller handles it). Payload goes to `sink`; protocol breaches throw `.dataPhaseViolation`.
    package mutating func accept(
        _ frame: Frame, sink: (ArraySlice<UInt8>) -> Void
    ) throws(PTPIPCodecError) -> Bool {
        switch frame {
        case let .packet(packet):
            return try accept(packet, sink: sink)
        case let .dataChunk(piece):
            try receive(
                type: piece.type, transactionID: piece.transactionID, bytes: piece.bytes,
                endsPacket: piece.isLastChunkOfPacket, sink: sink)
            return true
        }
    }

    /// Feeds a whole packet from `PacketFramer.nextPacket()`; returns false when the packet is no part of
    /// a data phase (the caller handles it). Payload goes to `sink`; protocol breaches throw `.dataPhaseViolation`.
    package mutating func accept(
        _ packet: Packet, sink: (ArraySlice<UInt8>) -> Void
    ) throws(PTPIPCodecError) -> Bool {
        switch packet {
        case let .startData(transactionID, totalLength):
            try checkTransaction(transactionID, in: "Start_Data")
            guard case .awaitingStart = state else {
                throw PTPIPCodecError.dataPhaseViolation(expected: "Data or End_Data", received: "a second Start_Data")
            }
            state = .receiving(total: totalLength, received: 0)
            return true
        case let .data(transactionID, payload):
            try receive(type: .data, transactionID: transactionID, bytes: payload, endsPacket: true, sink: sink)
            return true
        case let .endData(transactionID, payload):
            try receive(type: .endData, transactionID: transactionID, bytes: payload, endsPacket: true, sink: sink)
            return true
        default:
            return false
        }
    }

    private mutating func receive(
        type: PacketType, transactionID: UInt32, bytes: ArraySlice<UInt8>, endsPacket: Bool,
        sink: (ArraySlice<UInt8>) -> Void
    ) throws(PTPIPCodecError) {
        try checkTransaction(transactionID, in: type == .data ? "Data" : "End_Data")
        guard case let .receiving(total, received) = state else {
            let expected = isComplete ? "Operation_Response after End_Data" : "Start_Data"
            throw PTPIPCodecError.dataPhaseViolation(expected: expected, received: "\(type)")
        }
        let now = received + UInt64(bytes.count)
        guard now <= total else {
            throw PTPIPCodecError.dataPhaseViolation(
                expected: "\(total) bytes of data as Start_Data announced", received: "at least \(now) bytes")
        }
        if !bytes.isEmpty { sink(bytes) }
        if type == .endData, endsPacket {
            guard now == total else {
                throw PTPIPCodecError.dataPhaseViolation(
                    expected: "\(total) bytes of data as Start_Data announced", received: "\(now) bytes before End_Data"
                )
            }
            state = .complete(total: total)
        } else {
            state = .receiving(total: total, received: now)
        }
    }

    private func checkTransaction(_ received: UInt32, in packet: String) throws(PTPIPCodecError) {
        guard received == transactionID else {
            throw PTPIPCodecError.dataPhaseViolation(
                expected: "\(packet) for transaction \(transactionID)",
                received: "\(packet) for transaction \(received)")
        }
    }
}
