import ByteCoding
import TestSupport
import Testing

@testable import PTPIPCodec

/// `PacketFramer.fill`: reads straight into the framer's persistent buffer (grow, compact, reuse).
@Suite struct PacketFramerFillTests {
    /// Struck in the room by bodies that then throw or report fewer bytes: must never come out as data.
    static let garbage: UInt8 = 0xEE

    /// Writes `bytes` into room for `room` bytes (default: exactly enough) the way a socket read would.
    @discardableResult
    private static func fill(_ framer: inout PacketFramer, _ bytes: some Collection<UInt8>, room: Int? = nil) -> Int {
        framer.fill(maximumCount: room ?? bytes.count) { raw in
            raw.copyBytes(from: bytes)
            return bytes.count
        }
    }

    private static func drainPackets(_ framer: inout PacketFramer) throws -> [Packet] {
        var packets: [Packet] = []
        while let packet = try framer.nextPacket() { packets.append(packet) }
        return packets
    }

    @Test func everySplitPointOfTwoPacketsWorksThroughFill() throws {
        let two = PacketSamples.all[1].encoded() + PacketSamples.all[9].encoded()
        for split in 0...two.count {
            var framer = PacketFramer()
            // Room beyond what arrives, as a socket read offers: the spare bytes must not count.
            Self.fill(&framer, two[..<split], room: two.count)
            var packets = try Self.drainPackets(&framer)
            Self.fill(&framer, two[split...], room: two.count)
            packets += try Self.drainPackets(&framer)
            #expect(packets == [PacketSamples.all[1], PacketSamples.all[9]], "split at \(split)")
            #expect(framer.isAtPacketBoundary, "split at \(split)")
        }
    }

    @Test(arguments: [1, 5, 64, 4096])
    func anyReadSizeGivesTheSamePackets(readSize: Int) throws {
        let stream = PacketSamples.all.flatMap { $0.encoded() }
        var framer = PacketFramer()
        var packets: [Packet] = []
        var start = 0
        while start < stream.count {
            let end = min(start + readSize, stream.count)
            Self.fill(&framer, stream[start..<end], room: readSize)
            packets += try Self.drainPackets(&framer)
            start = end
        }
        #expect(packets == PacketSamples.all)
    }

