import CameraSimulator
import Foundation
import Glibc
import TestSupport
import Testing

/// A body that needs pairing (Camera Control PTP 3 reference pp. 40-41) as the built binary meets it: the
/// pairing screen answered OK (`--pairing`, the shoot goes on), answered no or never allowed (Init Fail reason 1:
/// one line, exit 69), and Ctrl-C while it waits.
@Suite("Pairing (built binary)", .realTime)
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

    static let refusalLine =
        "error: the camera refused this computer (Init Fail reason 1): it was not allowed to pair; run again "
        + "with the camera's pairing screen open and press OK at \"Allow pairing with the device?\""

    /// Runs `hdrshoot <arguments>` against a simulated body that needs pairing; `atTheScreen` runs once hdrshoot
    /// has said to press OK (with the simulator and the process), and its result is returned with the exit status
    /// and both outputs.
    static func atThePairingScreen<T: Sendable>(
        _ arguments: (UInt16, String) -> [String],
        _ atTheScreen: @escaping (CameraSimulator, BackgroundProcess) async throws -> T
    ) async throws -> (value: T, status: Int32, output: String, errors: String, line: String) {
        let folder = try TemporaryFolder(prefix: "hdrshoot-pairing").url
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        // The body always shows the pairing screen: the line comes after 100 ms instead of the 2 s a body that
        // needs no pairing is given to acknowledge, and the test waits for the line.
        environment["HDRSHOOT_PAIRING_HINT"] = "100ms"
        let configuration = SimulatorConfiguration.loopback {
            $0.needsPairing = true
            $0.exposureCap = .milliseconds(20)
            $0.imageSize = 4000
        }
        return try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments(simulator.port, folder.path),
                environment: environment
            ) { process in
                let line = try await process.waitForLine(timeout: .seconds(60)) {
                    $0.hasPrefix("Press OK on the camera")
                }
                let value = try await atTheScreen(simulator, process)
                let status = await process.waitForExit(timeout: .seconds(120))
                return (value, status, process.standardOutput, process.standardError, line)
            }
        }
    }

    @Test func aBodyThatNeedsPairingShootsAfterTheOK() async throws {
        let result = try await Self.atThePairingScreen({ port, folder in
            ["run"] + ThreeByFive.flags + [
                "--camera", "127.0.0.1:\(port)", "--confirm", "--state-dir", folder + "/state", "--output",
                folder + "/out"
            ]
        }) { simulator, _ in
            // The body shows the name hdrshoot said it would, and the photographer presses OK.
            let asked = try await eventually { await simulator.pairingRequests.count == 1 }
            #expect(asked)
            let names = await simulator.pairingRequests
            #expect(await simulator.answerPairing(allow: true) == 1)
            return names
        }
        let name = try #require(result.value.first)
        #expect(
            result.line == "Press OK on the camera to allow pairing with '\(name)' (waiting up to 2 min; Ctrl-C stops)")
        #expect(result.status == 0, "\(result.output)\n\(result.errors)")
        #expect(result.output.contains("Complete: 15 of 15 exposures saved"), "\(result.output)")
    }

    @Test func aRefusalAtThePairingScreenIsOneLineExit69() async throws {
        let result = try await Self.atThePairingScreen({ port, _ in ["camera", "--camera", "127.0.0.1:\(port)"] }) {
            simulator, _ in
            _ = try await eventually { await simulator.pairingRequests.count == 1 }
            return await simulator.answerPairing(allow: false)
        }
        #expect(result.value == 1)
        #expect(result.status == 69, "\(result.output)\n\(result.errors)")
        #expect(result.errors.split(separator: "\n") == [Substring(Self.refusalLine)], "\(result.errors)")
        #expect(!result.output.contains("trying again"), "\(result.output)")
    }

    @Test func ctrlCWhileTheBodyWaitsForTheOKStopsAtOnce() async throws {
        let result = try await Self.atThePairingScreen({ port, _ in ["camera", "--camera", "127.0.0.1:\(port)"] }) {
            _, process in
            process.send(SIGINT)
        }
        // Stopped by the interrupt itself, nothing else printed: no error line, no retry.
        #expect(result.status == 128 + SIGINT || result.status == 130, "\(result.output)\n\(result.errors)")
        #expect(!result.errors.contains("error:"), "\(result.errors)")
    }
}
