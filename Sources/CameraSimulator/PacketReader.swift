import PTPIP

/// Reads whole PTP/IP packets from one connection through the library's framer.
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
        while true {
            if let packet = try framer.nextPacket() { return packet }
            let bytes = try await transport.receive(upTo: 64 * 1024, timeout: timeout)
            if bytes.isEmpty {
                if framer.isAtPacketBoundary { return nil }
                throw PTPIPError.peerClosed(during: "receive (in the middle of a packet)")
            }
            framer.append(bytes)
        }
    }

    /// Reads the data-out phase of `transactionID`: Start_Data, any Data packets, End_Data.
    mutating func dataPhase(of transactionID: UInt32) async throws -> [UInt8] {
        guard case let .startData(id, total)? = try await next(), id == transactionID else {
            throw PTPIPError.protocolViolation(expected: "Start_Data for transaction \(transactionID)", received: "something else")
        }
        guard total <= UInt64(Self.maximumDataOut) else {
            throw PTPIPError.protocolViolation(expected: "a data-out phase of at most 1 MiB", received: "\(total) bytes")
        }
        var payload: [UInt8] = []
        payload.reserveCapacity(Int(total))
        while true {
            switch try await next() {
            case let .data(id, bytes)? where id == transactionID:
                payload += bytes
            case let .endData(id, bytes)? where id == transactionID:
                payload += bytes
                guard payload.count == Int(total) else {
                    throw PTPIPError.protocolViolation(expected: "\(total) data bytes", received: "\(payload.count)")
                }
                return payload
            default:
                throw PTPIPError.protocolViolation(expected: "Data or End_Data for transaction \(transactionID)", received: "another packet")
            }
            guard payload.count <= Int(total) else {
                throw PTPIPError.protocolViolation(expected: "\(total) data bytes", received: "more")
            }
        }
    }
}
