import TestSupport
import Testing

@testable import PTPIPCodec

/// Real packets from a DSC-RX100M7 and an ILCE-9 (see ../shared/fixtures/sony/README.md).
@Suite(.enabled(if: Fixtures.available, Fixtures.skipReason))
struct PacketFixtureTests {
    /// GUID in the camera's Acks: eight zero bytes, 0xFFFF, then the Wi-Fi MAC 60:F1:89:AF:BF:39.
    static let cameraGUID = PTPIPGUID(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0x60, 0xF1, 0x89, 0xAF, 0xBF, 0x39])!

    @Test(arguments: [
        ("sony/rx100m7_InitCommandAck_a.packet.bin", UInt32(0x51D9_8AEC)),
        ("sony/rx100m7_InitCommandAck_b.packet.bin", UInt32(0x4AE3_9DDA))
    ])
    func realInitCommandAcksDecodeWithTheirVersionTrailer(file: String, connectionNumber: UInt32) throws {
        let bytes = try Fixtures.load(file)
        let expected = InitCommandAck(
            connectionNumber: connectionNumber, guid: Self.cameraGUID, friendlyName: "DSC-RX100M7",
            protocolVersion: 0x0001_0000)
        #expect(try Packet.decode(bytes) == .initCommandAck(expected))
        // Twins: encoding the decoded value gives back the camera's exact bytes.
        #expect(Packet.initCommandAck(expected).encoded() == bytes)
    }

    @Test func realInitCommandAckComesOutOfTheFramerByteByByte() throws {
        let bytes = try Fixtures.load("sony/rx100m7_InitCommandAck_a.packet.bin")
        var framer = PacketFramer()
        var packets: [Packet] = []
        for byte in bytes {
            framer.append(CollectionOfOne(byte))
            while let packet = try framer.nextPacket() { packets.append(packet) }
        }
        #expect(packets.count == 1)
        #expect(framer.isAtPacketBoundary)
    }

    @Test func realDevicePropChangedEventDecodes() throws {
        let bytes = try Fixtures.load("sony/ilce9_Event_C203_DevicePropChanged.packet.bin")
        let expected = PTPEvent(code: EventCode(0xC203), transactionID: 0xFFFF_FFFF, parameters: [0])
        #expect(try Packet.decode(bytes) == .event(expected))
        #expect(Packet.event(expected).encoded() == bytes)
    }
}
