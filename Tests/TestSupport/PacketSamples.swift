import PTPIPCodec

/// One packet of each of the 14 PTP/IP types, with non-trivial field values (the codec's tests and the
/// transport's share them).
package enum PacketSamples {
    /// A host GUID with a distinct byte in each place.
    package static let hostGUID = PTPIPGUID(bytes: Array(0x10...0x1F))!

    /// Every packet type at least once, Data and End_Data also empty.
    package static let all: [Packet] = [
        .initCommandRequest(InitCommandRequest(guid: hostGUID, friendlyName: "hdrshoot on pi ✓")),
        .initCommandAck(InitCommandAck(connectionNumber: 0x51D9_8AEC, guid: .zero, friendlyName: "DSC-RX100M7")),
        .initEventRequest(connectionNumber: 1),
        .initEventAck,
        .initFail(reason: .busy),
        .operationRequest(OperationRequest(code: .openSession, transactionID: 0, parameters: [1])),
        .operationRequest(
            OperationRequest(
                dataPhase: .dataOut, code: OperationCode(0x9205), transactionID: 7, parameters: [0xD20D, 1, 2, 3, 4])),
        .operationResponse(OperationResponse(code: .ok, transactionID: 2)),
        .operationResponse(OperationResponse(code: .deviceBusy, transactionID: 9, parameters: [0x012C])),
        .event(PTPEvent(code: EventCode(0xC203), transactionID: 0xFFFF_FFFF, parameters: [0])),
        .event(PTPEvent(code: .objectAdded, transactionID: 3, parameters: [1, 2, 3])),
        .startData(transactionID: 2, totalLength: 0x1_0000_0125),
        .data(transactionID: 2, payload: [0x64, 0x00, 0x11, 0x00, 0x00, 0x00]),
        .data(transactionID: 2, payload: []),
        .cancel(transactionID: 5),
        .endData(transactionID: 2, payload: []),
        .endData(transactionID: 2, payload: [0x18, 0x01]),
        .probeRequest,
        .probeResponse
    ]
}
