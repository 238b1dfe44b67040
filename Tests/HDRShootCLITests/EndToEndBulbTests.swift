import Foundation
import TestSupport
import Testing

/// A bracket reaching past 30": the built binary shoots the bulb frame by holding the release for the exposure,
/// and the image says so. The hold is real waiting on the time-scale hook (`ScaledTime`): hdrshoot holds for 4 s
/// and the simulator, whose time runs 10 times faster, measures 40 s between S2 down and up (the simulator's
/// `--exposure-cap` shortens timed exposures only).
@Suite(.realTime(timeLimit: .seconds(180)), .serialized)
struct EndToEndBulbTests {
    @Test func aFortySecondFrameIsShotInBulbAndItsImageRecordsTheHeldTime() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command =
            ["run", "--shadow", "40s", "--highlight", "30", "--frames", "2", "--ev", "1/3", "--confirm"]
            + sandbox.shootArguments
        let (result, fired) = try await sandbox.withSimulator(extra: ScaledTime.simulatorArguments) { port in
            try await sandbox.hdrshoot(
                command + ["--camera", "127.0.0.1:\(port)"], environment: ScaledTime.environment, timeout: .seconds(150)
            )
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 2 of 2 exposures saved"))
        #expect(fired == ["30\"", "BULB"])
        let log = try String(contentsOfFile: sandbox.captureLog, encoding: .utf8).split(separator: "\n")
        let bulb = try #require(jsonObject(String(log[1])))
        let held = try #require(bulb["exposureSeconds"] as? Double)
        // The release was held for 40 s (scaled) on hdrshoot's clock; the body measured it between S2 down and up.
        #expect(abs(held - 40) < 0.5, "held \(held) s")
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.map { $0["actualSpeed"] as? String } == ["30\"", "40\""])
    }
}
