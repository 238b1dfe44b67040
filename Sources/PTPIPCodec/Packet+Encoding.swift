import ByteCoding

extension Packet {
    /// The size of the whole packet on the wire, header included.
    package var encodedLength: Int {
        let body: Int
        switch self {
        case let .initCommandRequest(request):
            body = 16 + 2 * (Self.friendlyNameUnits(request.friendlyName).count + 1) + 4
        case let .initCommandAck(ack):
            body = 4 + 16 + 2 * (Self.friendlyNameUnits(ack.friendlyName).count + 1) + 4
        case .initEventRequest, .initFail, .cancel: body = 4
        case .initEventAck, .probeRequest, .probeResponse: body = 0
        case let .operationRequest(request): body = 10 + 4 * request.parameters.count
        case let .operationResponse(response): body = 6 + 4 * response.parameters.count
        case let .event(event): body = 6 + 4 * event.parameters.count
        case .startData: body = 12
        case let .data(_, payload), let .endData(_, payload): body = 4 + payload.count
        }
        return PacketHeader.size + body
    }

    /// Appends the whole packet (header and body) to `writer`.
    package func encode(into writer: inout ByteWriter) {
        let length = encodedLength
        precondition(length <= Int(UInt32.max), "a PTP/IP packet cannot exceed 4 GiB")
        writer.writeInteger(UInt32(length))
        writer.writeInteger(type.rawValue)
        switch self {
        case let .initCommandRequest(request):
            writer.writeBytes(request.guid.bytes)
            Self.writeFriendlyName(request.friendlyName, into: &writer)
            writer.writeInteger(request.protocolVersion)
        case let .initCommandAck(ack):
            writer.writeInteger(ack.connectionNumber)
            writer.writeBytes(ack.guid.bytes)
            Self.writeFriendlyName(ack.friendlyName, into: &writer)
            writer.writeInteger(ack.protocolVersion)
        case let .initEventRequest(connectionNumber):
            writer.writeInteger(connectionNumber)
        case let .initFail(reason):
            writer.writeInteger(reason.rawValue)
        case let .cancel(transactionID):
            writer.writeInteger(transactionID)
        case .initEventAck, .probeRequest, .probeResponse:
            break
        case let .operationRequest(request):
            writer.writeInteger(request.dataPhase.rawValue)
            writer.writeInteger(request.code.rawValue)
            writer.writeInteger(request.transactionID)
            for parameter in request.parameters { writer.writeInteger(parameter) }
        case let .operationResponse(response):
            writer.writeInteger(response.code.rawValue)
            writer.writeInteger(response.transactionID)
            for parameter in response.parameters { writer.writeInteger(parameter) }
        case let .event(event):
            writer.writeInteger(event.code.rawValue)
            writer.writeInteger(event.transactionID)
            for parameter in event.parameters { writer.writeInteger(parameter) }
        case let .startData(transactionID, totalLength):
            writer.writeInteger(transactionID)
            writer.writeInteger(totalLength)
        case let .data(transactionID, payload), let .endData(transactionID, payload):
            writer.writeInteger(transactionID)
            writer.writeBytes(payload)
        }
    }

    /// The whole packet as bytes.
    package func encoded() -> [UInt8] {
        var writer = ByteWriter(order: .littleEndian, capacity: encodedLength)
        encode(into: &writer)
        return writer.bytes
    }

    /// The default largest Data packet `appendDataPhase` writes (payload bytes per Data packet).
    package static let defaultDataChunkSize = 1 << 20

    /// Appends a whole data phase: Start_Data, the payload in Data packets of at most `chunkSize` bytes,
    /// then an empty End_Data (the layout Sony cameras send and gphoto2 accepts).
    package static func appendDataPhase<Payload: Collection<UInt8>>(
        transactionID: UInt32, payload: Payload, chunkSize: Int = defaultDataChunkSize, into writer: inout ByteWriter
    ) {
        precondition(chunkSize > 0, "chunk size must be positive")
        Packet.startData(transactionID: transactionID, totalLength: UInt64(payload.count)).encode(into: &writer)
        var start = payload.startIndex
        while start != payload.endIndex {
            let end = payload.index(start, offsetBy: chunkSize, limitedBy: payload.endIndex) ?? payload.endIndex
            let count = payload.distance(from: start, to: end)
            writer.writeInteger(UInt32(PacketHeader.size + 4 + count))
            writer.writeInteger(PacketType.data.rawValue)
            writer.writeInteger(transactionID)
            writer.writeBytes(payload[start..<end])
            start = end
        }
        Packet.endData(transactionID: transactionID, payload: []).encode(into: &writer)
    }

    /// One buffer holding an Operation_Request with a data-out phase, ready for a single write.
    package static func encodeOperation<Payload: Collection<UInt8>>(
        _ request: OperationRequest, dataOut payload: Payload, chunkSize: Int = defaultDataChunkSize
    ) -> [UInt8] {
        let request = Packet.operationRequest(request)
        let chunks = payload.isEmpty ? 0 : (payload.count + chunkSize - 1) / chunkSize
        let capacity = request.encodedLength + 20 + chunks * 12 + payload.count + 12
        var writer = ByteWriter(order: .littleEndian, capacity: capacity)
        request.encode(into: &writer)
        guard case let .operationRequest(body) = request else { preconditionFailure("built above") }
        appendDataPhase(transactionID: body.transactionID, payload: payload, chunkSize: chunkSize, into: &writer)
        return writer.bytes
    }

    /// The UTF-16 code units of a friendly name as sent: NULs dropped, cut at a character boundary so that
    /// at most `PTPIPLimits.maximumFriendlyNameUnits` units remain.
    static func friendlyNameUnits(_ name: String) -> [UInt16] {
        var units: [UInt16] = []
        for character in name where character != "\u{0}" {
            let next = Array(character.utf16)
            if units.count + next.count > PTPIPLimits.maximumFriendlyNameUnits { break }
            units.append(contentsOf: next)
        }
        return units
    }

    private static func writeFriendlyName(_ name: String, into writer: inout ByteWriter) {
        for unit in friendlyNameUnits(name) { writer.writeInteger(unit) }
        writer.writeInteger(UInt16(0))
    }
}
