import CameraSimulator
import Foundation
import PTPIP
import PTPIPCodec
import SonyProtocol
import TestSupport
import Testing
import Timing

/// Runs a simulator on 127.0.0.1 port 0 with fast timings for the duration of `body`, then stops it.
///
/// `HDRSHOOT_SIMULATOR_PORT` pins the port instead (scripts/ptpip-capture-check.sh captures one test on it).
func withSimulator<T: Sendable>(
    _ configure: (inout SimulatorConfiguration) -> Void = { _ in },
    _ body: (CameraSimulator) async throws -> T
) async throws -> T {
    let configuration = SimulatorConfiguration.loopback {
        if let pinned = ProcessInfo.processInfo.environment["HDRSHOOT_SIMULATOR_PORT"].flatMap({ UInt16($0) }) {
            $0.port = pinned
        }
        configure(&$0)
    }
    return try await CameraSimulator.withRunning(configuration: configuration, body)
}

/// Connects the library's PTP/IP client to the simulator (both Init handshakes).
func connectClient(
    to simulator: CameraSimulator, operationTimeout: Duration = .seconds(5), connectTimeout: Duration = .seconds(5)
) async throws -> PTPIPClient {
    var configuration = PTPIPClient.Configuration(identity: HostIdentity(guid: PTPIPGUID(bytes: Array(1...16))!))
    configuration.operationTimeout = operationTimeout
    configuration.connectTimeout = connectTimeout
    return try await PTPIPClient.connect(host: "127.0.0.1", port: simulator.port, configuration: configuration)
}

extension PTPIPClient {
    /// OpenSession and the Sony handshake as hdrshoot does it (protocol 3.00 host).
    func startSonySession() async throws {
        try await openSession(id: 1)
        for phase: UInt32 in [1, 2] { _ = try await execute(.sdioConnect, parameters: [phase, 0, 0]) }
        _ = try await execute(.sdioGetExtDeviceInfo, parameters: [UInt32(SonyProtocolVersion.v3_00.rawValue)])
        _ = try await execute(.sdioConnect, parameters: [3, 0, 0])
    }

    /// The camera's property table (0x9209, all properties, 3.00 layout).
    func propertyTable() async throws -> SonyPropertyTable {
        let result = try await execute(.sdioGetAllExtDevicePropInfo, parameters: [0])
        return SonyPropertyTable(try SonyPropertyDump(decoding: result.data, protocolVersion: .v3_00))
    }

    /// Presses or releases a Sony button.
    func button(_ control: SonyControlCode, _ state: SonyButtonState) async throws {
        _ = try await execute(.sdioControlDevice, parameters: [UInt32(control.rawValue)], sending: state.dataPhase)
    }

    /// S1 down, S2 down, S2 up, S1 up.
    func release() async throws {
        try await button(.s1Button, .down)
        try await button(.s2Button, .down)
        try await button(.s2Button, .up)
        try await button(.s1Button, .up)
    }

    /// Waits for the next event with `code` (skipping others), failing after `timeout` of real time (the
    /// simulator is a real server on its own clock).
    func waitForEvent(_ code: EventCode, timeout: Duration = .seconds(20)) async throws -> PTPEvent {
        let timedOut = PTPIPError.timedOut(address: "simulator", during: "waiting for event \(code)")
        let event = try await withTimeout(after: timeout, on: ContinuousClock(), throwing: timedOut) {
            for try await event in self.events where event.code == code { return Optional(event) }
            return nil
        }
        guard let event else { throw timedOut }
        return event
    }
}

/// The response code a client call failed with, if it failed with one.
func responseCode(of body: () async throws -> Void) async -> ResponseCode? {
    do {
        try await body()
        return nil
    } catch let PTPIPError.response(code, _) {
        return code
    } catch {
        return nil
    }
}