    @Test func aPacketLargerThanTheBufferMakesItGrowAndThenStay() throws {
        // Below the hand-over threshold, so the payload is copied out and the buffer stays with the framer.
        let payload = (0..<(PacketFramer.handOverThreshold - 1000)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let packet = Packet.operationRequest(OperationRequest(code: .getObject, transactionID: 1, parameters: [1]))
        let big = Packet.data(transactionID: 1, payload: payload[...])
        var framer = PacketFramer()
        Self.fill(&framer, packet.encoded())
        #expect(try framer.nextPacket() == packet)
        let initial = framer.capacity
        #expect(initial < 4096)
        // Whole-packet mode keeps the partial Data packet, so the buffer must outgrow its first size.
        let bytes = big.encoded()
        var received: [Packet] = []
        for start in stride(from: 0, to: bytes.count, by: 4096) {
            Self.fill(&framer, bytes[start..<min(start + 4096, bytes.count)], room: 4096)
            received += try Self.drainPackets(&framer)
        }
        #expect(received == [big])
        #expect(framer.capacity > initial)
        // Later reads of the same size reuse that room instead of growing again.
        let grown = framer.capacity
        for _ in 0..<1000 {
            Self.fill(&framer, packet.encoded(), room: 4096)
            #expect(try framer.nextPacket() == packet)
        }
        #expect(framer.capacity == grown)
    }

    @Test func aPartialPacketMovesToTheFrontInsteadOfGrowingTheBuffer() throws {
        let cancel = Packet.cancel(transactionID: 0x0102_0304).encoded() // 12 bytes
        var framer = PacketFramer()
        Self.fill(&framer, [], room: 64)
        let capacity = framer.capacity
        // A Data packet that leaves exactly 5 bytes of the buffer, filled by the first 5 bytes of a Cancel.
        let filler = Packet.data(transactionID: 1, payload: ArraySlice(repeating: 0x5A, count: capacity - 5 - 12))
        Self.fill(&framer, filler.encoded() + cancel.prefix(5))
        #expect(try framer.nextPacket() == filler)
        #expect(try framer.nextPacket() == nil)
        #expect(framer.bufferedByteCount == 5)
        // Room for all but the 5 buffered bytes exists only once they move to the front.
        Self.fill(&framer, cancel.dropFirst(5), room: capacity - 5)
        #expect(try framer.nextPacket() == .cancel(transactionID: 0x0102_0304))
        #expect(framer.capacity == capacity)
        #expect(framer.isAtPacketBoundary)
    }

    struct ReadFailed: Error {}

    @Test func aBodyThatThrowsLeavesTheFramerUnchanged() throws {
        let cancel = Packet.cancel(transactionID: 77).encoded()
        var framer = PacketFramer()
        Self.fill(&framer, Packet.probeRequest.encoded() + cancel.prefix(6))
        #expect(try framer.nextPacket() == .probeRequest)
        #expect(throws: ReadFailed.self) {
            // Large room: forces the partial Cancel to move (and the buffer to grow) before the body runs.
            try framer.fill(maximumCount: 1 << 16) { room in
                room.initializeMemory(as: UInt8.self, repeating: Self.garbage)
                throw ReadFailed()
            }
        }
        #expect(framer.bufferedByteCount == 6)
        #expect(try framer.nextPacket() == nil)
        Self.fill(&framer, cancel.dropFirst(6))
        #expect(try framer.nextPacket() == .cancel(transactionID: 77))
        #expect(framer.isAtPacketBoundary)
    }

    @Test func aBodyReturningZeroAddsNothing() throws {
        var framer = PacketFramer()
        Self.fill(&framer, Packet.probeRequest.encoded().prefix(3))
        let count = framer.fill(maximumCount: 32) { room in
            room.initializeMemory(as: UInt8.self, repeating: Self.garbage)
            return 0
        }
        #expect(count == 0)
        #expect(framer.bufferedByteCount == 3)
        #expect(try framer.nextPacket() == nil)
        Self.fill(&framer, Packet.probeRequest.encoded().dropFirst(3))
        #expect(try framer.nextPacket() == .probeRequest)
    }

    @Test func aFailedFramerTakesNoMoreBytes() throws {
        var framer = PacketFramer()
        Self.fill(&framer, [4, 0, 0, 0])
        #expect(throws: PTPIPCodecError.packetTooShort(declaredLength: 4)) { try framer.nextPacket() }
        var called = false
        let count = framer.fill(maximumCount: 16) { _ in
            called = true
            return 16
        }
        #expect(count == 0 && !called)
        #expect(framer.failure == .packetTooShort(declaredLength: 4))
    }

    @Test func aChunkKeptAcrossTheNextFillKeepsItsBytes() throws {
        let payload = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        var framer = PacketFramer(maximumPacketLength: 64)
        Self.fill(&framer, Packet.data(transactionID: 8, payload: payload[...]).encoded().prefix(1012))
        guard case let .dataChunk(first)? = try framer.nextFrame() else {
            Issue.record("expected a data chunk")
            return
        }
        #expect(first.bytes.elementsEqual(payload.prefix(1000)))
        // Everything was consumed, so the next read writes over the start of the buffer: the kept chunk
        // must not see it (copy-on-write), at the cost of a copy the client avoids by dropping chunks.
        framer.fill(maximumCount: 2000) { room in
            room.initializeMemory(as: UInt8.self, repeating: Self.garbage)
            return 2000
        }
        #expect(first.bytes.elementsEqual(payload.prefix(1000)))
    }
}
