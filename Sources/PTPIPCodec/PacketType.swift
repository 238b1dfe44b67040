/// The packet type field of a PTP/IP packet header (CIPA DC-005 §2.3.1, table "PTP/IP packet types").
package enum PacketType: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// Init_Command_Request = 1: host opens the command connection.
    case initCommandRequest = 1
    /// Init_Command_Ack = 2: camera accepts it and assigns a connection number.
    case initCommandAck = 2
    /// Init_Event_Request = 3: host opens the event connection with that number.
    case initEventRequest = 3
    /// Init_Event_Ack = 4.
    case initEventAck = 4
    /// Init_Fail = 5: the camera refuses either connection, with a reason.
    case initFail = 5
    /// Operation_Request = 6.
    case operationRequest = 6
    /// Operation_Response = 7.
    case operationResponse = 7
    /// Event = 8.
    case event = 8
    /// Start_Data = 9: opens a data phase with its total length.
    case startData = 9
    /// Data = 10: a chunk of a data phase.
    case data = 10
    /// Cancel = 11.
    case cancel = 11
    /// End_Data = 12: the last chunk of a data phase (may carry payload).
    case endData = 12
    /// Probe_Request = 13: keep-alive.
    case probeRequest = 13
    /// Probe_Response = 14.
    case probeResponse = 14

    /// The protocol's name, e.g. "Init_Command_Ack (2)".
    package var description: String {
        let names = [
            "Init_Command_Request", "Init_Command_Ack", "Init_Event_Request", "Init_Event_Ack", "Init_Fail",
            "Operation_Request", "Operation_Response", "Event", "Start_Data", "Data", "Cancel", "End_Data",
            "Probe_Request", "Probe_Response"
        ]
        return "\(names[Int(rawValue) - 1]) (\(rawValue))"
    }

    /// The largest whole packet (header included) this type can legitimately have, or nil when only the
    /// framer's maximum applies (Data, End_Data). Lets the framer refuse a 4 GiB "Probe_Request" at its header.
    package var maximumLength: Int? {
        switch self {
        case .initCommandRequest, .initCommandAck:
            // GUID, protocol version and a friendly name of up to `PTPIPLimits.maximumFriendlyNameUnits`.
            return PacketHeader.size + 4 + 16 + 4 + 2 * (PTPIPLimits.maximumFriendlyNameUnits + 1)
        case .initEventRequest, .initFail, .cancel: return PacketHeader.size + 4
        case .initEventAck, .probeRequest, .probeResponse: return PacketHeader.size
        case .operationRequest: return PacketHeader.size + 10 + 4 * PTPIPLimits.maximumOperationParameters
        case .operationResponse: return PacketHeader.size + 6 + 4 * PTPIPLimits.maximumOperationParameters
        case .event: return PacketHeader.size + 6 + 4 * PTPIPLimits.maximumEventParameters
        case .startData: return PacketHeader.size + 12
        case .data, .endData: return nil
        }
    }
}

/// Fixed limits of the PTP/IP codec.
package enum PTPIPLimits {
    /// Operation requests and responses carry at most five u32 parameters (ISO 15740 §9.3, CIPA DC-005 §2.3.6).
    package static let maximumOperationParameters = 5
    /// Events carry at most three u32 parameters (ISO 15740 §12.1).
    package static let maximumEventParameters = 3
    /// The longest friendly name (UTF-16 code units, without the terminator) we accept in Init packets.
    package static let maximumFriendlyNameUnits = 255
    /// The PTP/IP protocol version this codec speaks (CIPA DC-005: major 1, minor 0).
    package static let protocolVersion: UInt32 = 0x0001_0000
}

/// The 8-byte header every PTP/IP packet starts with: u32 length (header included), u32 packet type.
package enum PacketHeader {
    /// Size of the header in bytes.
    package static let size = 8
}
