import ByteCoding
import TestSupport
import Testing

@testable import PTPIPCodec

@Suite struct PacketFramerTests {
    /// All sample packets back to back, as one stream.
    static let stream: [UInt8] = PacketSamples.all.flatMap { $0.encoded() }

    private static func drainPackets(_ framer: inout PacketFramer) throws -> [Packet] {
        var packets: [Packet] = []
        while let packet = try framer.nextPacket() { packets.append(packet) }
        return packets
    }

    @Test func manyPacketsInOneAppendComeOutInOrder() throws {
        var framer = PacketFramer()
        framer.append(Self.stream)
        #expect(try Self.drainPackets(&framer) == PacketSamples.all)
        #expect(framer.isAtPacketBoundary)
    }

    @Test func oneByteAtATimeGivesTheSamePackets() throws {
        var framer = PacketFramer()
        var packets: [Packet] = []
        for byte in Self.stream {
            framer.append(CollectionOfOne(byte))
            packets += try Self.drainPackets(&framer)
        }
        #expect(packets == PacketSamples.all)
        #expect(framer.isAtPacketBoundary)
    }

    @Test(arguments: [2, 3, 5, 7, 13, 64, 1000])
    func anyChunkSizeGivesTheSamePackets(chunk: Int) throws {
        var framer = PacketFramer()
        var packets: [Packet] = []
        var start = 0
        while start < Self.stream.count {
            let end = min(start + chunk, Self.stream.count)
            framer.append(Self.stream[start..<end])
            packets += try Self.drainPackets(&framer)
            start = end
        }
        #expect(packets == PacketSamples.all)
    }

    @Test func everySplitPointOfTwoPacketsWorks() throws {
        let two = PacketSamples.all[1].encoded() + PacketSamples.all[9].encoded()
        for split in 0...two.count {
            var framer = PacketFramer()
            framer.append(two[..<split])
            var packets = try Self.drainPackets(&framer)
            framer.append(two[split...])
            packets += try Self.drainPackets(&framer)
            #expect(packets == [PacketSamples.all[1], PacketSamples.all[9]], "split at \(split)")
        }
    }

    @Test func halfAPacketIsNotABoundary() throws {
        var framer = PacketFramer()
        framer.append(Packet.probeRequest.encoded().prefix(5))
        #expect(try framer.nextPacket() == nil)
        #expect(!framer.isAtPacketBoundary)
    }

    @Test func declaredLengthAboveTheMaximumFailsOnTheLengthFieldAlone() {
        var framer = PacketFramer(maximumPacketLength: 1024)
        // "4 GiB follow": only the four length bytes have arrived.
        framer.append([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: PTPIPCodecError.packetTooLarge(declaredLength: 0xFFFF_FFFF, maximum: 1024, type: nil)) {
            try framer.nextPacket()
        }
        #expect(framer.bufferedByteCount == 4)
    }

    @Test func declaredLengthAboveTheTypesOwnLimitFailsAtTheHeader() {
        var framer = PacketFramer()
        framer.append([0x00, 0x10, 0, 0, 13, 0, 0, 0]) // a 4096-byte Probe_Request
        #expect(throws: PTPIPCodecError.packetTooLarge(declaredLength: 4096, maximum: 8, type: .probeRequest)) {
            try framer.nextPacket()
        }
    }

    @Test func declaredLengthBelowEightFails() {
        var framer = PacketFramer()
        framer.append([4, 0, 0, 0])
        #expect(throws: PTPIPCodecError.packetTooShort(declaredLength: 4)) { try framer.nextPacket() }
    }

    @Test func unknownTypeFailsAtTheHeaderAndTheFramerStaysFailed() {
        var framer = PacketFramer()
        framer.append([0x00, 0x01, 0, 0, 99, 0, 0, 0])
        #expect(throws: PTPIPCodecError.unknownPacketType(99)) { try framer.nextPacket() }
        framer.append(Packet.probeRequest.encoded())
        #expect(throws: PTPIPCodecError.unknownPacketType(99)) { try framer.nextPacket() }
    }
}
