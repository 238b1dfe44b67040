import CameraSimulator
import Foundation
import TestSupport
import Testing

/// A body that needs pairing and was not allowed to pair (`--fault refuse-pairing`: Init Fail reason 1), as the
/// built binary meets it.
@Suite("Pairing refused (built binary)", .realTime)
struct PairingBinaryTests {
    @Test func aRefusedPairingIsOneLineExit69AndNoRetry() async throws {
        let config = try TemporaryFolder(prefix: "hdrshoot-pairing").url
        defer { try? FileManager.default.removeItem(at: config) }
        let configuration = SimulatorConfiguration.loopback { $0.faults = [.refusePairing] }
        let result = try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            try await CameraCommandTests.runCamera(["--camera", "127.0.0.1:\(simulator.port)"], config: config)
        }
        #expect(result.exitCode == 69, "\(result)")
        #expect(
            result.errorLines == [
                "error: the camera refused this computer (Init Fail reason 1): it was not allowed to pair; run again "
                    + "with the camera's pairing screen open and press OK at \"Allow pairing with the device?\""
            ], "\(result.standardError)")
        // Refused means refused: no retry schedule was walked (it waits 2 s, 5 s and 10 s between attempts).
        #expect(!result.standardOutput.contains("trying again"), "\(result.standardOutput)")
        #expect(result.runTime < TimingBounds.notAHang)
    }
}
