import ByteCoding
import Testing

@testable import PTPIPCodec

@Suite struct DataPhaseReceiverTests {
    private static func frames(of bytes: [UInt8], readSize: Int) throws -> [Frame] {
        var framer = PacketFramer(maximumPacketLength: 64)
        var frames: [Frame] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + readSize, bytes.count)
            framer.append(bytes[start..<end])
            while let frame = try framer.nextFrame() {
                // Chunks are slices of the framer's buffer; copy them as a sink would consume them.
                if case let .dataChunk(piece) = frame {
                    var copy = piece
                    copy.bytes = Array(piece.bytes)[...]
                    frames.append(.dataChunk(copy))
                } else {
                    frames.append(frame)
                }
            }
            start = end
        }
        return frames
    }

    @Test(arguments: [1, 5, 1000])
    func streamedDataPhaseReachesTheSinkWhole(readSize: Int) throws {
        let payload = (0..<3000).map { UInt8(truncatingIfNeeded: $0) }
        var writer = ByteWriter()
        Packet.appendDataPhase(transactionID: 7, payload: payload, chunkSize: 1024, into: &writer)
        Packet.operationResponse(OperationResponse(code: .ok, transactionID: 7)).encode(into: &writer)
        var receiver = DataPhaseReceiver(transactionID: 7)
        var received: [UInt8] = []
        var leftover: [Frame] = []
        for frame in try Self.frames(of: writer.bytes, readSize: readSize) {
            if try !receiver.accept(frame, sink: { received += $0 }) { leftover.append(frame) }
        }
        #expect(receiver.state == .complete(total: 3000))
        #expect(received == payload)
        #expect(leftover == [.packet(.operationResponse(OperationResponse(code: .ok, transactionID: 7)))])
    }

    @Test func payloadInEndDataCounts() throws {
        var receiver = DataPhaseReceiver(transactionID: 1)
        var received: [UInt8] = []
        #expect(try receiver.accept(Packet.startData(transactionID: 1, totalLength: 2), sink: { received += $0 }))
        #expect(try receiver.accept(Packet.endData(transactionID: 1, payload: [0x18, 0x01]), sink: { received += $0 }))
        #expect(receiver.isComplete)
        #expect(received == [0x18, 0x01])
    }

    @Test func moreDataThanAnnouncedIsAViolation() throws {
        var receiver = DataPhaseReceiver(transactionID: 1)
        _ = try receiver.accept(Packet.startData(transactionID: 1, totalLength: 2), sink: { _ in })
        #expect(
            throws: PTPIPCodecError.dataPhaseViolation(
                expected: "2 bytes of data as Start_Data announced", received: "at least 3 bytes")
        ) {
            try receiver.accept(Packet.data(transactionID: 1, payload: [1, 2, 3]), sink: { _ in })
        }
    }

    @Test func endDataBeforeTheTotalIsAViolation() throws {
        var receiver = DataPhaseReceiver(transactionID: 1)
        _ = try receiver.accept(Packet.startData(transactionID: 1, totalLength: 10), sink: { _ in })
        #expect(
            throws: PTPIPCodecError.dataPhaseViolation(
                expected: "10 bytes of data as Start_Data announced", received: "4 bytes before End_Data")
        ) {
            try receiver.accept(Packet.endData(transactionID: 1, payload: [1, 2, 3, 4]), sink: { _ in })
        }
    }

    @Test func wrongTransactionAndMissingStartAreViolations() throws {
        var receiver = DataPhaseReceiver(transactionID: 1)
        #expect(throws: PTPIPCodecError.dataPhaseViolation(expected: "Start_Data", received: "Data (10)")) {
            try receiver.accept(Packet.data(transactionID: 1, payload: [1]), sink: { _ in })
        }
        #expect(
            throws: PTPIPCodecError.dataPhaseViolation(
                expected: "Start_Data for transaction 1", received: "Start_Data for transaction 2")
        ) {
            try receiver.accept(Packet.startData(transactionID: 2, totalLength: 0), sink: { _ in })
        }
    }

    @Test func responseWithoutDataIsLeftToTheCaller() throws {
        var receiver = DataPhaseReceiver(transactionID: 1)
        let response = Packet.operationResponse(OperationResponse(code: .accessDenied, transactionID: 1))
        #expect(try !receiver.accept(response, sink: { _ in }))
        #expect(receiver.state == .awaitingStart)
    }
}
