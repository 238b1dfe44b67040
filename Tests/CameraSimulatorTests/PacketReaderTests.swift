import CameraSimulator
import PTPIP
import PTPIPCodec
import SonyProtocol
import Testing

/// The simulator's data-out phases, read with PTPIP's `DataPhaseReceiver`, from a raw host over loopback TCP.
@Suite("Simulator data-out phases on raw connections")
struct PacketReaderTests {
    /// A data-out phase that breaks the rules, and why.
    struct BrokenPhase: Sendable, CustomTestStringConvertible {
        let why: String
        let packets: [Packet]
        var testDescription: String { why }
    }

    static let transactionID: UInt32 = 2

    /// SDIO_SetExtDevicePropValue for the shutter speed, with a data-out phase.
    static let request = Packet.operationRequest(
        OperationRequest(
            dataPhase: .dataOut, code: .sdioSetExtDevicePropValue, transactionID: transactionID,
            parameters: [UInt32(SonyPropertyCode.shutterSpeed.rawValue)]))

    static let broken: [BrokenPhase] = [
        BrokenPhase(
            why: "End_Data before the announced total",
            packets: [
                .startData(transactionID: transactionID, totalLength: 4),
                .endData(transactionID: transactionID, payload: [1, 2, 3])
            ]),
        BrokenPhase(
            why: "more bytes than announced",
            packets: [
                .startData(transactionID: transactionID, totalLength: 2),
                .data(transactionID: transactionID, payload: [1, 2, 3])
            ]),
        BrokenPhase(
            why: "Start_Data of another transaction",
            packets: [
                .startData(transactionID: transactionID + 1, totalLength: 4)
            ]),
        BrokenPhase(why: "Data before Start_Data", packets: [.data(transactionID: transactionID, payload: [1, 2])]),
        BrokenPhase(
            why: "another request inside the data phase",
            packets: [
                .startData(transactionID: transactionID, totalLength: 4),
                .operationRequest(OperationRequest(code: .getDeviceInfo, transactionID: transactionID + 1))
            ]),
        BrokenPhase(
            why: "a data-out phase above 1 MiB",
            packets: [
                .startData(transactionID: transactionID, totalLength: 2 << 20)
            ])
    ]

    /// Opens a command connection to `simulator` and returns it once the Init Command Ack came.
    static func commandConnection(to simulator: CameraSimulator) async throws -> TCPTransport {
        let transport = try await TCPTransport.connect(host: "127.0.0.1", port: simulator.port, timeout: .seconds(5))
        let guid = PTPIPGUID(bytes: Array(1...16))!
        try await transport.send(
            Packet.initCommandRequest(InitCommandRequest(guid: guid, friendlyName: "raw host")).encoded(),
            timeout: .seconds(5))
        var framer = PacketFramer()
        guard case .initCommandAck? = try await framer.nextPacket(from: transport, timeout: .seconds(20)) else {
            transport.close()
            throw PTPIPError.protocolViolation(expected: "Init Command Ack", received: "something else")
        }
        return transport
    }

    @Test func aWholeDataPhaseInPiecesIsAnswered() async throws {
        try await withSimulator { simulator in
            let transport = try await Self.commandConnection(to: simulator)
            defer { transport.close() }
            let phase: [Packet] = [
                .startData(transactionID: Self.transactionID, totalLength: 4),
                .data(transactionID: Self.transactionID, payload: [1, 2]),
                .data(transactionID: Self.transactionID, payload: []),
                .endData(transactionID: Self.transactionID, payload: [3, 4])
            ]
            try await transport.send(([Self.request] + phase).flatMap { $0.encoded() }, timeout: .seconds(5))
            var framer = PacketFramer()
            let answer = try await framer.nextPacket(from: transport, timeout: .seconds(20))
            guard case let .operationResponse(response)? = answer else {
                Issue.record("no response to a whole data phase: \(String(describing: answer))")
                return
            }
            #expect(response.transactionID == Self.transactionID)
        }
    }

    @Test(arguments: broken)
    func aBrokenDataPhaseEndsTheConnectionUnanswered(_ phase: BrokenPhase) async throws {
        try await withSimulator { simulator in
            let transport = try await Self.commandConnection(to: simulator)
            defer { transport.close() }
            try await transport.send(([Self.request] + phase.packets).flatMap { $0.encoded() }, timeout: .seconds(5))
            var framer = PacketFramer()
            #expect(try await framer.nextPacket(from: transport, timeout: .seconds(20)) == nil)
        }
    }
}
