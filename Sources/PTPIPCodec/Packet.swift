/// One PTP/IP packet of any of the 14 types of CIPA DC-005, without its 8-byte header.
///
/// Encode with `encode(into:)`/`encoded()`, decode a whole packet with `Packet.decode(_:)` or a stream
/// with `PacketFramer`. Data and End_Data payloads are slices so decoding shares the received bytes.
package enum Packet: Sendable, Equatable {
    /// Init_Command_Request (1): host GUID, host friendly name, protocol version.
    case initCommandRequest(InitCommandRequest)
    /// Init_Command_Ack (2): connection number, camera GUID, camera friendly name, protocol version.
    case initCommandAck(InitCommandAck)
    /// Init_Event_Request (3): the connection number the command Ack gave.
    case initEventRequest(connectionNumber: UInt32)
    /// Init_Event_Ack (4): empty.
    case initEventAck
    /// Init_Fail (5): why the camera refused.
    case initFail(reason: InitFailReason)
    /// Operation_Request (6).
    case operationRequest(OperationRequest)
    /// Operation_Response (7).
    case operationResponse(OperationResponse)
    /// Event (8).
    case event(PTPEvent)
    /// Start_Data (9): opens the data phase of `transactionID` with its total payload length.
    case startData(transactionID: UInt32, totalLength: UInt64)
    /// Data (10): a chunk of the data phase.
    case data(transactionID: UInt32, payload: ArraySlice<UInt8>)
    /// Cancel (11): cancels `transactionID`.
    case cancel(transactionID: UInt32)
    /// End_Data (12): the last chunk of the data phase (often empty).
    case endData(transactionID: UInt32, payload: ArraySlice<UInt8>)
    /// Probe_Request (13): "are you there?".
    case probeRequest
    /// Probe_Response (14): "yes".
    case probeResponse

    /// The packet type written in the header.
    package var type: PacketType {
        switch self {
        case .initCommandRequest: return .initCommandRequest
        case .initCommandAck: return .initCommandAck
        case .initEventRequest: return .initEventRequest
        case .initEventAck: return .initEventAck
        case .initFail: return .initFail
        case .operationRequest: return .operationRequest
        case .operationResponse: return .operationResponse
        case .event: return .event
        case .startData: return .startData
        case .data: return .data
        case .cancel: return .cancel
        case .endData: return .endData
        case .probeRequest: return .probeRequest
        case .probeResponse: return .probeResponse
        }
    }
}

/// The body of an Init_Command_Request (CIPA DC-005 §2.3.1).
package struct InitCommandRequest: Sendable, Equatable {
    /// The initiator's GUID; cameras that pair remember it, so keep it stable per host.
    package var guid: PTPIPGUID
    /// The name the camera shows for this host (UTF-16LE on the wire, zero-terminated, no count).
    package var friendlyName: String
    /// The PTP/IP version, 0x00010000 for 1.0.
    package var protocolVersion: UInt32

    /// Creates a request.
    package init(guid: PTPIPGUID, friendlyName: String, protocolVersion: UInt32 = PTPIPLimits.protocolVersion) {
        self.guid = guid
        self.friendlyName = friendlyName
        self.protocolVersion = protocolVersion
    }
}

/// The body of an Init_Command_Ack (CIPA DC-005 §2.3.2).
package struct InitCommandAck: Sendable, Equatable {
    /// The number the host must quote in its Init_Event_Request.
    package var connectionNumber: UInt32
    /// The responder's GUID.
    package var guid: PTPIPGUID
    /// The camera's name, e.g. "DSC-RX100M7".
    package var friendlyName: String
    /// The responder's PTP/IP version.
    package var protocolVersion: UInt32

    /// Creates an acknowledgement.
    package init(
        connectionNumber: UInt32, guid: PTPIPGUID, friendlyName: String,
        protocolVersion: UInt32 = PTPIPLimits.protocolVersion
    ) {
        self.connectionNumber = connectionNumber
        self.guid = guid
        self.friendlyName = friendlyName
        self.protocolVersion = protocolVersion
    }
}

/// The body of an Operation_Request (CIPA DC-005 §2.3.6).
package struct OperationRequest: Sendable, Equatable {
    /// Which way the data phase (if any) flows.
    package var dataPhase: DataPhaseInfo
    /// The operation.
    package var code: OperationCode
    /// The transaction id (0 for OpenSession, then 1, 2, ... per ISO 15740 §9.3.1).
    package var transactionID: UInt32
    /// Zero to five parameters.
    package var parameters: [UInt32]

    /// Creates a request; more than five parameters is a programming error.
    package init(
        dataPhase: DataPhaseInfo = .noDataOrDataIn, code: OperationCode, transactionID: UInt32,
        parameters: [UInt32] = []
    ) {
        precondition(parameters.count <= PTPIPLimits.maximumOperationParameters, "at most 5 operation parameters")
        self.dataPhase = dataPhase
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
    }
}

/// The body of an Operation_Response (CIPA DC-005 §2.3.7).
package struct OperationResponse: Sendable, Equatable {
    /// The response code (OK or why not).
    package var code: ResponseCode
    /// The transaction it answers.
    package var transactionID: UInt32
    /// Zero to five parameters.
    package var parameters: [UInt32]

    /// Creates a response; more than five parameters is a programming error.
    package init(code: ResponseCode, transactionID: UInt32, parameters: [UInt32] = []) {
        precondition(parameters.count <= PTPIPLimits.maximumOperationParameters, "at most 5 response parameters")
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
    }
}

/// The body of an Event packet (CIPA DC-005 §2.3.8): what the camera reports on the event connection.
package struct PTPEvent: Sendable, Equatable {
    /// The event.
    package var code: EventCode
    /// The transaction it relates to (Sony sends 0xFFFFFFFF for none).
    package var transactionID: UInt32
    /// Zero to three parameters.
    package var parameters: [UInt32]

    /// Creates an event; more than three parameters is a programming error.
    package init(code: EventCode, transactionID: UInt32, parameters: [UInt32] = []) {
        precondition(parameters.count <= PTPIPLimits.maximumEventParameters, "at most 3 event parameters")
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
    }
}
