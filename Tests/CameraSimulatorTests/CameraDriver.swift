import CameraSimulator
import PTPIPCodec
import SonyProtocol
import Testing

/// Drives a `SimulatedCamera` request by request in virtual time (no sockets, no clock).
struct CameraDriver {
    var camera: SimulatedCamera
    var transactionID: UInt32 = 0
    var now: Duration = .zero

    init(_ configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws {
        var configuration = SimulatorConfiguration()
        configure(&configuration)
        camera = SimulatedCamera(
            configuration: configuration, datasets: try SimulatorDatasets(configuration: configuration))
    }

    /// Sends one request and returns what the camera does.
    mutating func action(_ code: OperationCode, _ parameters: [UInt32] = [], data: [UInt8] = []) -> CameraAction {
        transactionID += 1
        let request = OperationRequest(
            dataPhase: data.isEmpty ? .noDataOrDataIn : .dataOut, code: code, transactionID: transactionID,
            parameters: parameters)
        return camera.handle(request, dataOut: data, now: now)
    }

    /// Sends one request that must be answered, and returns the answer.
    mutating func send(
        _ code: OperationCode, _ parameters: [UInt32] = [], data: [UInt8] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> CameraReply {
        let result = action(code, parameters, data: data)
        guard case let .reply(reply) = result else {
            Issue.record("expected an answer to \(code), got \(result)", sourceLocation: sourceLocation)
            return CameraReply(.generalError)
        }
        return reply
    }

    /// Opens the session and runs the Sony handshake (SDIO_Connect 1, 2, 0x9202, 3, full 0x9209).
    mutating func connect() {
        _ = send(.openSession, [1])
        _ = send(.sdioConnect, [1, 0, 0])
        _ = send(.sdioConnect, [2, 0, 0])
        _ = send(.sdioGetExtDeviceInfo, [0x012C])
        _ = send(.sdioConnect, [3, 0, 0])
        _ = send(.sdioGetAllExtDevicePropInfo, [0])
    }

    /// Presses a Sony button through SDIO_ControlDevice.
    mutating func button(_ control: SonyControlCode, _ state: SonyButtonState) -> CameraAction {
        action(.sdioControlDevice, [UInt32(control.rawValue)], data: state.dataPhase)
    }

    /// The full release sequence a client sends: S1 down, S2 down, S2 up, S1 up.
    mutating func release() -> [CameraAction] {
        [button(.s1Button, .down), button(.s2Button, .down), button(.s2Button, .up), button(.s1Button, .up)]
    }

    /// Lets `duration` pass.
    mutating func wait(_ duration: Duration) {
        now += duration
        camera.advance(to: now)
    }

    /// The property dump the camera answers now (0 = all, 1 = changed only).
    mutating func properties(changedOnly: Bool = false) throws -> [SonyPropertyDescriptor] {
        let reply = send(.sdioGetAllExtDevicePropInfo, [changedOnly ? 1 : 0])
        let version = camera.negotiatedVersion
        return try SonyPropertyDump(decoding: reply.data?.allBytes ?? [], protocolVersion: version).descriptors
    }
}

extension CameraAction {
    /// The response code when this is an answer.
    var code: ResponseCode? {
        if case let .reply(reply) = self { return reply.code }
        return nil
    }
}
