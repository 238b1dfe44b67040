import ByteCoding

extension Packet {
    /// Decodes one whole packet (header included); the buffer must hold exactly the declared length.
    package static func decode(_ bytes: [UInt8]) throws(PTPIPCodecError) -> Packet {
        try decode(packet: bytes[...])
    }

    /// Decodes one whole packet (header included) from a slice, sharing its storage for Data payloads.
    package static func decode(packet bytes: ArraySlice<UInt8>) throws(PTPIPCodecError) -> Packet {
        var reader = ByteReader(slice: bytes)
        let length: UInt32
        let rawType: UInt32
        do {
            length = try reader.readInteger(UInt32.self, field: "length")
            rawType = try reader.readInteger(UInt32.self, field: "packetType")
        } catch {
            throw PTPIPCodecError.wrap(error)
        }
        guard length >= PacketHeader.size else { throw .packetTooShort(declaredLength: length) }
        guard let type = PacketType(rawValue: rawType) else { throw .unknownPacketType(rawType) }
        guard UInt64(length) == UInt64(bytes.count) else {
            if UInt64(length) > UInt64(bytes.count) {
                throw .layout(.truncated(field: "\(type) packet", needed: Int(length), available: bytes.count))
            }
            throw .layout(.trailingBytes(count: bytes.count - Int(length), after: "\(type) packet"))
        }
        let body = bytes[(bytes.startIndex + PacketHeader.size)...]
        return try decode(type: type, body: body)
    }

    /// Decodes the body of a packet of `type` (the bytes after the 8-byte header); every byte must be used.
    package static func decode(type: PacketType, body: ArraySlice<UInt8>) throws(PTPIPCodecError) -> Packet {
        var reader = ByteReader(slice: body)
        do {
            let packet = try decodeBody(type: type, reader: &reader)
            // Checked first so the field description is only built on the error path.
            if !reader.isAtEnd { try reader.expectEnd(after: "\(type) packet") }
            return packet
        } catch {
            throw PTPIPCodecError.wrap(error)
        }
    }

    private static func decodeBody(type: PacketType, reader: inout ByteReader) throws -> Packet {
        switch type {
        case .initCommandRequest:
            let guid = try readGUID(&reader)
            let name = try readFriendlyName(&reader)
            let version = try reader.readInteger(UInt32.self, field: "protocolVersion")
            return .initCommandRequest(InitCommandRequest(guid: guid, friendlyName: name, protocolVersion: version))
        case .initCommandAck:
            let number = try reader.readInteger(UInt32.self, field: "connectionNumber")
            let guid = try readGUID(&reader)
            let name = try readFriendlyName(&reader)
            let version = try reader.readInteger(UInt32.self, field: "protocolVersion")
            return .initCommandAck(
                InitCommandAck(connectionNumber: number, guid: guid, friendlyName: name, protocolVersion: version))
        case .initEventRequest:
            return .initEventRequest(connectionNumber: try reader.readInteger(UInt32.self, field: "connectionNumber"))
        case .initEventAck:
            return .initEventAck
        case .initFail:
            return .initFail(reason: InitFailReason(rawValue: try reader.readInteger(UInt32.self, field: "reason")))
        case .operationRequest:
            let rawPhase = try reader.readInteger(UInt32.self, field: "dataPhaseInfo")
            guard let phase = DataPhaseInfo(rawValue: rawPhase) else {
                throw ByteCodingError.invalidValue(
                    field: "dataPhaseInfo", reason: "\(hex32(rawPhase)) is not 1, 2 or 3")
            }
            let code = OperationCode(try reader.readInteger(UInt16.self, field: "operationCode"))
            let transactionID = try reader.readInteger(UInt32.self, field: "transactionID")
            let parameters = try readParameters(&reader, maximum: PTPIPLimits.maximumOperationParameters)
            return .operationRequest(
                OperationRequest(dataPhase: phase, code: code, transactionID: transactionID, parameters: parameters))
        case .operationResponse:
            let code = ResponseCode(try reader.readInteger(UInt16.self, field: "responseCode"))
            let transactionID = try reader.readInteger(UInt32.self, field: "transactionID")
            let parameters = try readParameters(&reader, maximum: PTPIPLimits.maximumOperationParameters)
            return .operationResponse(
                OperationResponse(code: code, transactionID: transactionID, parameters: parameters))
        case .event:
            let code = EventCode(try reader.readInteger(UInt16.self, field: "eventCode"))
            let transactionID = try reader.readInteger(UInt32.self, field: "transactionID")
            let parameters = try readParameters(&reader, maximum: PTPIPLimits.maximumEventParameters)
            return .event(PTPEvent(code: code, transactionID: transactionID, parameters: parameters))
        case .startData:
            let transactionID = try reader.readInteger(UInt32.self, field: "transactionID")
            let total = try reader.readInteger(UInt64.self, field: "totalDataLength")
            return .startData(transactionID: transactionID, totalLength: total)
        case .data:
            let transactionID = try reader.readInteger(UInt32.self, field: "transactionID")
            return .data(transactionID: transactionID, payload: reader.readRemainingSlice())
        case .cancel:
            return .cancel(transactionID: try reader.readInteger(UInt32.self, field: "transactionID"))
        case .endData:
            let transactionID = try reader.readInteger(UInt32.self, field: "transactionID")
            return .endData(transactionID: transactionID, payload: reader.readRemainingSlice())
        case .probeRequest:
            return .probeRequest
        case .probeResponse:
            return .probeResponse
        }
    }

    private static func readGUID(_ reader: inout ByteReader) throws -> PTPIPGUID {
        let bytes = try reader.readBytes(16, field: "guid")
        guard let guid = PTPIPGUID(bytes: bytes) else { preconditionFailure("readBytes returned 16 bytes") }
        return guid
    }

    /// A UTF-16LE name ended by a zero unit, with no count (CIPA DC-005 §2.3.1); the protocol version follows.
    private static func readFriendlyName(_ reader: inout ByteReader) throws -> String {
        var units: [UInt16] = []
        while true {
            let unit = try reader.readInteger(UInt16.self, field: "friendlyName")
            if unit == 0 { break }
            guard units.count < PTPIPLimits.maximumFriendlyNameUnits else {
                throw ByteCodingError.invalidValue(
                    field: "friendlyName", reason: "longer than \(PTPIPLimits.maximumFriendlyNameUnits) UTF-16 units")
            }
            units.append(unit)
        }
        return String(decoding: units, as: UTF16.self)
    }

    private static func readParameters(_ reader: inout ByteReader, maximum: Int) throws -> [UInt32] {
        let remaining = reader.remaining
        guard remaining % 4 == 0, remaining / 4 <= maximum else {
            throw ByteCodingError.invalidValue(
                field: "parameters", reason: "\(remaining) bytes are not 0 to \(maximum) u32 parameters")
        }
        if remaining == 0 { return [] }
        var parameters: [UInt32] = []
        parameters.reserveCapacity(remaining / 4)
        for _ in 0..<(remaining / 4) {
            parameters.append(try reader.readInteger(UInt32.self, field: "parameter"))
        }
        return parameters
    }
}
