import CameraSimulator
import PTPIP
import PTPIPCodec
import SonyCamera
import TestSupport
import Testing

@testable import ShootKit

/// `readReport` (`hdrshoot camera`): one visit to the body, connected with its backoff and let go however the
/// read ends, against the simulated body over loopback.
@Suite(.realTime) struct CommandCameraReportTests {
    private static func camera(port: UInt16) -> SonyCamera {
        var configuration = SonyCameraConfiguration(
            host: "127.0.0.1", port: port,
            identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests"))
        configuration.connectBackoff = []
        return SonyCamera(configuration: configuration)
    }

    @Test func aReportIsReadAndTheCameraIsLetGoAfterwards() async throws {
        var simulator = SimulatorConfiguration()
        simulator.port = 0
        try await CameraSimulator.withRunning(configuration: simulator) { running in
            let camera = Self.camera(port: running.port)
            let reading = try await camera.readReport()
            guard case .ptpip(let info) = reading else {
                Issue.record("expected a PTP/IP report, got \(reading)")
                return
            }
            #expect(!info.model.isEmpty)
            #expect(await camera.isConnected == false)
        }
    }

    @Test func aBodyThatCannotBeReachedThrowsAndLeavesNothingConnected() async throws {
        let camera = Self.camera(port: try LoopbackSocket.closedTCPPort())
        await #expect(throws: SonyCameraError.self) { try await camera.readReport() }
        #expect(await camera.isConnected == false)
    }
}
