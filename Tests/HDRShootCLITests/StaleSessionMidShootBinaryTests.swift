import CameraSimulator
import Foundation
import TestSupport
import Testing

@testable import HDRShootCLI

/// A link that drops MID-SHOOT, on a body that then holds the dropped session (`--hold-session-after-drop`,
/// issue 33): the first reconnect meets EOF at Init Command Request, and the shoot stops at once with the
/// power-cycle line (exit 69) instead of walking its reconnect schedule; `resume` goes on after the power cycle.
@Suite("A body holding a session dropped mid-shoot (built binary)", .realTime)
struct StaleSessionMidShootBinaryTests {
    @Test func aDropMidShootOnABodyThatHoldsItsSessionStopsWithThePowerCycleLine() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-stale-mid").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // On the time-scale hook, both sides (`ScaledTime`): the reconnect's first attempt comes 0.2 s after the drop
        // instead of 2 s; the schedule is still the standard one, so a second attempt would still be announced.
        var environment = ProcessInfo.processInfo.environment.merging(ScaledTime.environment) { $1 }
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        let state = folder.appendingPathComponent("state").path
        let configuration = SimulatorConfiguration.loopback {
            $0.holdsSessionAfterDrop = true
            $0.faults = [.dropAtFrame(3)]
            $0.exposureCap = .milliseconds(20)
            $0.imageSize = 4000
        }
        let (stopped, resumed, port) = try await CameraSimulator.withRunning(
            configuration: configuration, clock: TimeScale(factor: ScaledTime.factor).clock
        ) { simulator in
            let stopped = try await ProcessRunner.run(
                try ProcessRunner.hdrshootBinary(),
                arguments: ["run"] + ThreeByFive.flags + [
                    "--camera", "127.0.0.1:\(simulator.port)", "--confirm", "--state-dir", state, "--output",
                    folder.appendingPathComponent("out").path
                ], environment: environment, timeout: .seconds(120))
            #expect(await simulator.holdsStaleSession)
            await simulator.powerCycle()
            let resumed = try await ProcessRunner.run(
                try ProcessRunner.hdrshootBinary(), arguments: ["resume", "--confirm", "--state-dir", state],
                environment: environment, timeout: .seconds(120))
            return (stopped, resumed, simulator.port)
        }
        #expect(stopped.exitCode == 69, "\(stopped)")
        #expect(
            stopped.errorLines == [
                "error: the camera at 127.0.0.1:\(port) closed the connection as soon as a session was asked for: it "
                    + "may still hold an earlier session that was dropped without being closed; turn the camera off "
                    + "and on again, then run hdrshoot again"
            ], "\(stopped.standardError)")
        // One reconnect attempt met the held session; the rest of the schedule (2 s, 5 s, 10 s...) was not walked.
        #expect(stopped.standardOutput.contains("Reconnect attempt 1 failed"), "\(stopped.standardOutput)")
        #expect(!stopped.standardOutput.contains("attempt 2"), "\(stopped.standardOutput)")
        #expect(resumed.exitCode == 0, "\(resumed)")
        #expect(resumed.standardOutput.contains("15 of 15"), "\(resumed.standardOutput)")
    }
}
