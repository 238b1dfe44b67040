import CameraSimulator
import Foundation
import Synchronization
import TestSupport
import Testing

/// The wait at a body's pairing screen as the built binary shows it: said at once, counted down every 15 s of
/// the photographer's time ("Press OK on the camera: 1:45 left"), and after 2 minutes with no OK one line, exit
/// 69, and nothing more sent to the body. Run on scaled time (`HDRSHOOT_TIME_SCALE=60`: the 2 minutes last 2 s;
/// the lines still say minutes).
@Suite("Pairing countdown (built binary)", .realTime)
struct PairingCountdownBinaryTests {
    @Test func twoMinutesWithoutTheOKAreCountedDownThenOneLineExit69AndNothingMore() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-pairing-countdown").url
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        environment["HDRSHOOT_TIME_SCALE"] = "60"
        // Said after 100 ms, not the 2 s (real time, not scaled) a body that needs no pairing is given to answer.
        environment["HDRSHOOT_PAIRING_HINT"] = "100ms"
        let configuration = SimulatorConfiguration.loopback { $0.needsPairing = true }
        let asks = AskCount()
        let (result, operations) = try await CameraSimulator.withRunning(configuration: configuration) {
            simulator in
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Every Init Command Request that reaches the pairing screen.
                group.addTask { for await _ in simulator.pairingAsks { asks.count.withLock { $0 += 1 } } }
                defer { group.cancelAll() }
                let result = try await ProcessRunner.run(
                    try ProcessRunner.hdrshootBinary(),
                    arguments: ["camera", "--camera", "127.0.0.1:\(simulator.port)"], environment: environment,
                    timeout: .seconds(60))
                return (result, await simulator.operationCount)
            }
        }
        #expect(result.exitCode == 69, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let start = try #require(
            lines.firstIndex { $0.hasPrefix("Press OK on the camera to allow pairing") }, "\(lines)")
        #expect(lines[start].hasSuffix("(waiting up to 2 min; Ctrl-C stops)"), "\(lines[start])")
        #expect(
            Array(lines[(start + 1)...])
                == ["1:45", "1:30", "1:15", "1:00", "0:45", "0:30", "0:15"].map { "Press OK on the camera: \($0) left" },
            "\(result.standardOutput)")
        #expect(
            result.errorLines == [
                "error: the camera was not allowed to pair in time; open its pairing screen, run again and press OK at "
                    + "\"Allow pairing with the device?\""
            ], "\(result.standardError)")
        // One request reached the screen, no retry after the time-out, and no operation was ever sent.
        #expect(asks.count.withLock { $0 } == 1)
        #expect(operations == 0)
    }
}

/// How many Init Command Requests reached the simulated pairing screen.
private final class AskCount: Sendable {
    let count = Mutex(0)
}
