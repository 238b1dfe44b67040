import PTPIP
import PTPIPCodec

/// Reads whole PTP/IP packets and data-out phases from one connection with the library's codec.
///
/// Packets come from `PacketFramer.nextPacket(from:timeout:)`, data-out phases are checked by
/// `DataPhaseReceiver`: the same framing and data-phase rules as the client's, never a second copy.
struct PacketReader {
    let transport: any Transport
    private var framer = PacketFramer()

    /// The largest data-out phase the simulated body accepts (property values are a few bytes).
    static let maximumDataOut = 1 << 20

    init(_ transport: any Transport) {
        self.transport = transport
    }

    /// The next packet, or nil when the peer closed cleanly between packets.
    mutating func next(timeout: Duration? = nil) async throws -> Packet? {
        try await framer.nextPacket(from: transport, timeout: timeout)
    }

    /// Reads the data-out phase of `transactionID`: Start_Data, any Data packets, End_Data.
    mutating func dataPhase(of transactionID: UInt32) async throws -> [UInt8] {
        var receiver = DataPhaseReceiver(transactionID: transactionID)
        var payload: [UInt8] = []
        while !receiver.isComplete {
            guard let packet = try await next() else {
                throw PTPIPError.peerClosed(during: "the data-out phase of transaction \(transactionID)")
            }
            let expected = receiver.state == .awaitingStart ? "Start_Data" : "Data or End_Data"
            let accepted: Bool
            do {
                accepted = try receiver.accept(packet, sink: { payload += $0 })
            } catch {
                throw PTPIPError.malformed(error)
            }
            guard accepted else {
                throw PTPIPError.protocolViolation(
                    expected: "\(expected) for transaction \(transactionID)", received: "packet type \(packet.type)")
            }
            if case let .receiving(total, received: 0) = receiver.state {
                // Checked on Start_Data, before any payload is buffered.
                guard total <= UInt64(Self.maximumDataOut) else {
                    throw PTPIPError.protocolViolation(
                        expected: "a data-out phase of at most 1 MiB", received: "\(total) bytes")
                }
                payload.reserveCapacity(Int(total))
            }
        }
        return payload
    }
}
