import TestSupport
import Testing

@testable import PTPIP
@testable import PTPIPCodec

/// `PacketFramer.nextPacket(from:)`: the one "read until a packet", over real loopback TCP.
@Suite struct PacketFramerTransportTests {
    @Test(arguments: [3, 64 * 1024])
    func packetsSentInPiecesComeOutWholeThenNilAtACleanClose(readSize: Int) async throws {
        let (listener, client, server) = try await TransportTests.connectedPair()
        defer {
            listener.close()
            client.close()
            server.close()
        }
        let stream = PacketSamples.all.flatMap { $0.encoded() }
        async let sent: Void = {
            var start = 0
            while start < stream.count {
                let end = min(start + 7, stream.count)
                try await client.send(Array(stream[start..<end]), timeout: .seconds(5))
                start = end
            }
            client.close()
        }()
        var framer = PacketFramer()
        var packets: [Packet] = []
        while let packet = try await framer.nextPacket(from: server, maximumCount: readSize, timeout: .seconds(5)) {
            packets.append(packet)
        }
        try await sent
        #expect(packets == PacketSamples.all)
        #expect(framer.isAtPacketBoundary)
    }

    @Test func aCloseInsideAPacketIsPeerClosedNamingTheActivity() async throws {
        let (listener, client, server) = try await TransportTests.connectedPair()
        defer {
            listener.close()
            client.close()
            server.close()
        }
        let whole = PacketSamples.all[1].encoded()
        try await client.send(whole + whole.prefix(5), timeout: .seconds(5))
        client.close()
        var framer = PacketFramer()
        #expect(try await framer.nextPacket(from: server, timeout: .seconds(5)) == PacketSamples.all[1])
        await #expect(throws: PTPIPError.peerClosed(during: "the test read")) {
            try await framer.nextPacket(from: server, timeout: .seconds(5), during: "the test read")
        }
    }

    @Test func malformedBytesThrowTheFramersError() async throws {
        let (listener, client, server) = try await TransportTests.connectedPair()
        defer {
            listener.close()
            client.close()
            server.close()
        }
        // A header declaring 4 bytes, below the 8-byte header itself.
        try await client.send([4, 0, 0, 0, 13, 0, 0, 0], timeout: .seconds(5))
        var framer = PacketFramer()
        await #expect(throws: PTPIPError.malformed(.packetTooShort(declaredLength: 4))) {
            try await framer.nextPacket(from: server, timeout: .seconds(5))
        }
    }
}
