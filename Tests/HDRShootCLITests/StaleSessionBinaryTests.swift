import CameraSimulator
import Foundation
import Glibc
import TestSupport
import Testing

/// A body that still holds a session dropped without CloseSession closes every new connection at Init Command
/// Request until it is power-cycled (`--hold-session-after-drop`, issue 33): hdrshoot says so in one line
/// instead of walking its retry schedule.
@Suite("A body holding a dropped session (built binary)", .realTime)
struct StaleSessionBinaryTests {
    @Test func aKilledShootLeavesTheBodyHoldingItsSessionAndTheNextRunSaysPowerCycle() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-stale").url
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        let configuration = SimulatorConfiguration.loopback {
            $0.holdsSessionAfterDrop = true
            $0.exposureCap = .milliseconds(20)
            $0.imageSize = 4000
        }
        let (refused, afterPowerCycle, port) = try await CameraSimulator.withRunning(configuration: configuration) {
            simulator in
            // hdrshoot dies outright mid-shoot (SIGKILL sends nothing): the body is left holding the session.
            try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(),
                arguments: ["run"] + ThreeByFive.flags + [
                    "--camera", "127.0.0.1:\(simulator.port)", "--confirm", "--state-dir",
                    folder.appendingPathComponent("state").path, "--output", folder.appendingPathComponent("out").path
                ],
                environment: environment
            ) { shoot in
                _ = try await shoot.waitForLine(timeout: .seconds(60)) { $0.contains("(2 of 15)") }
                shoot.send(SIGKILL)
                _ = await shoot.waitForExit()
            }
            #expect(try await eventually { await simulator.holdsStaleSession })
            let refused = try await CameraCommandTests.runCamera(
                ["--camera", "127.0.0.1:\(simulator.port)"], config: folder)
            await simulator.powerCycle()
            let afterPowerCycle = try await CameraCommandTests.runCamera(
                ["--camera", "127.0.0.1:\(simulator.port)"], config: folder)
            return (refused, afterPowerCycle, simulator.port)
        }
        #expect(refused.exitCode == 69, "\(refused)")
        #expect(
            refused.errorLines == [
                "error: the camera at 127.0.0.1:\(port) closed the connection as soon as a session was asked for: it "
                    + "may still hold an earlier session that was dropped without being closed; turn the camera off "
                    + "and on again, then run hdrshoot again"
            ], "\(refused.standardError)")
        // One attempt, no retry schedule walked (it waits 2 s, 5 s and 10 s between attempts).
        #expect(!refused.standardOutput.contains("trying again"), "\(refused.standardOutput)")
        #expect(afterPowerCycle.exitCode == 0, "\(afterPowerCycle)")
    }

    @Test func simulateHoldsADroppedSessionUntilPowerCycleIsTyped() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-stale").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // On the time-scale hook (`ScaledTime`, both sides): the retry after the drop comes after 0.2 s, not 2 s.
        try await BackgroundProcess.with(
            try ProcessRunner.hdrshootBinary(),
            arguments: ["simulate", "--port", "0", "--hold-session-after-drop", "--fault", "drop-at-op:3"]
                + ScaledTime.simulatorArguments,
            typing: true
        ) { simulator in
            let listening = try await simulator.waitForLine { $0.contains("listening on") }
            let address = try #require(listening.split(separator: " ").last.map(String.init))
            // The link drops in the start-up (the third operation); the retry meets the held session.
            let refused = try await CameraCommandTests.runCamera(
                ["--camera", address], config: folder, environment: ScaledTime.environment)
            #expect(refused.exitCode == 69, "\(refused)")
            #expect(refused.standardError.contains("turn the camera off and on again"), "\(refused.standardError)")
            simulator.type("power-cycle\n")
            _ = try await simulator.waitForLine { $0 == "power-cycled: the dropped session is gone" }
            let shown = try await CameraCommandTests.runCamera(
                ["--camera", address], config: folder, environment: ScaledTime.environment)
            #expect(shown.exitCode == 0, "\(shown)")
        }
    }
}
