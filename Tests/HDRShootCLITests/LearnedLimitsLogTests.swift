import Foundation
import TestSupport
import Testing

/// The limits a shoot learns of a body (issue 32, point 5) are typed `learned` records in the session log: the
/// built binary shoots simulator bodies with those limits, `hdrshoot log show` says them, `log show --json` gives
/// the records as they are, and `--replay-session` gives the replayed body the same limits, so a run on it learns
/// them again.
@Suite(.realTime(timeLimit: .seconds(240)), .serialized)
struct LearnedLimitsLogTests {
    /// Shoots the 3x5 plan on a simulated body with `body`'s options (time scaled, margins of 1 s: the buffer's
    /// refused release and the ignored speed set are each waited out), and returns the run's log.
    private static func shoot(_ sandbox: ShootSandbox, body: [String]) async throws -> (ProcessResult, URL) {
        let (result, _) = try await sandbox.withSimulator(extra: body + ScaledTime.simulatorArguments) { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments + [
                    "--camera", "127.0.0.1:\(port)"
                ],
                environment: ScaledTime.environmentWithOneSecondMargins)
        }
        return (result, try #require(try RunLogs.all(sandbox).last))
    }

    /// Runs the plan again on `--camera simulator` replaying `log`, in a state home of its own (nothing recalled).
    private static func replay(_ sandbox: ShootSandbox, log: URL) async throws -> ProcessResult {
        try await sandbox.hdrshoot(
            ["run"] + ThreeByFive.flags + [
                "--confirm", "--state-dir", sandbox.root.appendingPathComponent("replay-state").path, "--output",
                sandbox.root.appendingPathComponent("replayed").path, "--camera", "simulator", "--replay-session",
                log.path
            ],
            environment: ScaledTime.environmentWithOneSecondMargins.merging([
                "XDG_STATE_HOME": sandbox.root.appendingPathComponent("replay-home").path
            ]) { $1 })
    }

    @Test func aBufferSizeLearnedInAShootIsARecordTheLogShowsAndTheReplayedBodyHas() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, log) = try await Self.shoot(sandbox, body: ["--buffer", "3"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("it holds 3; from now on only the room each release needs"))

        let records = try RunLogs.learned(in: log)
        let buffer = records.filter { $0["limit"] as? String == "bufferCapacity" }
        #expect(buffer.count == 1, "\(records)")
        #expect(buffer.first?["captures"] as? Int == 3 && buffer.first?["source"] as? String == "shoot")
        // Every release's evidence was timed: the longest is a record too.
        let latency = records.filter { $0["limit"] as? String == "evidenceLatency" }
        #expect(latency.count == 1 && (latency.first?["ms"] as? Double ?? -1) >= 0, "\(records)")

        let id = log.deletingPathExtension().lastPathComponent
        let shown = try await sandbox.hdrshoot(["log", "show", id])
        #expect(shown.exitCode == 0, "\(shown.standardError)")
        #expect(
            shown.standardOutput.contains("Learned of this body: the camera holds 3 captures (learned in this shoot)"),
            "\(shown.standardOutput.prefix(600))")
        #expect(shown.standardOutput.contains("learned the camera holds 3 captures (learned in this shoot)"))

        let json = try await sandbox.hdrshoot(["log", "show", id, "--json"])
        #expect(json.exitCode == 0, "\(json.standardError)")
        let lines = json.standardOutput.split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(!lines.isEmpty && objects.count == lines.count)
        #expect(
            objects.contains {
                $0["kind"] as? String == "learned" && $0["limit"] as? String == "bufferCapacity"
                    && $0["captures"] as? Int == 3
            })

        // The replayed body holds 3 as the logged one did: a run on it learns it again, and fires every frame once.
        let replayed = try await Self.replay(sandbox, log: log)
        #expect(replayed.exitCode == 0, "\(replayed.standardError)")
        #expect(replayed.standardError.contains("learned limits from the log: a buffer of 3 captures"))
        #expect(replayed.standardOutput.contains("it holds 3; from now on only the room each release needs"))
        #expect(replayed.standardOutput.contains("Complete: 15 of 15 exposures saved"))
    }

    @Test func aBodyThatIgnoresSpeedChangesWhileImagesWaitIsARecordAndTheReplayedBodyDoesToo() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, log) = try await Self.shoot(sandbox, body: ["--quirk", "speed-ignored-while-buffered"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let said = "did not take a new shutter speed while images waited in it"
        #expect(result.standardOutput.components(separatedBy: said).count == 2, "\(result.standardOutput)")

        let records = try RunLogs.learned(in: log)
        #expect(records.filter { $0["limit"] as? String == "speedChangeIgnoredWhileImagesWait" }.count == 1)

        let shown = try await sandbox.hdrshoot(["log", "show", log.deletingPathExtension().lastPathComponent])
        #expect(shown.standardOutput.contains("the camera takes no shutter speed change while images wait in it"))

        let replayed = try await Self.replay(sandbox, log: log)
        #expect(replayed.exitCode == 0, "\(replayed.standardError)")
        #expect(replayed.standardError.contains("speed-ignored-while-buffered (a shoot learned"))
        #expect(replayed.standardOutput.contains(said), "\(replayed.standardOutput)")
        #expect(replayed.standardOutput.contains("Complete: 15 of 15 exposures saved"))
    }
}

/// The session logs the sandbox's runs wrote.
enum RunLogs {
    /// The session logs of `run` in the sandbox's state home, oldest first.
    static func all(_ sandbox: ShootSandbox) throws -> [URL] {
        let folder = sandbox.root.appendingPathComponent("state-home/hdrshoot/logs")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.contains("-run-") }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The `learned` records of the log at `url`, as JSON objects.
    static func learned(in url: URL) throws -> [[String: Any]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }.filter { $0["kind"] as? String == "learned" }
    }
}
