import ByteCoding
import TestSupport
import Testing

@testable import PTPIPCodec

@Suite struct PacketCodecTests {
    @Test(arguments: PacketSamples.all)
    func encodeThenDecodeGivesTheSamePacket(_ packet: Packet) throws {
        let bytes = packet.encoded()
        #expect(bytes.count == packet.encodedLength)
        #expect(try Packet.decode(bytes) == packet)
    }

    @Test func samplesCoverAllFourteenPacketTypes() {
        #expect(Set(PacketSamples.all.map(\.type)) == Set(PacketType.allCases))
    }

    @Test func operationRequestHasTheDocumentedLayout() {
        // OpenSession(1), transaction 0, as rocc's flow records it: length 0x16, type 6, phase 1.
        let bytes = Packet.operationRequest(OperationRequest(code: .openSession, transactionID: 0, parameters: [1]))
            .encoded()
        #expect(bytes == [0x16, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0, 0, 0x02, 0x10, 0, 0, 0, 0, 1, 0, 0, 0])
    }

    @Test func startDataCarriesA64BitLength() {
        let bytes = Packet.startData(transactionID: 2, totalLength: 0x125).encoded()
        #expect(bytes == [0x14, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0, 0x25, 0x01, 0, 0, 0, 0, 0, 0])
    }

    @Test func initCommandRequestWritesTheNameAsZeroTerminatedUTF16LE() {
        let request = InitCommandRequest(guid: .zero, friendlyName: "Ab")
        let bytes = Packet.initCommandRequest(request).encoded()
        #expect(bytes.count == 8 + 16 + 6 + 4)
        #expect(Array(bytes[24..<30]) == [0x41, 0, 0x62, 0, 0, 0])
        #expect(Array(bytes[30...]) == [0, 0, 1, 0])
    }

    @Test func wholePacketDecodeRejectsLeftoverBytes() {
        let bytes = Packet.probeRequest.encoded() + [0]
        #expect(throws: PTPIPCodecError.layout(.trailingBytes(count: 1, after: "Probe_Request (13) packet"))) {
            try Packet.decode(bytes)
        }
    }

    @Test func bodyWithExtraBytesIsRejected() {
        // An Init_Event_Ack whose header length admits 2 body bytes.
        let bytes: [UInt8] = [10, 0, 0, 0, 4, 0, 0, 0, 0xAA, 0xBB]
        #expect(throws: PTPIPCodecError.layout(.trailingBytes(count: 2, after: "Init_Event_Ack (4) packet"))) {
            try Packet.decode(bytes)
        }
    }

    @Test func unknownPacketTypeIsRejected() {
        #expect(throws: PTPIPCodecError.unknownPacketType(15)) { try Packet.decode([8, 0, 0, 0, 15, 0, 0, 0]) }
        #expect(throws: PTPIPCodecError.unknownPacketType(0)) { try Packet.decode([8, 0, 0, 0, 0, 0, 0, 0]) }
    }

    @Test func declaredLengthBelowTheHeaderIsRejected() {
        #expect(throws: PTPIPCodecError.packetTooShort(declaredLength: 7)) {
            try Packet.decode([7, 0, 0, 0, 13, 0, 0, 0])
        }
    }

    @Test func shortPacketsAreTruncatedErrors() {
        #expect(throws: PTPIPCodecError.self) { try Packet.decode([8, 0, 0]) }
        // Cancel without its transaction id.
        #expect(throws: PTPIPCodecError.layout(.truncated(field: "transactionID", needed: 4, available: 2))) {
            try Packet.decode([10, 0, 0, 0, 11, 0, 0, 0, 1, 2])
        }
    }

    @Test func parametersThatAreNotWholeU32sAreRejected() {
        var bytes = Packet.operationResponse(OperationResponse(code: .ok, transactionID: 1)).encoded()
        bytes += [1, 2]
        bytes[0] = UInt8(bytes.count)
        #expect(throws: PTPIPCodecError.self) { try Packet.decode(bytes) }
    }

    @Test func moreThanThreeEventParametersAreRejected() {
        var writer = ByteWriter()
        writer.writeInteger(UInt32(8 + 6 + 16))
        writer.writeInteger(UInt32(8))
        writer.writeInteger(UInt16(0x4002))
        writer.writeInteger(UInt32(1))
        for parameter in 1...4 { writer.writeInteger(UInt32(parameter)) }
        #expect(throws: PTPIPCodecError.self) { try Packet.decode(writer.bytes) }
    }

    @Test func unknownDataPhaseIsRejected() {
        var bytes = Packet.operationRequest(OperationRequest(code: .getDeviceInfo, transactionID: 1)).encoded()
        bytes[8] = 9
        #expect(
            throws: PTPIPCodecError.layout(.invalidValue(field: "dataPhaseInfo", reason: "0x00000009 is not 1, 2 or 3"))
        ) {
            try Packet.decode(bytes)
        }
    }

    @Test func friendlyNameWithoutTerminatorIsTruncated() {
        // Init_Command_Request: GUID then "A" with no zero unit and no version.
        let bytes: [UInt8] = [26, 0, 0, 0, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0x41, 0]
        #expect(throws: PTPIPCodecError.layout(.truncated(field: "friendlyName", needed: 2, available: 0))) {
            try Packet.decode(bytes)
        }
    }

    @Test func unknownCodesRoundTripWithReadableNames() throws {
        let event = PTPEvent(code: EventCode(0xC2FF), transactionID: 1)
        #expect(try Packet.decode(Packet.event(event).encoded()) == .event(event))
        #expect(event.code.name == "event 0xC2FF")
        #expect(OperationCode(0x9209).description == "operation 0x9209")
        #expect(ResponseCode(0x2019).description == "DeviceBusy (0x2019)")
    }

    @Test func aVendorCodeCarriesItsNameButEqualsTheBareNumber() {
        let named = OperationCode(vendor: 0x9207, name: "SDIO_ControlDevice")
        #expect(named.description == "SDIO_ControlDevice (0x9207)")
        #expect(named == OperationCode(0x9207))
        #expect(Set([named, OperationCode(0x9207)]).count == 1)
        let event = EventCode(vendor: 0xC201, name: "SDIE_ObjectAdded")
        #expect(event.name == "SDIE_ObjectAdded")
        #expect(event == EventCode(0xC201))
        #expect(EventCode(0xC201).name == "event 0xC201")
    }
}
