import ByteCoding
import Testing

@testable import PTPIPCodec

@Suite struct PacketFramerStreamingTests {
    /// A data-in phase as a camera sends it (Start_Data, Data, empty End_Data), then the response.
    static let payload: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    static let stream: [UInt8] = {
        var writer = ByteWriter()
        Packet.appendDataPhase(transactionID: 4, payload: payload, chunkSize: 3000, into: &writer)
        Packet.operationResponse(OperationResponse(code: .ok, transactionID: 4)).encode(into: &writer)
        return writer.bytes
    }()

    /// Feeds `stream` in pieces of `chunk` bytes; returns packets and the reassembled payload.
    private static func run(chunk: Int) throws -> (packets: [Packet], payload: [UInt8], endings: [PacketType]) {
        var framer = PacketFramer(maximumPacketLength: 64)
        var packets: [Packet] = []
        var payload: [UInt8] = []
        var endings: [PacketType] = []
        var start = 0
        while start < stream.count {
            let end = min(start + chunk, stream.count)
            framer.append(stream[start..<end])
            while let frame = try framer.nextFrame() {
                switch frame {
                case let .packet(packet): packets.append(packet)
                case let .dataChunk(piece):
                    #expect(piece.transactionID == 4)
                    payload += piece.bytes
                    if piece.isLastChunkOfPacket { endings.append(piece.type) }
                }
            }
            start = end
        }
        #expect(framer.isAtPacketBoundary)
        return (packets, payload, endings)
    }

    @Test(arguments: [1, 7, 100, 4096, 1 << 20])
    func dataPayloadIsStreamedWhateverTheSplit(chunk: Int) throws {
        let result = try Self.run(chunk: chunk)
        #expect(
            result.packets == [
                .startData(transactionID: 4, totalLength: 5000),
                .operationResponse(OperationResponse(code: .ok, transactionID: 4))
            ])
        #expect(result.payload == Self.payload)
        #expect(result.endings == [.data, .data, .endData])
    }

    @Test func streamedDataMayExceedTheBufferedMaximum() throws {
        // The framer above buffers at most 64 bytes whole, yet a 3000-byte Data packet passes as chunks.
        var framer = PacketFramer(maximumPacketLength: 64)
        framer.append(Self.stream)
        #expect(throws: PTPIPCodecError.packetTooLarge(declaredLength: 3012, maximum: 64, type: nil)) {
            for _ in 0..<3 { _ = try framer.nextPacket() }
        }
    }

    @Test func streamedDataPacketsHaveTheirOwnLimit() {
        var framer = PacketFramer(maximumPacketLength: 64, maximumStreamedPacketLength: 1000)
        framer.append(Packet.data(transactionID: 1, payload: ArraySlice(repeating: 0, count: 2000)).encoded().prefix(8))
        #expect(throws: PTPIPCodecError.packetTooLarge(declaredLength: 2012, maximum: 1000, type: nil)) {
            try framer.nextFrame()
        }
    }

    @Test func dataPacketShorterThanItsTransactionIDIsMalformed() {
        var framer = PacketFramer()
        framer.append([10, 0, 0, 0, 10, 0, 0, 0, 1, 2])
        #expect(throws: PTPIPCodecError.layout(.truncated(field: "transactionID", needed: 4, available: 2))) {
            try framer.nextFrame()
        }
        var whole = PacketFramer()
        whole.append([10, 0, 0, 0, 12, 0, 0, 0, 1, 2])
        #expect(throws: PTPIPCodecError.layout(.truncated(field: "transactionID", needed: 4, available: 2))) {
            try whole.nextPacket()
        }
    }

    @Test func emptyEndDataYieldsOneFinalEmptyChunk() throws {
        var framer = PacketFramer()
        framer.append(Packet.endData(transactionID: 9, payload: []).encoded())
        #expect(
            try framer.nextFrame()
                == .dataChunk(
                    DataChunk(type: .endData, transactionID: 9, bytes: [], isLastChunkOfPacket: true)))
        #expect(try framer.nextFrame() == nil)
    }

    @Test func largeDataPacketIsDecodedWholeWithItsPayloadIntact() throws {
        let payload = (0..<(200 << 10)).map { UInt8(truncatingIfNeeded: $0) }
        var framer = PacketFramer()
        framer.append(Packet.data(transactionID: 3, payload: payload[...]).encoded())
        framer.append(Packet.probeRequest.encoded().prefix(3))
        // Not the whole buffer (3 bytes follow): copied once.
        #expect(try framer.nextPacket() == .data(transactionID: 3, payload: payload[...]))
        framer.append(Packet.probeRequest.encoded().dropFirst(3))
        #expect(try framer.nextPacket() == .probeRequest)
        // Exactly the whole buffer: handed over.
        framer.append(Packet.endData(transactionID: 3, payload: payload[...]).encoded())
        #expect(try framer.nextPacket() == .endData(transactionID: 3, payload: payload[...]))
        #expect(framer.isAtPacketBoundary)
    }

    @Test func operationWithDataOutIsOneBufferOfFourPackets() throws {
        let request = OperationRequest(
            dataPhase: .dataOut, code: OperationCode(0x9207), transactionID: 6, parameters: [0xD2C1])
        let bytes = Packet.encodeOperation(request, dataOut: [0x02, 0x00])
        var framer = PacketFramer()
        framer.append(bytes)
        var packets: [Packet] = []
        while let packet = try framer.nextPacket() { packets.append(packet) }
        #expect(
            packets == [
                .operationRequest(request),
                .startData(transactionID: 6, totalLength: 2),
                .data(transactionID: 6, payload: [0x02, 0x00]),
                .endData(transactionID: 6, payload: [])
            ])
    }
}
